; Rust definitions. An `impl` is a scope, not a symbol: its type prefixes the methods inside
; (`Type.method`) and its trait, as spelled, tells them apart (`Display`, `From<String>`); an
; inherent impl's discriminator is `impl` (Language.scope_default_disc).
(impl_item
  trait: (_)? @scope.trait
  type: [
    (type_identifier) @scope.name
    (generic_type type: (type_identifier) @scope.name)
    (scoped_type_identifier name: (type_identifier) @scope.name)
    (generic_type type: (scoped_type_identifier name: (type_identifier) @scope.name))
    (reference_type type: (type_identifier) @scope.name)
    (reference_type type: (generic_type type: (type_identifier) @scope.name))
  ]) @scope
; Any other self type (tuples, slices, `dyn Trait`): methods keep the trait but no type prefix.
(impl_item trait: (_)? @scope.trait) @scope

; Outer attributes (`#[derive(..)]`, `#[test]`) are siblings of the item in this grammar, so they
; are outside its span and hash: adding `#[inline]` is not an edit.
(function_item
  name: (identifier) @name
  parameters: (parameters) @params) @definition.function
(function_signature_item
  name: (identifier) @name
  parameters: (parameters) @params) @definition.function

(struct_item name: (type_identifier) @name) @definition.struct
(union_item name: (type_identifier) @name) @definition.struct
(enum_item name: (type_identifier) @name) @definition.enum
(trait_item name: (type_identifier) @name) @definition.trait
(type_item name: (type_identifier) @name) @definition.type
(mod_item name: (identifier) @name) @definition.module
(const_item name: (identifier) @name) @definition.constant
(static_item name: (identifier) @name) @definition.static
(macro_definition name: (identifier) @name) @definition.macro
