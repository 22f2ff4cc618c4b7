-- 0004_serve.sql - serving-engine knobs of the stacks (the serving
-- workload, README "Serving").  Appended at the end of the table, in the
-- same place as in src/catalog/catalog_kinds.c STACK_COLS.  Empty on
-- training rows (their defaults apply); the built-in serving rows are
-- refreshed by `llmplan catalog reset`.

ALTER TABLE stacks ADD COLUMN mbu REAL;
ALTER TABLE stacks ADD COLUMN kv_mem_frac REAL;
ALTER TABLE stacks ADD COLUMN max_seqs REAL;
ALTER TABLE stacks ADD COLUMN allreduce_us REAL;
ALTER TABLE stacks ADD COLUMN prefill_chunk REAL;
ALTER TABLE stacks ADD COLUMN decode_overlap REAL;
