; Java definitions. Nesting gives `Outer.Inner.method`; overloads are told apart by their
; parameter lists as spelled. Constructors are `Class.Class`.
(class_declaration name: (identifier) @name) @definition.class
(interface_declaration name: (identifier) @name) @definition.interface
(enum_declaration name: (identifier) @name) @definition.enum
(record_declaration name: (identifier) @name) @definition.record
(annotation_type_declaration name: (identifier) @name) @definition.annotation

(method_declaration
  name: (identifier) @name
  parameters: (formal_parameters) @params) @definition.function
(constructor_declaration
  name: (identifier) @name
  parameters: (formal_parameters) @params) @definition.constructor
(compact_constructor_declaration name: (identifier) @name) @definition.constructor

; Fields with an initializer: `static final` ones are constants. Modifiers and type belong to
; each field unless one declaration declares several (Language.wrappers).
(field_declaration
  (modifiers) @_mods (#match? @_mods "\\bstatic\\b") (#match? @_mods "\\bfinal\\b")
  declarator: (variable_declarator name: (identifier) @name value: (_)) @definition.constant)
(field_declaration
  declarator: (variable_declarator name: (identifier) @name value: (_)) @definition.field)
; Interface fields are implicitly `static final`.
(constant_declaration
  declarator: (variable_declarator name: (identifier) @name value: (_)) @definition.constant)
