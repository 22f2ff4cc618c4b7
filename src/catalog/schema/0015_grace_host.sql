-- 0015_grace_host.sql - issue 22, serving weight offload (serve.offload):
-- the host memory a node's accelerators keep offloaded weights in, and the
-- Grace host side of the GB200 and GB300 NVL72 trays.
-- host_mem_gb: the node's CPU memory, GB; empty = not stated (the offload
-- is then not checked against it).  A GB200/GB300 tray holds 2 Grace CPUs
-- of 480 GB LPDDR5X each, reached over NVLink-C2C at 900 GB/s both ways
-- (450 per direction, shared by the Grace's 2 GPUs: 225 each), 72 Arm
-- Neoverse V2 cores each.  The built-in rows get the values (and the notes
-- naming their sources) data/systems.csv gives them; `llmplan catalog
-- reset` refreshes them all.

ALTER TABLE systems ADD COLUMN host_mem_gb REAL;

UPDATE systems SET host_link_gb_s = 225, host_cores = 144, host_mem_gb = 960
    WHERE id IN ('gb200-nvl72', 'gb300-nvl72');
