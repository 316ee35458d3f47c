; Object literals that define an API, shared by javascript.scm and typescript.scm (`; include:`),
; after their own patterns. The default export's members (`export default { data() {} }`, Vue's
; options API, also wrapped: `export default defineComponent({ ... })`) are unprefixed, as
; `module.exports = { ... }`'s are; one level down, a key holding an object prefixes what it
; defines (`methods: { save() {} }` is `methods.save`; `const api = { admin: { reset() {} } }`
; has `api.admin.reset`). Objects passed inline elsewhere are options, not definitions.
(pair key: (property_identifier) @scope.name value: (object)) @scope
(export_statement value: (object [
      (method_definition name: (property_identifier) @name parameters: (formal_parameters) @params) @definition.function
      (pair
        key: (property_identifier) @name
        value: [
          (arrow_function parameters: (formal_parameters) @params)
          (arrow_function parameter: (identifier) @params)
          (function_expression parameters: (formal_parameters) @params)
        ]) @definition.function
    ]))
(export_statement value: (call_expression arguments: (arguments (object [
      (method_definition name: (property_identifier) @name parameters: (formal_parameters) @params) @definition.function
      (pair
        key: (property_identifier) @name
        value: [
          (arrow_function parameters: (formal_parameters) @params)
          (arrow_function parameter: (identifier) @params)
          (function_expression parameters: (formal_parameters) @params)
        ]) @definition.function
    ]))))
(export_statement value: (object (pair value: (object [
      (method_definition name: (property_identifier) @name parameters: (formal_parameters) @params) @definition.function
      (pair
        key: (property_identifier) @name
        value: [
          (arrow_function parameters: (formal_parameters) @params)
          (arrow_function parameter: (identifier) @params)
          (function_expression parameters: (formal_parameters) @params)
        ]) @definition.function
    ]))))
(export_statement value: (call_expression arguments: (arguments (object (pair value: (object [
      (method_definition name: (property_identifier) @name parameters: (formal_parameters) @params) @definition.function
      (pair
        key: (property_identifier) @name
        value: [
          (arrow_function parameters: (formal_parameters) @params)
          (arrow_function parameter: (identifier) @params)
          (function_expression parameters: (formal_parameters) @params)
        ]) @definition.function
    ]))))))
(variable_declarator value: (object (pair value: (object [
      (method_definition name: (property_identifier) @name parameters: (formal_parameters) @params) @definition.function
      (pair
        key: (property_identifier) @name
        value: [
          (arrow_function parameters: (formal_parameters) @params)
          (arrow_function parameter: (identifier) @params)
          (function_expression parameters: (formal_parameters) @params)
        ]) @definition.function
    ]))))
(assignment_expression
  left: (member_expression
      object: (identifier) @_module (#eq? @_module "module")
      property: (property_identifier) @_exports (#eq? @_exports "exports"))
  right: (object (pair value: (object [
      (method_definition name: (property_identifier) @name parameters: (formal_parameters) @params) @definition.function
      (pair
        key: (property_identifier) @name
        value: [
          (arrow_function parameters: (formal_parameters) @params)
          (arrow_function parameter: (identifier) @params)
          (function_expression parameters: (formal_parameters) @params)
        ]) @definition.function
    ]))))
