; Kotlin definitions. Overloads are told apart by their parameter list. An extension function is
; named through its receiver type as Kotlin spells calls to it (`fun String.shout()` is
; `String.shout`), the receiver left out of the hash like a Go receiver. A companion object is a
; scope that names nothing: `Fetcher.create` is how callers spell `Fetcher.Companion.create`.
(companion_object) @scope

(class_declaration "interface" (type_identifier) @name) @definition.interface
(class_declaration (type_identifier) @name (enum_class_body)) @definition.enum
(class_declaration (type_identifier) @name) @definition.class
(object_declaration (type_identifier) @name) @definition.object
(type_alias (type_identifier) @name) @definition.type

(function_declaration
  receiver: (receiver_type [
    (user_type . (type_identifier) @receiver)
    (nullable_type (user_type . (type_identifier) @receiver))
  ])
  (simple_identifier) @name
  (function_value_parameters) @params) @definition.function
(function_declaration (simple_identifier) @name (function_value_parameters) @params) @definition.function
(secondary_constructor "constructor" @name (function_value_parameters) @params) @definition.constructor

; Properties of classes and objects, and top-level ones (not local `val`s).
(class_body (property_declaration (variable_declaration (simple_identifier) @name)) @definition.property)
(source_file (property_declaration (variable_declaration (simple_identifier) @name)) @definition.property)
