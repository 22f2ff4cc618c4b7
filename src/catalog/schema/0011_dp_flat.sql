-- 0011_dp_flat.sql - how a training stack runs its data-parallel / ZeRO
-- collectives (steptime.c dp_ring_s): 1 = one flat NCCL ring over every
-- rank of the group (DeepSpeed ZeRO, PyTorch FSDP FULL_SHARD / FSDP2
-- fully_shard over the whole mesh), 0 or empty = hierarchical, inside the
-- scale-up domain first (Megatron-Core, MaxText's ICI/DCN mesh).  Appended
-- at the end of the table, in the same place as in
-- src/catalog/catalog_kinds.c STACK_COLS.  The built-in rows get the value
-- data/stacks.csv gives them; `llmplan catalog reset` refreshes them all.

ALTER TABLE stacks ADD COLUMN dp_flat REAL;
UPDATE stacks SET dp_flat = 1
    WHERE id IN ('deepspeed', 'megatron-deepspeed', 'llm-foundry', 'torchtitan');
