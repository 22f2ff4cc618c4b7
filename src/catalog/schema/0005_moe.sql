-- 0005_moe.sql - the dropless MoE routing imbalance of a training stack
-- (steptime.c, memory.c).  Appended at the end of the table, in the same
-- place as in src/catalog/catalog_kinds.c STACK_COLS.  Empty means 1 (an
-- even split); the built-in rows are refreshed by `llmplan catalog reset`.

ALTER TABLE stacks ADD COLUMN moe_imbalance REAL;
