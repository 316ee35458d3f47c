; Swift definitions. An `extension` is a scope, not a symbol: its type prefixes what it adds
; (`Fetcher.get`), as a Rust impl does. Overloads are told apart by their parameter clause as
; spelled, argument labels included (`(_ url: String, attempts n: Int)`): the grammar has no node
; for it, so it is the span of its parentheses (two @params captures).
(class_declaration declaration_kind: "extension" name: (user_type (type_identifier) @scope.name)) @scope

(class_declaration declaration_kind: "struct" name: (type_identifier) @name) @definition.struct
(class_declaration declaration_kind: "enum" name: (type_identifier) @name) @definition.enum
(class_declaration name: (type_identifier) @name) @definition.class
(protocol_declaration name: (type_identifier) @name) @definition.interface
(typealias_declaration name: (type_identifier) @name) @definition.type

(function_declaration name: (simple_identifier) @name "(" @params ")" @params) @definition.function
(protocol_function_declaration name: (simple_identifier) @name "(" @params ")" @params) @definition.function
(init_declaration "init" @name "(" @params ")" @params) @definition.constructor
(deinit_declaration "deinit" @name) @definition.destructor
(subscript_declaration "subscript" @name "(" @params ")" @params) @definition.subscript

; Stored and computed properties of types, and file-level `let`/`var` (not locals).
(class_body (property_declaration name: (pattern bound_identifier: (simple_identifier) @name)) @definition.property)
(enum_class_body (property_declaration name: (pattern bound_identifier: (simple_identifier) @name)) @definition.property)
(protocol_body (protocol_property_declaration name: (pattern bound_identifier: (simple_identifier) @name)) @definition.property)
(source_file (property_declaration name: (pattern bound_identifier: (simple_identifier) @name)) @definition.constant)
