; Python definitions. Decorators belong to the definition (Language.wrappers).
(class_definition name: (identifier) @name) @definition.class

(function_definition
  name: (identifier) @name
  parameters: (parameters) @params) @definition.function

; Module-level and class-level assignments: constants and class attributes.
(module (assignment left: (identifier) @name) @definition.constant)
(class_definition
  body: (block (assignment left: (identifier) @name) @definition.attribute))
