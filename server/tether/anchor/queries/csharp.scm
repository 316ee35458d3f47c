; C# definitions. Namespaces are not prefixes (as Java packages: a file-scoped `namespace X;` holds
; nothing, so the two spellings could not agree). Overloads are told apart by their parameter list,
; generic arity included (`<T>(string url)`); an explicit interface implementation is named through
; its interface (`Fetcher.IDisposable.Dispose`), the interface left out of the hash like a receiver.
; A partial class is a twin of itself: `Fetcher@#1`, `Fetcher@#2` in one file.
(class_declaration name: (identifier) @name) @definition.class
(struct_declaration name: (identifier) @name) @definition.struct
(interface_declaration name: (identifier) @name) @definition.interface
(enum_declaration name: (identifier) @name) @definition.enum
(record_declaration name: (identifier) @name) @definition.record
(delegate_declaration name: (identifier) @name parameters: (parameter_list) @params) @definition.type

(method_declaration
  (explicit_interface_specifier [(identifier) (generic_name) (qualified_name)] @receiver)
  name: (identifier) @name
  type_parameters: (type_parameter_list)? @params
  parameters: (parameter_list) @params) @definition.function
(method_declaration
  name: (identifier) @name
  type_parameters: (type_parameter_list)? @params
  parameters: (parameter_list) @params) @definition.function
(local_function_statement
  name: (identifier) @name
  type_parameters: (type_parameter_list)? @params
  parameters: (parameter_list) @params) @definition.function
(constructor_declaration name: (identifier) @name parameters: (parameter_list) @params) @definition.constructor
; `~Fetcher()` is `Fetcher.Fetcher@~()` beside a `Fetcher.Fetcher@()` constructor (Language.disc_keywords).
(destructor_declaration name: (identifier) @name parameters: (parameter_list) @params) @definition.destructor
(operator_declaration operator: _ @name parameters: (parameter_list) @params) @definition.operator

(property_declaration
  (explicit_interface_specifier [(identifier) (generic_name) (qualified_name)] @receiver)
  name: (identifier) @name) @definition.property
(property_declaration name: (identifier) @name) @definition.property
(indexer_declaration "this" @name parameters: (bracketed_parameter_list) @params) @definition.property
(event_declaration name: (identifier) @name) @definition.event

; Fields with an initializer; `const` ones are constants. Modifiers and type belong to each field
; unless one declaration declares several (Language.wrappers).
(field_declaration
  (modifier) @_m (#eq? @_m "const")
  (variable_declaration (variable_declarator name: (identifier) @name (_)) @definition.constant))
(field_declaration
  (variable_declaration (variable_declarator name: (identifier) @name (_)) @definition.field))
