-- 0013_tp_bwd_exposed.sql - whether a training stack hides its backward
-- tensor-parallel collectives (steptime.c layer_time): 0 or empty =
-- Megatron's, which overlaps each column-parallel layer's input-gradient
-- reduction with its weight-gradient GEMM (Korthikanti et al. 2022 section
-- 4), 1 = every backward collective runs in order with the GEMMs, none
-- hidden (PyTorch DTensor tensor parallelism without async TP: each
-- functional collective is waited on where the autograd graph needs it;
-- torchtitan's vanilla TP).  Appended at the end of the table, in the same
-- place as in src/catalog/catalog_kinds.c STACK_COLS.  The built-in rows
-- get the value data/stacks.csv gives them; `llmplan catalog reset`
-- refreshes them all.

ALTER TABLE stacks ADD COLUMN tp_bwd_exposed REAL;
UPDATE stacks SET tp_bwd_exposed = 1 WHERE id = 'torchtitan';
