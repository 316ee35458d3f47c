; Ruby definitions. `class Billing::Invoice` is `Billing.Invoice` (Language.path_separators), and
; nesting prefixes names. Class and instance methods share a qualified name (`Invoice.create`) and
; are told apart by their receiver, as limpet spells it: `self.` for `def self.create`, `<<self.`
; for a `def create` inside `class << self`, `#` for an instance method (`Invoice#create`).
; `private def x` is one definition: the `private` call wraps it (Language.wrappers).
(singleton_method object: (self) name: (_) @name (#set! discriminator "self.")) @definition.function

(singleton_class value: (self) body: (body_statement
  (method name: (_) @name) @definition.function) (#set! discriminator "<<self."))
(singleton_class value: (self) body: (body_statement
  (call arguments: (argument_list (method name: (_) @name) @definition.function))) (#set! discriminator "<<self."))

(class body: (body_statement
  (method name: (_) @name) @definition.function) (#set! discriminator "#"))
(module body: (body_statement
  (method name: (_) @name) @definition.function) (#set! discriminator "#"))
(class body: (body_statement
  (call arguments: (argument_list (method name: (_) @name) @definition.function))) (#set! discriminator "#"))
(module body: (body_statement
  (call arguments: (argument_list (method name: (_) @name) @definition.function))) (#set! discriminator "#"))

; Anywhere else (top level, blocks such as `Struct.new do ... end`): no receiver to tell.
(method name: (_) @name) @definition.function
(singleton_method name: (_) @name) @definition.function

; A reopened class is a twin of itself: `Invoice@#1`, `Invoice@#2` in one file.
(class name: [(constant) (scope_resolution)] @name) @definition.class
(module name: [(constant) (scope_resolution)] @name) @definition.module

; Constants at file level and in class and module bodies.
(program (assignment left: (constant) @name) @definition.constant)
(class body: (body_statement (assignment left: (constant) @name) @definition.constant))
(module body: (body_statement (assignment left: (constant) @name) @definition.constant))
