; C++ definitions. Namespaces are scopes: their names prefix what is inside (`net.Fetcher.get`).
; An out-of-line definition is named by its path (`int net::Fetcher::get(int k) const`), split into
; `net.Fetcher.get` (Language.path_separators), the whole path left out of the hash. Overloads are
; told apart by the parameter list with its cv/ref qualifiers (`(size_t i) const`). Prototypes and
; in-class member declarations have no body and are not symbols: their class is.
(namespace_definition name: (_) @scope.name) @scope
(namespace_definition) @scope

(function_definition
  declarator: [
    (function_declarator
      declarator: (qualified_identifier) @name
      parameters: (parameter_list) @params (type_qualifier)? @params (ref_qualifier)? @params)
    (pointer_declarator declarator: (function_declarator
      declarator: (qualified_identifier) @name
      parameters: (parameter_list) @params (type_qualifier)? @params (ref_qualifier)? @params))
    (reference_declarator (function_declarator
      declarator: (qualified_identifier) @name
      parameters: (parameter_list) @params (type_qualifier)? @params (ref_qualifier)? @params))
  ]) @definition.method
(function_definition
  declarator: [
    (function_declarator
      declarator: (_) @name
      parameters: (parameter_list) @params (type_qualifier)? @params (ref_qualifier)? @params)
    (pointer_declarator declarator: (function_declarator
      declarator: (_) @name
      parameters: (parameter_list) @params (type_qualifier)? @params (ref_qualifier)? @params))
    (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator
      declarator: (_) @name
      parameters: (parameter_list) @params (type_qualifier)? @params (ref_qualifier)? @params)))
    (reference_declarator (function_declarator
      declarator: (_) @name
      parameters: (parameter_list) @params (type_qualifier)? @params (ref_qualifier)? @params))
  ]) @definition.function

; `template <...>` wraps what it declares (Language.wrappers), so its parameters are in the hash.
(class_specifier name: [(type_identifier) (qualified_identifier) (template_type)] @name body: (_)) @definition.class
; C-style `typedef struct { ... } point_t;` is named by its typedef (listed before the tag).
(type_definition type: (struct_specifier body: (_)) @definition.struct declarator: (type_identifier) @name)
(type_definition type: (union_specifier body: (_)) @definition.union declarator: (type_identifier) @name)
(type_definition type: (enum_specifier body: (_)) @definition.enum declarator: (type_identifier) @name)
(type_definition
  type: (_ !body)
  declarator: [
    (type_identifier) @name
    (pointer_declarator declarator: (type_identifier) @name)
    (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (type_identifier) @name)))
  ]) @definition.type
(struct_specifier name: [(type_identifier) (qualified_identifier) (template_type)] @name body: (_)) @definition.struct
(union_specifier name: [(type_identifier) (qualified_identifier)] @name body: (_)) @definition.union
(enum_specifier name: [(type_identifier) (qualified_identifier)] @name body: (_)) @definition.enum
(alias_declaration name: (type_identifier) @name) @definition.type
(concept_definition name: (identifier) @name) @definition.concept

(preproc_def name: (identifier) @name) @definition.macro
(preproc_function_def name: (identifier) @name parameters: (preproc_params) @params) @definition.macro

; Variables with an initializer at file or namespace level (not locals): `const`/`constexpr`
; ones are constants.
[
  (translation_unit (declaration
    [(type_qualifier) @_q (storage_class_specifier) @_q] (#any-of? @_q "const" "constexpr" "constinit")
    declarator: (init_declarator declarator: (identifier) @name) @definition.constant))
  (declaration_list (declaration
    [(type_qualifier) @_q (storage_class_specifier) @_q] (#any-of? @_q "const" "constexpr" "constinit")
    declarator: (init_declarator declarator: (identifier) @name) @definition.constant))
  (preproc_ifdef (declaration
    [(type_qualifier) @_q (storage_class_specifier) @_q] (#any-of? @_q "const" "constexpr" "constinit")
    declarator: (init_declarator declarator: (identifier) @name) @definition.constant))
]
[
  (translation_unit (declaration declarator: (init_declarator declarator: (identifier) @name) @definition.variable))
  (declaration_list (declaration declarator: (init_declarator declarator: (identifier) @name) @definition.variable))
  (preproc_ifdef (declaration declarator: (init_declarator declarator: (identifier) @name) @definition.variable))
]
