; Lua definitions. `function M.fetch()` and `function M:close()` are `M.fetch` and `M.close`: the
; table is a receiver (a qualname prefix, `M.sub` split at dots by Language.path_separators) and,
; with the name, left out of the hash, so moving a function to another table is followed; whether
; it is `:` (with an implicit `self`) or `.` stays in the hash. Functions bound by assignment count
; too (`M.on = function(ev) ... end`, `local handler = function ... end`), and functions in a
; table bound to a name (`local M = { f = function() end }` gives `M.f`).
(function_declaration
  name: (method_index_expression table: (_) @receiver method: (identifier) @name)
  parameters: (parameters) @params) @definition.method
(function_declaration
  name: (dot_index_expression table: (_) @receiver field: (identifier) @name)
  parameters: (parameters) @params) @definition.function
(function_declaration name: (identifier) @name parameters: (parameters) @params) @definition.function

(assignment_statement
  (variable_list . name: (dot_index_expression table: (_) @receiver field: (identifier) @name) .)
  (expression_list . value: (function_definition parameters: (parameters) @params) .)) @definition.function
(assignment_statement
  (variable_list . name: (identifier) @name .)
  (expression_list . value: (function_definition parameters: (parameters) @params) .)) @definition.function

; A table constructor bound to a name at file level is the container of its function fields
; (not tables passed inline, `setmetatable({}, { __call = function ... end })`).
(chunk (variable_declaration (assignment_statement
  (variable_list . name: (identifier) @name .)
  (expression_list . value: (table_constructor) .)) @definition.table))
(chunk (assignment_statement
  (variable_list . name: (identifier) @name .)
  (expression_list . value: (table_constructor) .)) @definition.table)
(assignment_statement
  (variable_list . name: (identifier) .)
  (expression_list . value: (table_constructor
    (field
      name: (identifier) @name
      value: (function_definition parameters: (parameters) @params)) @definition.function) .))
