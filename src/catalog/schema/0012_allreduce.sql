-- 0012_allreduce.sql - the TP all-reduce as a serving engine runs it
-- (serve.c tp_allreduce_s).  A serving engine's custom all-reduce (one
-- shot over NVLink peers' buffers) takes small messages; beyond its
-- limits the engine hands the all-reduce to NCCL, whose measured latency
-- and bus bandwidth at serving message sizes (1-32 MB) are the
-- accelerator's:
--   accelerators.nccl_ar_us     NCCL all-reduce latency at 1-32 MB, us
--   accelerators.nccl_ar_gb_s   NCCL all-reduce bus bandwidth there, GB/s
--   stacks.ar_oneshot_kb        custom all-reduce while tp x message < it
--                               (tp > 2), kB; empty: always custom
--   stacks.ar_workspace_kb      custom all-reduce at tp <= 2 while the
--                               message fits its workspace, kB
-- Appended at the end of each table, in the same place as in
-- src/catalog/catalog_kinds.c ACCEL_COLS and STACK_COLS.  The built-in
-- rows get the values data/*.csv give them; `llmplan catalog reset`
-- refreshes them all.

ALTER TABLE accelerators ADD COLUMN nccl_ar_us REAL;
ALTER TABLE accelerators ADD COLUMN nccl_ar_gb_s REAL;
ALTER TABLE stacks ADD COLUMN ar_oneshot_kb REAL;
ALTER TABLE stacks ADD COLUMN ar_workspace_kb REAL;
