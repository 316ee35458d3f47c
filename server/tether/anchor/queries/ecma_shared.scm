; Shared by javascript.scm and typescript.scm (`; include:`), after their own patterns, so none
; of these wins over one of theirs for a node.
;
; The module's own function: `export default (req, res) => {}` is `default`, `module.exports =
; function (req, res) {}` is `module.exports`, and `module.exports = function handle()` is `handle`.
; What they define inside keeps its own name (`chr`, not `archy.chr`), as before they were symbols:
; `@unprefixed`. (Not a `#set!`: beside an `#eq?` in one pattern it corrupts py-tree-sitter's heap
; when the query is freed; tests/test_query_lifetime.py.)
(export_statement
  "default" @name
  value: [
    (function_expression !name parameters: (formal_parameters) @params)
    (arrow_function parameters: (formal_parameters) @params)
    (arrow_function parameter: (identifier) @params)
  ] @definition.function @unprefixed)
(expression_statement
  (assignment_expression
    left: (member_expression
      object: (identifier) @_module (#eq? @_module "module")
      property: (property_identifier) @_exports (#eq? @_exports "exports")) @name
    right: [
      (function_expression !name parameters: (formal_parameters) @params)
      (arrow_function parameters: (formal_parameters) @params)
      (arrow_function parameter: (identifier) @params)
    ])) @definition.function @unprefixed
(expression_statement
  (assignment_expression
    left: (member_expression
      object: (identifier) @_module (#eq? @_module "module")
      property: (property_identifier) @_exports (#eq? @_exports "exports"))
    right: (function_expression name: (identifier) @name parameters: (formal_parameters) @params))) @definition.function @unprefixed

; Object literals that define an API. The default export's members (`export default { data() {} }`, Vue's
; options API, also wrapped: `export default defineComponent({ ... })`) are unprefixed, as
; `module.exports = { ... }`'s are; one level down, a key holding an object prefixes what it
; defines (`methods: { save() {} }` is `methods.save`; `const api = { admin: { reset() {} } }`
; has `api.admin.reset`). Objects passed inline elsewhere are options, not definitions. Each
; kind of defining object is captured `@defines` (an object bound to a name, or to
; `module.exports`, in javascript.scm and typescript.scm; the rest here), and the members of
; any object are written once, last, captured `@within` their object: `_collect` keeps those
; whose object defines.
(pair key: (property_identifier) @scope.name value: (object)) @scope
(export_statement value: (object) @defines)
(export_statement value: (call_expression arguments: (arguments (object) @defines)))
(export_statement value: (object (pair value: (object) @defines)))
(export_statement value: (call_expression arguments: (arguments (object (pair value: (object) @defines)))))
(variable_declarator value: (object (pair value: (object) @defines)))
(assignment_expression
  left: (member_expression
    object: (identifier) @_module (#eq? @_module "module")
    property: (property_identifier) @_exports (#eq? @_exports "exports"))
  right: (object (pair value: (object) @defines)))
; Last of all: the members of any object, kept only where the object is one of the above.
(object [
    (method_definition name: (property_identifier) @name parameters: (formal_parameters) @params) @definition.function
    (pair
      key: (property_identifier) @name
      value: [
        (arrow_function parameters: (formal_parameters) @params)
        (arrow_function parameter: (identifier) @params)
        (function_expression parameters: (formal_parameters) @params)
      ]) @definition.function
  ]) @within
