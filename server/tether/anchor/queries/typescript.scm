; TypeScript (and TSX) definitions. `export`, `const`/`let`/`var` wrap what they declare.
; Overload signatures are twins of their implementation, told apart by parameter list.
(function_declaration
  name: (identifier) @name
  parameters: (formal_parameters) @params) @definition.function
(generator_function_declaration
  name: (identifier) @name
  parameters: (formal_parameters) @params) @definition.function
(function_signature
  name: (identifier) @name
  parameters: (formal_parameters) @params) @definition.function
(class_declaration name: (type_identifier) @name) @definition.class
(abstract_class_declaration name: (type_identifier) @name) @definition.class
(interface_declaration name: (type_identifier) @name) @definition.interface
(enum_declaration name: (identifier) @name) @definition.enum
(type_alias_declaration name: (type_identifier) @name) @definition.type
(internal_module name: [(identifier) (nested_identifier)] @name) @definition.module
(module name: [(identifier) (nested_identifier)] @name) @definition.module

; Methods, overload and abstract signatures; `static`/`get`/`set` tell twins apart.
(class_body
  (method_definition
    name: [(property_identifier) (private_property_identifier)] @name
    parameters: (formal_parameters) @params) @definition.function)
; Object literals bound to a name (`const api = { save() {} }`), not options passed inline.
; An object literal bound to a name prefixes its members (`let api = { save() {} }` has `api.save`).
(variable_declarator name: (identifier) @scope.name value: (object)) @scope
(variable_declarator value: (object) @defines)  ; members: ecma_shared.scm
; Signatures count in classes, interfaces and object type aliases; not in inline types.
(class_body
  (method_signature
    name: [(property_identifier) (private_property_identifier)] @name
    parameters: (formal_parameters) @params) @definition.function)
(interface_body
  (method_signature
    name: [(property_identifier) (private_property_identifier)] @name
    parameters: (formal_parameters) @params) @definition.function)
(type_alias_declaration
  value: (object_type
    (method_signature
      name: [(property_identifier) (private_property_identifier)] @name
      parameters: (formal_parameters) @params) @definition.function))
(abstract_method_signature
  name: [(property_identifier) (private_property_identifier)] @name
  parameters: (formal_parameters) @params) @definition.function

; A function or class bound to a name is that function or class: `const f = (x: T) => ...`.
(variable_declarator
  name: (identifier) @name
  value: [
    (arrow_function parameters: (formal_parameters) @params)
    (arrow_function parameter: (identifier) @params)
    (function_expression parameters: (formal_parameters) @params)
    (generator_function parameters: (formal_parameters) @params)
  ]) @definition.function
(variable_declarator name: (identifier) @name value: (class)) @definition.class
(public_field_definition
  name: [(property_identifier) (private_property_identifier)] @name
  value: [
    (arrow_function parameters: (formal_parameters) @params)
    (arrow_function parameter: (identifier) @params)
    (function_expression parameters: (formal_parameters) @params)
  ]) @definition.function

; Class fields, interface properties, and module-level `const`.
(public_field_definition name: [(property_identifier) (private_property_identifier)] @name) @definition.attribute
(interface_body (property_signature name: (property_identifier) @name) @definition.attribute)
(type_alias_declaration
  value: (object_type (property_signature name: (property_identifier) @name) @definition.attribute))
(program
  (lexical_declaration kind: "const" (variable_declarator name: (identifier) @name) @definition.constant))
(program
  (export_statement
    declaration: (lexical_declaration kind: "const" (variable_declarator name: (identifier) @name) @definition.constant)))

; include: ecma_shared.scm
