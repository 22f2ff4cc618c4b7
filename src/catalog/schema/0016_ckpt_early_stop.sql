-- 0016_ckpt_early_stop.sql - whether a training stack's full activation
-- recomputation stops early (steptime.c stage_layers): 1 = PyTorch's
-- non-reentrant checkpointing from torch 2.1 on (torch.utils.checkpoint
-- set_checkpoint_early_stop, on by default) stops recomputing a block as
-- soon as every tensor its backward saved is back; autograd saves an op's
-- inputs before it runs, so the block's last GEMM (the FFN down
-- projection) is never recomputed; 0 or empty = the whole layer again
-- (Megatron's checkpointing, torch 1.13).  Appended at the end of the
-- table, in the same place as in src/catalog/catalog_kinds.c STACK_COLS.
-- The built-in rows get the value data/stacks.csv gives them; `llmplan
-- catalog reset` refreshes them all.

ALTER TABLE stacks ADD COLUMN ckpt_early_stop REAL;
UPDATE stacks SET ckpt_early_stop = 1 WHERE id = 'llm-foundry';
