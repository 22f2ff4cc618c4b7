-- 0009_stack_runs_on.sql - what a stack runs on and where it is the
-- default (resolve.c): accelerator vendors, space-separated, as in
-- accelerators.vendor; runs_on_source cites the vendor's or the project's
-- support page.  Appended at the end of the table, in the same place as
-- in src/catalog/catalog_kinds.c STACK_COLS.  Empty runs_on: not stated
-- (any accelerator); the built-in rows are refreshed by `llmplan catalog
-- reset`.

ALTER TABLE stacks ADD COLUMN runs_on TEXT;
ALTER TABLE stacks ADD COLUMN default_on TEXT;
ALTER TABLE stacks ADD COLUMN runs_on_source TEXT;
