; Zig definitions (the grammar's node names are capitalized). A container is a `const` bound to
; `struct`/`enum`/`union`/`opaque`; its functions and constants nest as `Type.fn`. `pub`, `export`
; and `extern` are siblings of the declaration in this grammar, so they are outside its hash.
(Decl
  (FnProto function: (IDENTIFIER) @name (ParamDeclList) @params)) @definition.function

(Decl (VarDecl "const" variable_type_function: (IDENTIFIER) @name
  (ErrorUnionExpr (SuffixExpr (ContainerDecl (ContainerDeclType "struct")))))) @definition.struct
(Decl (VarDecl "const" variable_type_function: (IDENTIFIER) @name
  (ErrorUnionExpr (SuffixExpr (ContainerDecl (ContainerDeclType "union")))))) @definition.union
; `union(enum)` is a union: listed first, the first pattern wins
(Decl (VarDecl "const" variable_type_function: (IDENTIFIER) @name
  (ErrorUnionExpr (SuffixExpr (ContainerDecl (ContainerDeclType "enum")))))) @definition.enum
(Decl (VarDecl "const" variable_type_function: (IDENTIFIER) @name
  (ErrorUnionExpr (SuffixExpr (ContainerDecl))))) @definition.struct
(Decl (VarDecl "const" variable_type_function: (IDENTIFIER) @name
  (ErrorUnionExpr (SuffixExpr (ErrorSetDecl))))) @definition.error_set

; Other declarations in a file or container: `const` is a constant, `var` a (global) variable.
; Locals inside function bodies are `Statement`s, not `Decl`s, so they never match.
(Decl (VarDecl "const" variable_type_function: (IDENTIFIER) @name)) @definition.constant
(Decl (VarDecl "var" variable_type_function: (IDENTIFIER) @name)) @definition.variable
