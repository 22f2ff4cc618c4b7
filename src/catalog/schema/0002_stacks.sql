-- 0002_stacks.sql - software stacks, measured hardware ceilings, and the
-- attention shapes of newer models (PRAGMA user_version 2).
--
-- New columns go at the end of their tables (ALTER TABLE ADD COLUMN), and
-- in the same place in src/catalog/catalog_kinds.c.  A catalog migrated
-- from version 1 gets the built-in stacks seeded by catalog.c.

ALTER TABLE accelerators ADD COLUMN mxfp8_tflops REAL;
ALTER TABLE accelerators ADD COLUMN fp4_tflops REAL;
ALTER TABLE accelerators ADD COLUMN fp8_gemm_frac REAL;
ALTER TABLE accelerators ADD COLUMN attn_fa2_frac REAL;
ALTER TABLE accelerators ADD COLUMN ceiling_source TEXT;

ALTER TABLE models ADD COLUMN head_dim INTEGER;
ALTER TABLE models ADD COLUMN attention TEXT;
ALTER TABLE models ADD COLUMN kv_lora_rank INTEGER;
ALTER TABLE models ADD COLUMN q_lora_rank INTEGER;
ALTER TABLE models ADD COLUMN rope_head_dim INTEGER;

CREATE TABLE stacks (
    id TEXT NOT NULL,
    name TEXT NOT NULL,
    kind TEXT NOT NULL,
    attn_kernel TEXT,
    gemm_eff REAL,
    attn_eff REAL,
    fp8_eff REAL,
    tp_overlap REAL,
    dp_overlap REAL,
    zero3_prefetch REAL,
    kernel_us REAL,
    step_overhead_ms REAL,
    mem_reserve_gib REAL,
    mem_frag_frac REAL,
    selective_keep REAL,
    ep_overlap REAL,
    source TEXT NOT NULL,
    as_of TEXT NOT NULL,
    confidence TEXT,
    notes TEXT,
    PRIMARY KEY (id)
);
