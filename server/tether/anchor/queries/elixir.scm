; Elixir definitions are macro calls. Modules nest by name (`MyApp.Fetcher.Inner`); functions are
; `Module.fun`, told apart by arity (`fun/2`: Language.arity counts the @params node's children).
; The clauses of one function are one symbol (Language.merge_clauses), with the `@spec` before them.
(call
  target: (identifier) @_kw (#any-of? @_kw "defmodule" "defprotocol")
  (arguments . (alias) @name)) @definition.module

; `defimpl Proto, for: Type` is a scope: `Proto.fun@Type`, like a Rust trait impl.
(call
  target: (identifier) @_kw (#eq? @_kw "defimpl")
  (arguments . (alias) @scope.name
    (keywords (pair key: (keyword) @_for (#match? @_for "^for:") value: (_) @scope.trait))?)) @scope

; `def f(a, b)`, `def f(a) when guard`, and zero-arity `def f` / `def f when guard`: a bare name is
; its own @params, with no children, so its arity is 0.
(call
  target: (identifier) @_kw (#any-of? @_kw "def" "defp" "defdelegate" "defn" "defnp")
  (arguments . [
    (call target: (identifier) @name (arguments) @params)
    (binary_operator left: (call target: (identifier) @name (arguments) @params) operator: "when")
    (identifier) @name @params
    (binary_operator left: (identifier) @name @params operator: "when")
  ])) @definition.function
(call
  target: (identifier) @_kw (#any-of? @_kw "defmacro" "defmacrop")
  (arguments . [
    (call target: (identifier) @name (arguments) @params)
    (binary_operator left: (call target: (identifier) @name (arguments) @params) operator: "when")
    (identifier) @name @params
    (binary_operator left: (identifier) @name @params operator: "when")
  ])) @definition.macro
(call
  target: (identifier) @_kw (#any-of? @_kw "defguard" "defguardp")
  (arguments . (binary_operator left: (call target: (identifier) @name (arguments) @params) operator: "when"))) @definition.guard

; `@spec fun(a, b) :: t` joins the clauses of fun/2 that follow it.
(unary_operator
  operator: "@"
  operand: (call
    target: (identifier) @_spec (#eq? @_spec "spec")
    (arguments (binary_operator
      left: [(call target: (identifier) @name (arguments) @params) (identifier) @name @params]
      operator: "::")))) @definition.function

; Types and callbacks: `@type t :: ...`, `@callback fetch(url) :: ...`.
(unary_operator
  operator: "@"
  operand: (call
    target: (identifier) @_kw (#any-of? @_kw "type" "typep" "opaque")
    (arguments (binary_operator
      left: [(call target: (identifier) @name) (identifier) @name]
      operator: "::")))) @definition.type
(unary_operator
  operator: "@"
  operand: (call
    target: (identifier) @_kw (#any-of? @_kw "callback" "macrocallback")
    (arguments (binary_operator
      left: (call target: (identifier) @name (arguments) @params)
      operator: "::")))) @definition.callback

; Module attributes set to a value (`@retries 3`) are the module's constants; the reserved ones
; (documentation, specs, compiler hints) are not definitions.
(do_block
  (unary_operator
    operator: "@"
    operand: (call
      target: (identifier) @name
      ; (#not-any-of? is not implemented by py-tree-sitter: it would match everything)
      (#not-match? @name "^(doc|moduledoc|typedoc|spec|type|typep|opaque|callback|macrocallback|impl|behaviour|derive|enforce_keys|compile|deprecated|dialyzer|external_resource|on_load|on_definition|before_compile|after_compile|vsn|file|optional_callbacks|nifs)$")
      (arguments))) @definition.attribute)
