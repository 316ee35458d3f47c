; Haskell declarations. A function is its type signature and all its equations, one symbol
; (Language.merge_clauses joins consecutive declarations of one name). Only top-level, class and
; instance declarations count: `where`/`let` bindings belong to the function that holds them.
(declarations (signature name: (variable) @name) @definition.function)
(declarations (signature name: (prefix_id (operator) @name)) @definition.function)
(declarations (function name: (variable) @name) @definition.function)
(declarations (function (infix operator: (operator) @name)) @definition.function)
(declarations (bind name: (variable) @name) @definition.function)

(declarations (data_type name: (name) @name) @definition.data)
(declarations (newtype name: (name) @name) @definition.newtype)
(declarations (type_synomym name: (name) @name) @definition.type)
(declarations (type_family name: (name) @name) @definition.type)
(declarations (class name: (name) @name) @definition.class)

; Class methods: `Class.method`, the signature and its default equations.
(class_declarations (signature name: (variable) @name) @definition.function)
(class_declarations (function name: (variable) @name) @definition.function)
(class_declarations (bind name: (variable) @name) @definition.function)

; An instance is a scope: its class prefixes the methods, its type as spelled tells the instances
; apart (`Show.show@Key`, `Store.get@(Cache String String)`), like a Rust trait impl.
(instance name: (name) @scope.name patterns: (type_patterns) @scope.trait) @scope
(instance_declarations (function name: (variable) @name) @definition.function)
(instance_declarations (bind name: (variable) @name) @definition.function)
