; C definitions. A function is named through its declarator (`char **split(...)`); prototypes
; (declarations without a body) are not symbols: the definition is what a memory is about.
(function_definition
  declarator: [
    (function_declarator declarator: (identifier) @name parameters: (parameter_list) @params)
    (pointer_declarator declarator: (function_declarator declarator: (identifier) @name parameters: (parameter_list) @params))
    (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name parameters: (parameter_list) @params)))
  ]) @definition.function

; `typedef struct { ... } fetcher_t;` is the struct, named as code names it: by its typedef (the
; typedef wraps it, Language.wrappers). Listed first, so a tag (`typedef struct fetcher {...}`)
; does not make a second symbol of the same struct.
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

(struct_specifier name: (type_identifier) @name body: (_)) @definition.struct
(union_specifier name: (type_identifier) @name body: (_)) @definition.union
(enum_specifier name: (type_identifier) @name body: (_)) @definition.enum

; Macro bodies are one opaque token: spacing inside a `#define` counts.
(preproc_def name: (identifier) @name) @definition.macro
(preproc_function_def name: (identifier) @name parameters: (preproc_params) @params) @definition.macro

; File-level variables with an initializer, also inside include guards and `#if` blocks (not
; locals); a `const` one is a constant. `int a = 1, b = 2;` gives each name its own span.
[
  (translation_unit (declaration
    (type_qualifier) @_q (#eq? @_q "const")
    declarator: (init_declarator declarator: (identifier) @name) @definition.constant))
  (preproc_ifdef (declaration
    (type_qualifier) @_q (#eq? @_q "const")
    declarator: (init_declarator declarator: (identifier) @name) @definition.constant))
  (preproc_if (declaration
    (type_qualifier) @_q (#eq? @_q "const")
    declarator: (init_declarator declarator: (identifier) @name) @definition.constant))
]
[
  (translation_unit (declaration declarator: (init_declarator declarator: (identifier) @name) @definition.variable))
  (preproc_ifdef (declaration declarator: (init_declarator declarator: (identifier) @name) @definition.variable))
  (preproc_if (declaration declarator: (init_declarator declarator: (identifier) @name) @definition.variable))
]
