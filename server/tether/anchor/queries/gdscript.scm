; GDScript definitions. A script is a class: with `class_name Fetcher` its members are
; `Fetcher.member` (the whole file is a scope named by it); without, they are bare names.
; Inner classes nest (`Fetcher.Entry.touch`). GDScript has no overloads, so no @params.
(source (class_name_statement name: (name) @scope.name)) @scope

(function_definition name: (name) @name) @definition.function
(class_definition name: (name) @name) @definition.class
(signal_statement name: (name) @name) @definition.signal
(enum_definition name: (name) @name) @definition.enum

(source (const_statement name: (name) @name) @definition.constant)
(class_body (const_statement name: (name) @name) @definition.constant)

; Member variables (with their annotations, `@export var timeout := 30.0`), not locals in bodies.
(source (variable_statement name: (name) @name) @definition.variable)
(class_body (variable_statement name: (name) @name) @definition.variable)
