; Scala definitions. Overloads are told apart by their parameter lists as spelled, type parameters
; and every clause included (`[T](url: String)(implicit ec: Ec)`). A companion `object Fetcher` and
; `class Fetcher` share a name, told apart by their keyword (`Fetcher@object`, `Fetcher@class`,
; Language.disc_keywords). A Scala 3 `extension (s: String)` is a scope named by its receiver type:
; `def shout` in it is `String.shout`.
(extension_definition parameters: (parameters (parameter type: [
  (type_identifier) @scope.name
  (generic_type type: (type_identifier) @scope.name)
]))) @scope
(extension_definition) @scope

(class_definition name: (identifier) @name) @definition.class
(object_definition name: (identifier) @name) @definition.object
(trait_definition name: (identifier) @name) @definition.trait
(enum_definition name: (identifier) @name) @definition.enum
(type_definition name: (type_identifier) @name) @definition.type

(function_definition name: (identifier) @name parameters: (_)* @params) @definition.function
(function_declaration name: (identifier) @name parameters: (_)* @params) @definition.function

; Members of classes, objects and traits, and Scala 3 top-level definitions (not locals).
(template_body (val_definition pattern: (identifier) @name) @definition.attribute)
(template_body (var_definition pattern: (identifier) @name) @definition.attribute)
(compilation_unit (val_definition pattern: (identifier) @name) @definition.constant)
