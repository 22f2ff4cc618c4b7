-- 0006_buy.sql - how a system can be had and in what units (issue 18):
-- sale (both, own, rent: TPU pods and Trainium are a cloud's only),
-- unit_gpus (accelerators per purchasable unit: a server, a whole NVL72
-- rack; empty = a node) and their source.  Appended at the end of the
-- table, in the same place as in src/catalog/catalog_kinds.c SYSTEM_COLS.
-- Empty on old rows (both, a node); the built-in rows are refreshed by
-- `llmplan catalog reset`.

ALTER TABLE systems ADD COLUMN sale TEXT;
ALTER TABLE systems ADD COLUMN unit_gpus INTEGER;
ALTER TABLE systems ADD COLUMN sale_source TEXT;
