-- 0014_host_link.sql - issue 19, ZeRO-Offload (software.offload): the host
-- side of a system, which steptime.c's offload_time prices.
-- host_link_gb_s: each accelerator's achieved link to host memory, GB/s per
-- direction (PCIe x16 of its generation with pinned buffers); host_cores:
-- the node's CPU cores, which CPU-Adam's per-core rate (ZeRO-Offload paper
-- table 3) scales by.  Empty = not stated: offloading the optimizer is then
-- refused.  The built-in rows get the values (and the notes naming their
-- sources) data/systems.csv gives them; `llmplan catalog reset` refreshes
-- them all.

ALTER TABLE systems ADD COLUMN host_link_gb_s REAL;
ALTER TABLE systems ADD COLUMN host_cores INTEGER;

UPDATE systems SET host_link_gb_s = 12, host_cores = 48 WHERE id = 'dgx-2';
UPDATE systems SET host_link_gb_s = 25, host_cores = 128 WHERE id = 'dgx-a100-320gb';
UPDATE systems SET host_link_gb_s = 25, host_cores = 128 WHERE id = 'dgx-a100';
UPDATE systems SET host_link_gb_s = 50, host_cores = 112 WHERE id = 'dgx-h100';
