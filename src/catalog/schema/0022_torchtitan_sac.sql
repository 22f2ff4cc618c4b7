-- 0022_torchtitan_sac.sql - torchtitan's selective recompute and FSDP2's
-- fp32 parameter shards (issue 19, x19a).  Two stack columns, appended at
-- the end of the table in the same place as in src/catalog/catalog_kinds.c
-- STACK_COLS; the built-in rows get the value data/stacks.csv gives them,
-- `llmplan catalog reset` refreshes them all.
--
-- per_op_sac: 1 = the stack's selective recompute is a per-op save list
-- (torchtitan @e7c0cae models/llama3/parallelize_llama.py _save_list; the
-- same list at 820504e and 6fc499f) naming aten.mm (every other one),
-- the flash and efficient SDPA ops and _c10d_functional
-- reduce_scatter_tensor, not all_gather_into_tensor: the attention core
-- is not recomputed, but on Blackwell, where torchtitan puts cuDNN SDPA
-- first (models/attention.py ScaledDotProductAttention._init_backend,
-- has_cuda_capability(10, 0)), an op the list does not name; under TP the
-- forward's all-gathers (sequence parallel) run again in the recompute.
-- 0 or empty = the attention core is recomputed, no collective
-- (Korthikanti et al. 2022).
--
-- fp32_params: 1 = under ZeRO-3 the sharded parameters are the fp32 master
-- weights and the 16-bit copy exists only gathered (PyTorch FSDP2
-- fully_shard with MixedPrecisionPolicy(param_dtype=bf16): the sharded
-- parameter keeps its original dtype, the all-gather casts): 4 bytes of
-- weights and only the optimizer moments per parameter.  0 or empty = a
-- separate 16-bit weight shard beside the fp32 master (ZeRO, Megatron's
-- distributed optimizer).

ALTER TABLE stacks ADD COLUMN per_op_sac REAL;
ALTER TABLE stacks ADD COLUMN fp32_params REAL;
UPDATE stacks SET per_op_sac = 1, fp32_params = 1 WHERE id = 'torchtitan';
