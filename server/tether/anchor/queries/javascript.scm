; JavaScript definitions. `export`, `const`/`let`/`var` wrap what they declare (Language.wrappers).
; Functions and classes anywhere: nesting gives `Class.method` and `outer.inner`.
(function_declaration
  name: (identifier) @name
  parameters: (formal_parameters) @params) @definition.function
(generator_function_declaration
  name: (identifier) @name
  parameters: (formal_parameters) @params) @definition.function
(class_declaration name: (identifier) @name) @definition.class

; Methods; `static`/`get`/`set` tell twins apart (Language.disc_keywords).
(class_body
  (method_definition
    name: [(property_identifier) (private_property_identifier)] @name
    parameters: (formal_parameters) @params) @definition.function)
; An object literal bound to a name prefixes its members (`var api = { save() {} }` has `api.save`),
; as a module-level `const` does; `module.exports = { parse() {} }` exports `parse`, like `exports.parse`.
(variable_declarator name: (identifier) @scope.name value: (object)) @scope
(expression_statement
  (assignment_expression
    left: (member_expression
      object: (identifier) @_module (#eq? @_module "module")
      property: (property_identifier) @_exports (#eq? @_exports "exports"))
    right: (object) @defines))
; Object literals bound to a name (`const api = { save() {} }`), not options passed inline.
(variable_declarator value: (object) @defines)  ; members: ecma_shared.scm

; A function or class bound to a name is that function or class: `const f = (x) => ...`.
(variable_declarator
  name: (identifier) @name
  value: [
    (arrow_function parameters: (formal_parameters) @params)
    (arrow_function parameter: (identifier) @params)
    (function_expression parameters: (formal_parameters) @params)
    (generator_function parameters: (formal_parameters) @params)
  ]) @definition.function
(variable_declarator name: (identifier) @name value: (class)) @definition.class
(field_definition
  property: [(property_identifier) (private_property_identifier)] @name
  value: [
    (arrow_function parameters: (formal_parameters) @params)
    (arrow_function parameter: (identifier) @params)
    (function_expression parameters: (formal_parameters) @params)
  ]) @definition.function

; Class fields, and module-level `const` (not `let`/`var`: those are state, not definitions).
(field_definition property: [(property_identifier) (private_property_identifier)] @name) @definition.attribute
(program
  (lexical_declaration kind: "const" (variable_declarator name: (identifier) @name) @definition.constant))
(program
  (export_statement
    declaration: (lexical_declaration kind: "const" (variable_declarator name: (identifier) @name) @definition.constant)))

; CommonJS and prototypes, as much of npm defines its API: `Foo.prototype.run = function` is
; `Foo.run` (a method, as in a class), `app.use = function use()` is `app.use`, and
; `exports.parse` / `module.exports.parse` is `parse`. The receiver is left out of the hash.
(expression_statement
  (assignment_expression
    left: (member_expression
      object: (member_expression
        object: (identifier) @receiver
        property: (property_identifier) @_proto (#eq? @_proto "prototype"))
      property: (property_identifier) @name)
    right: [
      (function_expression parameters: (formal_parameters) @params)
      (generator_function parameters: (formal_parameters) @params)
      (arrow_function parameters: (formal_parameters) @params)
      (arrow_function parameter: (identifier) @params)
    ])) @definition.function
(expression_statement
  (assignment_expression
    left: (member_expression
      object: (identifier) @receiver (#not-match? @receiver "^(exports|module)$")
      property: (property_identifier) @name)
    right: [
      (function_expression parameters: (formal_parameters) @params)
      (generator_function parameters: (formal_parameters) @params)
      (arrow_function parameters: (formal_parameters) @params)
      (arrow_function parameter: (identifier) @params)
    ])) @definition.function
(expression_statement
  (assignment_expression
    left: [
      (member_expression
        object: (identifier) @_exports (#eq? @_exports "exports")
        property: (property_identifier) @name)
      (member_expression
        object: (member_expression
          object: (identifier) @_module (#eq? @_module "module")
          property: (property_identifier) @_exports (#eq? @_exports "exports"))
        property: (property_identifier) @name)
    ]
    right: [
      (function_expression parameters: (formal_parameters) @params)
      (generator_function parameters: (formal_parameters) @params)
      (arrow_function parameters: (formal_parameters) @params)
      (arrow_function parameter: (identifier) @params)
    ])) @definition.function

; include: ecma_shared.scm
