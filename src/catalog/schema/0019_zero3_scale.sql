-- 0019_zero3_scale.sql - ZeRO-3 at scale (issue 19, w19o).  Two stack
-- columns, appended at the end of the table in the same place as in
-- src/catalog/catalog_kinds.c STACK_COLS; the built-in rows get the value
-- data/stacks.csv gives them, `llmplan catalog reset` refreshes them all.
--
-- zero3_live_params: ZeRO-3's cap on gathered parameters resident per
-- accelerator (DeepSpeed stage3_max_live_parameters, default 1e9 in
-- deepspeed/runtime/zero/constants.py since v0.3): the coordinator
-- prefetches the next module's parameters only while fewer than this many
-- are live, and releases them after use; 0 or empty = no cap, whole layers
-- gathered ahead (PyTorch FSDP / FSDP2).
--
-- dp_shard_domain: 1 = ZeRO-3/FSDP shards the model state inside the
-- scale-up domain only and the domains are data-parallel replicas that
-- all-reduce their gradient shards once per step over the scale-out
-- network (MaxText base.yml: ici_fsdp_parallelism inside a slice,
-- dcn_data_parallelism across slices); 0 or empty = sharded over the
-- whole data-parallel group.

ALTER TABLE stacks ADD COLUMN zero3_live_params REAL;
ALTER TABLE stacks ADD COLUMN dp_shard_domain REAL;
UPDATE stacks SET zero3_live_params = 1e9
    WHERE id IN ('deepspeed', 'megatron-deepspeed');
UPDATE stacks SET dp_shard_domain = 1 WHERE id = 'maxtext';
