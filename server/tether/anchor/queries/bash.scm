; Bash definitions: functions in both spellings, `f() { ... }` and `function f { ... }`; a function
; defined inside another is `outer.inner`. `readonly NAME=value` at top level is a constant.
(function_definition name: (word) @name) @definition.function

(program
  (declaration_command "readonly" (variable_assignment name: (variable_name) @name) @definition.constant))
