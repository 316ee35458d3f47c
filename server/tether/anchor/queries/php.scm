; PHP definitions. `Fetcher::get` is `Fetcher.get`. Namespaces are not prefixes: a PHP file holds one
; namespace (PSR-4), most often as `namespace App\Http;`, which contains nothing. PHP has no
; overloads; a parameter list still tells apart functions of one name in two `namespace {}` blocks.
(function_definition name: (name) @name parameters: (formal_parameters) @params) @definition.function
(class_declaration name: (name) @name) @definition.class
(interface_declaration name: (name) @name) @definition.interface
(trait_declaration name: (name) @name) @definition.trait
(enum_declaration name: (name) @name) @definition.enum
(method_declaration name: (name) @name parameters: (formal_parameters) @params) @definition.function

; Constants (`const X = 1;` at file or class level) and properties with a default (`Fetcher.$count`).
; Modifiers belong to each unless one declaration declares several (Language.wrappers).
(const_declaration (const_element (name) @name) @definition.constant)
(property_declaration (property_element name: (variable_name) @name default_value: (_)) @definition.property)
