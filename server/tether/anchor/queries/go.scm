; Go definitions. `type`/`const`/`var` wrap what they declare unless grouped (Language.wrappers).
(function_declaration
  name: (identifier) @name
  parameters: (parameter_list) @params) @definition.function

; Methods are `Type.Method`: the receiver's type name prefixes the qualified name, through a
; pointer and type arguments (`func (l *List[T]) Push`), and is left out of the hash.
(method_declaration
  receiver: (parameter_list (parameter_declaration type: [
    (type_identifier) @receiver
    (pointer_type (type_identifier) @receiver)
    (generic_type type: (type_identifier) @receiver)
    (pointer_type (generic_type type: (type_identifier) @receiver))
  ]))
  name: (field_identifier) @name
  parameters: (parameter_list) @params) @definition.function

(type_spec name: (type_identifier) @name type: (struct_type)) @definition.struct
(type_spec name: (type_identifier) @name type: (interface_type)) @definition.interface
(type_spec name: (type_identifier) @name) @definition.type
(type_alias name: (type_identifier) @name) @definition.type
(method_elem name: (field_identifier) @name parameters: (parameter_list) @params) @definition.function

; Package-level constants and variables (one name per spec: `const a, b = 1, 2` anchors `a`).
(source_file (const_declaration (const_spec name: (identifier) @name) @definition.constant))
(source_file (var_declaration (var_spec name: (identifier) @name) @definition.variable))
(source_file (var_declaration (var_spec_list (var_spec name: (identifier) @name) @definition.variable)))
