; Dart definitions. A signature and its body are siblings in this grammar, so the body is captured
; as @body and hashed with the signature. Members are `Class.member`; a named constructor is
; `Class.name` as it is called, the unnamed one `Class.Class`; `get`/`set` tell accessor twins apart.
(class_definition name: (identifier) @name) @definition.class
(mixin_declaration (identifier) @name) @definition.mixin
(extension_declaration name: (identifier) @name) @definition.extension
(enum_declaration name: (identifier) @name) @definition.enum
(type_alias . (type_identifier) @name) @definition.type

; Top-level functions and accessors.
((function_signature name: (identifier) @name (formal_parameter_list) @params) @definition.function
  . (function_body) @body)
((getter_signature name: (identifier) @name) @definition.function . (function_body) @body)
((setter_signature name: (identifier) @name (formal_parameter_list) @params) @definition.function
  . (function_body) @body)

; Members with a body (`method_signature` wraps the signature: Language.wrappers).
(_ (method_signature
  (function_signature name: (identifier) @name (formal_parameter_list) @params) @definition.function)
  . (function_body) @body)
(_ (method_signature (getter_signature name: (identifier) @name) @definition.function) . (function_body) @body)
(_ (method_signature
  (setter_signature name: (identifier) @name (formal_parameter_list) @params) @definition.function)
  . (function_body) @body)
(_ (method_signature
  (operator_signature (binary_operator) @name (formal_parameter_list) @params) @definition.function)
  . (function_body) @body)
(_ (method_signature
  (constructor_signature (identifier) (identifier) @name (formal_parameter_list) @params) @definition.constructor)
  . (function_body) @body)
(_ (method_signature
  (constructor_signature . (identifier) @name . (formal_parameter_list) @params) @definition.constructor)
  . (function_body) @body)
(_ (method_signature
  (factory_constructor_signature (identifier) (identifier) @name (formal_parameter_list) @params) @definition.constructor)
  . (function_body) @body)
(_ (method_signature
  (factory_constructor_signature . (identifier) @name . (formal_parameter_list) @params) @definition.constructor)
  . (function_body) @body)

; Members without a body: abstract and external methods, constructors ending in `;`.
(declaration (function_signature name: (identifier) @name (formal_parameter_list) @params) @definition.function)
(declaration (getter_signature name: (identifier) @name) @definition.function)
(declaration (setter_signature name: (identifier) @name (formal_parameter_list) @params) @definition.function)
(declaration (constructor_signature (identifier) (identifier) @name (formal_parameter_list) @params) @definition.constructor)
(declaration (constructor_signature . (identifier) @name . (formal_parameter_list) @params) @definition.constructor)
(declaration (constant_constructor_signature (identifier) (identifier) @name (formal_parameter_list) @params) @definition.constructor)
(declaration (constant_constructor_signature . (const_builtin) . (identifier) @name . (formal_parameter_list) @params) @definition.constructor)
(declaration (redirecting_factory_constructor_signature (identifier) (identifier) @name (formal_parameter_list) @params) @definition.constructor)
(declaration (redirecting_factory_constructor_signature . (identifier) @name . (formal_parameter_list) @params) @definition.constructor)

; Fields (`static const`/`final` lists are constants) and top-level variables.
(declaration (static_final_declaration_list (static_final_declaration (identifier) @name) @definition.constant))
(declaration (initialized_identifier_list (initialized_identifier (identifier) @name) @definition.field))
(program (static_final_declaration_list (static_final_declaration (identifier) @name) @definition.constant))
(program (initialized_identifier_list (initialized_identifier (identifier) @name) @definition.variable))
