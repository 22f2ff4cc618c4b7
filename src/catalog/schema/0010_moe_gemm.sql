-- 0010_moe_gemm.sql - how a training stack issues the grouped GEMM of
-- the local experts of a mixture-of-experts layer (steptime.c): 1 = one
-- GEMM launch per local expert (Transformer Engine GroupedLinear, as
-- Megatron-Core runs it: nvte_multi_stream_cublas_gemm loops cuBLAS over
-- the experts), 0 or empty = one grouped kernel.  Appended at the end of
-- the table, in the same place as in src/catalog/catalog_kinds.c
-- STACK_COLS; the built-in rows are refreshed by `llmplan catalog reset`.
-- (d19b; the lead renumbers migrations when merging branches.)

ALTER TABLE stacks ADD COLUMN moe_gemm_per_expert REAL;
