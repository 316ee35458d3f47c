; OCaml definitions at module level (a file, `struct ... end`, `sig ... end`); `let ... in` locals
; belong to their function. Modules nest (`Inner.go`). `let`/`type`/`module` keywords wrap what
; they bind unless one binds several (`let rec f ... and g ...`): Language.wrappers.
(compilation_unit (value_definition (let_binding pattern: (value_name) @name (parameter)) @definition.function))
(structure (value_definition (let_binding pattern: (value_name) @name (parameter)) @definition.function))
(compilation_unit (value_definition
    (let_binding pattern: (value_name) @name body: [(fun_expression) (function_expression)]) @definition.function))
(structure (value_definition
    (let_binding pattern: (value_name) @name body: [(fun_expression) (function_expression)]) @definition.function))
(compilation_unit (value_definition (let_binding pattern: (parenthesized_operator (_) @name)) @definition.function))
(structure (value_definition (let_binding pattern: (parenthesized_operator (_) @name)) @definition.function))
(compilation_unit (value_definition (let_binding pattern: (value_name) @name) @definition.value))
(structure (value_definition (let_binding pattern: (value_name) @name) @definition.value))
(external (value_name) @name) @definition.function
(value_specification (value_name) @name) @definition.value
(value_specification (parenthesized_operator (_) @name)) @definition.value

(type_binding name: (type_constructor) @name) @definition.type
(exception_definition (constructor_declaration (constructor_name) @name)) @definition.exception
(module_binding (module_name) @name) @definition.module
(module_type_definition (module_type_name) @name) @definition.module_type

(class_binding (class_name) @name) @definition.class
(class_type_binding (class_type_name) @name) @definition.class
(method_definition (method_name) @name) @definition.method
(method_specification (method_name) @name) @definition.method
(instance_variable_definition (instance_variable_name) @name) @definition.attribute
