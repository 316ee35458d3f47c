; SQL definitions: what a schema file creates, named as written (`billing.invoices` when a schema
; qualifies it). Overloaded functions are told apart by their argument lists. `CREATE PROCEDURE`
; does not parse in this grammar (an ERROR node): procedures are anchored at file level only.
(create_table (object_reference) @name) @definition.table
(create_view (object_reference) @name) @definition.view
(create_materialized_view (object_reference) @name) @definition.view
(create_function (object_reference) @name (function_arguments) @params) @definition.function
(create_index column: (identifier) @name) @definition.index
(create_trigger (keyword_trigger) . (object_reference) @name) @definition.trigger
(create_type (object_reference) @name) @definition.type
(create_sequence (object_reference) @name) @definition.sequence
