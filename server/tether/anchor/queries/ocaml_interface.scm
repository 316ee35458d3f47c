; OCaml interfaces (.mli): what a module exports. `val` specifications, externals, types,
; exceptions, module and class signatures; names nest through `module M : sig ... end`.
(value_specification (value_name) @name) @definition.value
(value_specification (parenthesized_operator (_) @name)) @definition.value
(external (value_name) @name) @definition.function

(type_binding name: (type_constructor) @name) @definition.type
(exception_definition (constructor_declaration (constructor_name) @name)) @definition.exception
(module_binding (module_name) @name) @definition.module
(module_type_definition (module_type_name) @name) @definition.module_type

(class_binding (class_name) @name) @definition.class
(class_type_binding (class_type_name) @name) @definition.class
(method_specification (method_name) @name) @definition.method
