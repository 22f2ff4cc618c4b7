-- 0001_init.sql - the first catalog schema (PRAGMA user_version 1).
--
-- One table per catalog kind.  The columns, their order, types and NOT NULL
-- must match the column tables in src/catalog/catalog_kinds.c (a unit test
-- compares them with PRAGMA table_info).  REAL columns hold the number in
-- the unit the name carries; INTEGER columns hold counts and yes/no as 1/0;
-- NULL means "not known / not applicable".  Foreign keys are deferred so a
-- whole reset or import is checked at COMMIT.

CREATE TABLE accelerators (
    id TEXT NOT NULL,
    name TEXT NOT NULL,
    vendor TEXT,
    fp32_tflops REAL,
    tf32_tflops REAL,
    bf16_tflops REAL,
    fp16_tflops REAL,
    fp8_tflops REAL,
    int8_tops REAL,
    hbm_gib REAL NOT NULL,
    hbm_tb_s REAL NOT NULL,
    scaleup_gb_s REAL,
    tdp_w REAL,
    price_usd REAL,
    gemm_frac REAL,
    gemm_half_gflops REAL,
    attn_frac REAL,
    hbm_frac REAL,
    kernel_us REAL,
    power_frac REAL,
    source TEXT NOT NULL,
    as_of TEXT NOT NULL,
    price_source TEXT,
    price_as_of TEXT,
    confidence TEXT,
    notes TEXT,
    PRIMARY KEY (id)
);

CREATE TABLE systems (
    id TEXT NOT NULL,
    name TEXT NOT NULL,
    accel_id TEXT NOT NULL
        REFERENCES accelerators(id) DEFERRABLE INITIALLY DEFERRED,
    fabric_id TEXT
        REFERENCES fabrics(id) DEFERRABLE INITIALLY DEFERRED,
    preferred INTEGER,
    gpus_per_node INTEGER NOT NULL,
    scaleup_domain INTEGER NOT NULL,
    scaleup_gb_s REAL,
    scaleup_frac REAL,
    host_power_w REAL,
    node_price_usd REAL,
    nodes_per_rack INTEGER,
    node_mtbf_h REAL,
    source TEXT NOT NULL,
    as_of TEXT NOT NULL,
    price_source TEXT,
    price_as_of TEXT,
    confidence TEXT,
    notes TEXT,
    PRIMARY KEY (id)
);

CREATE TABLE fabrics (
    id TEXT NOT NULL,
    name TEXT NOT NULL,
    gbps_per_gpu REAL NOT NULL,
    latency_us REAL,
    bw_frac REAL,
    switch_radix INTEGER,
    switch_price_usd REAL,
    switch_power_w REAL,
    nic_price_usd REAL,
    nic_power_w REAL,
    transceiver_price_usd REAL,
    transceiver_power_w REAL,
    cable_price_usd REAL,
    rail_optimized INTEGER,
    source TEXT NOT NULL,
    as_of TEXT NOT NULL,
    price_source TEXT,
    price_as_of TEXT,
    confidence TEXT,
    notes TEXT,
    PRIMARY KEY (id)
);

CREATE TABLE storage (
    id TEXT NOT NULL,
    name TEXT NOT NULL,
    read_gb_s REAL NOT NULL,
    write_gb_s REAL NOT NULL,
    usd_per_tb REAL,
    w_per_tb REAL,
    capacity_tb REAL,
    source TEXT NOT NULL,
    as_of TEXT NOT NULL,
    price_source TEXT,
    price_as_of TEXT,
    confidence TEXT,
    notes TEXT,
    PRIMARY KEY (id)
);

CREATE TABLE sites (
    id TEXT NOT NULL,
    name TEXT NOT NULL,
    pue REAL NOT NULL,
    usd_per_kwh REAL NOT NULL,
    kgco2_per_kwh REAL NOT NULL,
    air_kw_per_rack REAL,
    liquid_kw_per_rack REAL,
    colo_usd_per_kw_month REAL,
    build_usd_per_mw REAL,
    source TEXT NOT NULL,
    as_of TEXT NOT NULL,
    price_source TEXT,
    price_as_of TEXT,
    confidence TEXT,
    notes TEXT,
    PRIMARY KEY (id)
);

CREATE TABLE cloud (
    id TEXT NOT NULL,
    term TEXT NOT NULL,
    provider TEXT NOT NULL,
    instance TEXT NOT NULL,
    accel_id TEXT NOT NULL
        REFERENCES accelerators(id) DEFERRABLE INITIALLY DEFERRED,
    gpus_per_instance INTEGER NOT NULL,
    region TEXT,
    usd_per_gpu_hour REAL NOT NULL,
    source TEXT NOT NULL,
    as_of TEXT NOT NULL,
    confidence TEXT,
    notes TEXT,
    PRIMARY KEY (id, term)
);

CREATE TABLE models (
    id TEXT NOT NULL,
    name TEXT NOT NULL,
    params INTEGER,
    layers INTEGER NOT NULL,
    hidden INTEGER NOT NULL,
    heads INTEGER NOT NULL,
    kv_heads INTEGER,
    ffn INTEGER NOT NULL,
    vocab INTEGER NOT NULL,
    gated_ffn INTEGER,
    tied_embeddings INTEGER,
    experts INTEGER,
    experts_active INTEGER,
    shared_experts INTEGER,
    expert_ffn INTEGER,
    moe_every INTEGER,
    source TEXT NOT NULL,
    as_of TEXT NOT NULL,
    confidence TEXT,
    notes TEXT,
    PRIMARY KEY (id)
);

CREATE INDEX systems_accel ON systems(accel_id);
CREATE INDEX cloud_accel_term ON cloud(accel_id, term);

-- Saved plans: name -> INI text.
CREATE TABLE plans (
    name TEXT NOT NULL PRIMARY KEY,
    ini TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);

-- Small key/value settings (TUI: last plan, theme).
CREATE TABLE settings (
    key TEXT NOT NULL PRIMARY KEY,
    value TEXT NOT NULL
);
