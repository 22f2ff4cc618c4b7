-- 0018_pp_overlap.sql - the share of an interleaved pipeline's
-- point-to-point sends and receives a training stack posts asynchronously
-- beside the next chunk's compute (steptime.c pp_overlapped): 1 =
-- Megatron-Core's interleaved 1F1B with --overlap-p2p-communication, which
-- Megatron-LM's training arguments turn on by default (store_false
-- --no-overlap-p2p-communication, kept only with virtual pipeline stages)
-- and Megatron-Bridge sets whenever vp > 1 (src/megatron/bridge/training/
-- comm_overlap.py: overlap_p2p_comm = True, batch_p2p_comm = False);
-- 0 or empty = each send waited on in line.  Appended at the end of the
-- table, in the same place as in src/catalog/catalog_kinds.c STACK_COLS.
-- The built-in rows get the value data/stacks.csv gives them; `llmplan
-- catalog reset` refreshes them all.

ALTER TABLE stacks ADD COLUMN pp_overlap REAL;
UPDATE stacks SET pp_overlap = 1 WHERE id = 'megatron-core';
