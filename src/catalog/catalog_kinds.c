/*
 * catalog_kinds.c - the column table of every catalog kind: the single
 * source for the SQL columns (schema/0001_init.sql must agree; a unit test
 * compares them with PRAGMA table_info), CSV headers, import validation,
 * `catalog list` and the typed getters.
 *
 * Each row is C(struct, name, type, flags, min, max, choices, field,
 * member, scale, default, pflags, help).  The value stored is the number
 * in the column's unit; the getter multiplies by scale into the struct
 * member (TFLOP/s * 1e12 = FLOP/s, GiB * 2^30 = bytes, GB/s * 1e9 = B/s,
 * us * 1e-6 = s).  An empty cell is NULL in SQL and reads as `default`
 * when PF_DEFAULT is set, else 0.
 *
 * CHECKLIST: a column added here needs the same column, in the same place,
 * in a new schema migration, and a value in data/<kind>.csv.
 */
#include <stddef.h>
#include <string.h>

#include "catalog/catalog_int.h"
#include "core/bounds.h"

#define REQ CATCOL_REQUIRED
#define KEY (CATCOL_REQUIRED | CATCOL_KEY)
#define GIB 1073741824.0
#define BIG 1e15
#define DF PF_DEFAULT

/* Provenance columns shared by every kind (price columns only where the
 * row carries a price next to its specs). */
#define PROV_COLS(C, T)                                                        \
    C(T, "source", CATCOL_TEXT, REQ, 0, 0, NULL, FT_NONE, id, 1, 0, 0,         \
      "where the figures come from")                                           \
    C(T, "as_of", CATCOL_DATE, REQ, 0, 0, NULL, FT_NONE, id, 1, 0, 0,          \
      "date the figures refer to (YYYY, YYYY-MM or YYYY-MM-DD)")
#define PRICE_PROV_COLS(C, T)                                                  \
    C(T, "price_source", CATCOL_TEXT, 0, 0, 0, NULL, FT_NONE, id, 1, 0,        \
      PF_PRICE_PROV, "where the price comes from")                             \
    C(T, "price_as_of", CATCOL_DATE, 0, 0, 0, NULL, FT_NONE, id, 1, 0,         \
      PF_PRICE_PROV, "date of the price")
#define NOTE_COLS(C, T)                                                        \
    C(T, "confidence", CATCOL_ENUM, 0, 0, 0, "A|B|C|E", FT_NONE, id, 1, 0, 0,  \
      "A vendor/official, B reputable secondary, C third-party, E estimate")   \
    C(T, "notes", CATCOL_TEXT, 0, 0, 0, NULL, FT_NONE, id, 1, 0, 0, "free text")

#define PEAK(prec) peak_flops[PREC_##prec]
#define TFLOPS_COL(C, name, prec, pf, help)                                    \
    C(accel_spec, name, CATCOL_REAL, 0, 0, 1e6, NULL, FT_DBL, PEAK(prec),      \
      1e12, 0, pf, help)

#define ACCEL_COLS(C)                                                          \
    C(accel_spec, "id", CATCOL_ID, KEY, 0, 0, NULL, FT_STR, id, 1, 0,          \
      PF_BRIEF, "catalog id")                                                  \
    C(accel_spec, "name", CATCOL_TEXT, REQ, 0, 0, NULL, FT_STR, name, 1, 0,    \
      PF_BRIEF, "display name")                                                \
    C(accel_spec, "vendor", CATCOL_TEXT, 0, 0, 0, NULL, FT_STR, vendor, 1, 0,  \
      0, "vendor")                                                             \
    TFLOPS_COL(C, "fp32_tflops", FP32, 0, "dense FP32 peak, TFLOP/s")          \
    TFLOPS_COL(C, "tf32_tflops", TF32, 0, "dense TF32 peak, TFLOP/s")          \
    TFLOPS_COL(C, "bf16_tflops", BF16, PF_BRIEF, "dense BF16 peak, TFLOP/s")   \
    TFLOPS_COL(C, "fp16_tflops", FP16, 0, "dense FP16 peak, TFLOP/s")          \
    TFLOPS_COL(C, "fp8_tflops", FP8, PF_BRIEF, "dense FP8 peak, TFLOP/s")      \
    TFLOPS_COL(C, "int8_tops", INT8, 0, "dense INT8 peak, TOP/s")              \
    C(accel_spec, "hbm_gib", CATCOL_REAL, REQ, 0.001, 1e6, NULL, FT_DBL,       \
      hbm_bytes, GIB, 0, PF_BRIEF, "usable memory, GiB (2^30 bytes)")          \
    C(accel_spec, "hbm_tb_s", CATCOL_REAL, REQ, 0.001, 1e4, NULL, FT_DBL,      \
      hbm_bps, 1e12, 0, PF_BRIEF, "memory bandwidth, TB/s (10^12 B/s)")        \
    C(accel_spec, "scaleup_gb_s", CATCOL_REAL, 0, 0, 1e6, NULL, FT_DBL,        \
      scaleup_bps, 1e9, 0, PF_BRIEF,                                           \
      "scale-up bandwidth per accelerator, unidirectional GB/s")               \
    C(accel_spec, "tdp_w", CATCOL_REAL, 0, 0, 1e5, NULL, FT_DBL, tdp_w, 1, 0,  \
      PF_BRIEF, "board power, W")                                              \
    C(accel_spec, "price_usd", CATCOL_REAL, 0, 0, 1e8, NULL, FT_DBL,           \
      price_usd, 1, 0, PF_BRIEF | PF_PRICE, "price per accelerator, USD")      \
    C(accel_spec, "gemm_frac", CATCOL_REAL, 0, 0.01, 1, NULL, FT_DBL,          \
      gemm_frac, 1, 0.8, DF,                                                   \
      "measured: best 16-bit matmul / dense peak (MAMF)")                      \
    C(accel_spec, "gemm_half_gflops", CATCOL_REAL, 0, 0, 1e6, NULL, FT_DBL,    \
      gemm_half_flops, 1e9, 2, DF,                                             \
      "GEMM size (GFLOP) at which matmul efficiency halves")                   \
    C(accel_spec, "attn_frac", CATCOL_REAL, 0, 0.01, 1, NULL, FT_DBL,          \
      attn_frac, 1, 0.45, DF,                                                  \
      "measured: best fused attention, fwd+bwd / 16-bit peak")                 \
    C(accel_spec, "hbm_frac", CATCOL_REAL, 0, 0.01, 1, NULL, FT_DBL, hbm_frac, \
      1, 0.85, DF, "measured: achievable fraction of memory bandwidth")        \
    C(accel_spec, "kernel_us", CATCOL_REAL, 0, 0, 1e4, NULL, FT_DBL, kernel_s, \
      1e-6, 4, DF, "measured: back-to-back kernel launch, us")                 \
    C(accel_spec, "power_frac", CATCOL_REAL, 0, 0.01, 1, NULL, FT_DBL,         \
      power_frac, 1, 0.75, DF,                                                 \
      "calibration: mean power while training, fraction of TDP")               \
    PROV_COLS(C, accel_spec)                                                   \
    PRICE_PROV_COLS(C, accel_spec)                                             \
    NOTE_COLS(C, accel_spec)                                                   \
    TFLOPS_COL(C, "mxfp8_tflops", MXFP8, 0, "dense MXFP8 peak, TFLOP/s")       \
    TFLOPS_COL(C, "fp4_tflops", FP4, 0,                                        \
               "dense FP4 (NVFP4/MXFP4) peak, TFLOP/s")                        \
    C(accel_spec, "fp8_gemm_frac", CATCOL_REAL, 0, 0, 1, NULL, FT_DBL,         \
      fp8_gemm_frac, 1, 0, 0,                                                  \
      "measured: best 8-bit matmul / 8-bit peak; empty = gemm_frac")           \
    C(accel_spec, "attn_fa2_frac", CATCOL_REAL, 0, 0, 1, NULL, FT_DBL,         \
      attn_fa2_frac, 1, 0, 0,                                                  \
      "measured: FlashAttention-2 fwd+bwd / peak; empty = attn_frac")          \
    C(accel_spec, "ceiling_source", CATCOL_TEXT, 0, 0, 0, NULL, FT_NONE, id,   \
      1, 0, 0, "where the measured ceilings come from")                        \
    C(accel_spec, "fp4_gemm_frac", CATCOL_REAL, 0, 0, 1, NULL, FT_DBL,         \
      fp4_gemm_frac, 1, 0, 0,                                                  \
      "measured: best 4-bit matmul / 4-bit peak; empty = fp8_gemm_frac")     \
    C(accel_spec, "nccl_ar_us", CATCOL_REAL, 0, 0, 1e5, NULL, FT_DBL,         \
      nccl_ar_s, 1e-6, 0, 0,                                                   \
      "measured: NCCL all-reduce latency at 1-32 MB, us")                      \
    C(accel_spec, "nccl_ar_gb_s", CATCOL_REAL, 0, 0, 1e6, NULL, FT_DBL,       \
      nccl_ar_bps, 1e9, 0, 0,                                                  \
      "measured: NCCL all-reduce bus bandwidth at 1-32 MB, GB/s")

#define SYSTEM_COLS(C)                                                         \
    C(system_spec, "id", CATCOL_ID, KEY, 0, 0, NULL, FT_STR, id, 1, 0,         \
      PF_BRIEF, "catalog id")                                                  \
    C(system_spec, "name", CATCOL_TEXT, REQ, 0, 0, NULL, FT_STR, name, 1, 0,   \
      PF_BRIEF, "display name")                                                \
    C(system_spec, "accel_id", CATCOL_ID, REQ, 0, 0, NULL, FT_STR, accel_id,   \
      1, 0, PF_BRIEF | PF_REF_ACCEL, "the accelerator it is built from")       \
    C(system_spec, "fabric_id", CATCOL_ID, 0, 0, 0, NULL, FT_STR, fabric_id,   \
      1, 0, PF_BRIEF | PF_REF_FABRIC, "its usual scale-out fabric")            \
    C(system_spec, "preferred", CATCOL_BOOL, 0, 0, 0, NULL, FT_NONE, id, 1, 0, \
      0, "the default system for its accelerator")                             \
    C(system_spec, "gpus_per_node", CATCOL_COUNT, REQ, 1, 1e6, NULL, FT_U64,   \
      gpus_per_node, 1, 0, PF_BRIEF, "accelerators per node")                  \
    C(system_spec, "scaleup_domain", CATCOL_COUNT, REQ, 1, 1e6, NULL, FT_U64,  \
      scaleup_domain, 1, 0, PF_BRIEF,                                          \
      "accelerators sharing the scale-up fabric")                              \
    C(system_spec, "scaleup_gb_s", CATCOL_REAL, 0, 0, 1e6, NULL, FT_DBL,       \
      scaleup_bps, 1e9, 0, 0,                                                  \
      "per-accelerator unidirectional GB/s; 0 = the accelerator's")            \
    C(system_spec, "scaleup_frac", CATCOL_REAL, 0, 0.01, 1, NULL, FT_DBL,      \
      scaleup_frac, 1, 0.8, DF,                                                \
      "achieved fraction of scale-up bandwidth in collectives")                \
    C(system_spec, "host_power_w", CATCOL_REAL, 0, 0, 1e7, NULL, FT_DBL,       \
      host_power_w, 1, 0, PF_BRIEF, "node power minus accelerators, W")        \
    C(system_spec, "node_price_usd", CATCOL_REAL, 0, 0, 1e9, NULL, FT_DBL,     \
      node_price_usd, 1, 0, PF_BRIEF | PF_PRICE,                               \
      "whole node incl. accelerators, USD")                                    \
    C(system_spec, "nodes_per_rack", CATCOL_COUNT, 0, 1, 1000, NULL, FT_U64,   \
      nodes_per_rack, 1, 1, DF, "nodes per rack")                              \
    C(system_spec, "node_mtbf_h", CATCOL_REAL, 0, B_NODE_MTBF_H_MIN,           \
      B_NODE_MTBF_H_MAX, NULL, FT_DBL, node_mtbf_h, 1, 6336, DF,               \
      "mean time between node interruptions, hours")                           \
    PROV_COLS(C, system_spec)                                                  \
    PRICE_PROV_COLS(C, system_spec)                                            \
    NOTE_COLS(C, system_spec)                                                  \
    C(system_spec, "nics_included", CATCOL_BOOL, 0, 0, 0, NULL, FT_BOOL,       \
      nics_included, 1, 1, DF,                                                 \
      "the node price includes its scale-out NICs (yes/no)")                   \
    C(system_spec, "sale", CATCOL_ENUM, 0, 0, 0, "both|own|rent", FT_ENUM,     \
      sale, 1, 0, PF_BRIEF | PF_SOURCED,                                       \
      "how it can be had: both, own (bought only), rent (a cloud's only)")     \
    C(system_spec, "unit_gpus", CATCOL_COUNT, 0, 1, 1e6, NULL, FT_U64,         \
      unit_gpus, 1, 0, PF_SOURCED,                                             \
      "accelerators per purchasable unit (server, rack); empty = a node")      \
    C(system_spec, "sale_source", CATCOL_TEXT, 0, 0, 0, NULL, FT_NONE, id, 1,  \
      0, PF_SOURCE, "where sale and unit_gpus come from")                   \
    C(system_spec, "host_link_gb_s", CATCOL_REAL, 0, 0, 1e4, NULL, FT_DBL,     \
      host_link_bps, 1e9, 0, 0,                                                \
      "per-accelerator achieved GB/s to host memory, each way; empty = none")  \
    C(system_spec, "host_cores", CATCOL_COUNT, 0, 1, 1e5, NULL, FT_U64,        \
      host_cores, 1, 0, 0, "CPU cores per node; empty = not stated")          \
    C(system_spec, "host_mem_gb", CATCOL_REAL, 0, 0, 1e6, NULL, FT_DBL,        \
      host_mem_bytes, 1e9, 0, 0, "CPU memory per node, GB; empty = not stated")

#define FABRIC_USD(C, name, member, help)                                      \
    C(fabric_spec, name, CATCOL_REAL, 0, 0, 1e8, NULL, FT_DBL, member, 1, 0,   \
      PF_PRICE, help)
#define FABRIC_W(C, name, member, help)                                        \
    C(fabric_spec, name, CATCOL_REAL, 0, 0, 1e6, NULL, FT_DBL, member, 1, 0,   \
      0, help)

#define FABRIC_COLS(C)                                                         \
    C(fabric_spec, "id", CATCOL_ID, KEY, 0, 0, NULL, FT_STR, id, 1, 0,         \
      PF_BRIEF, "catalog id")                                                  \
    C(fabric_spec, "name", CATCOL_TEXT, REQ, 0, 0, NULL, FT_STR, name, 1, 0,   \
      PF_BRIEF, "display name")                                                \
    C(fabric_spec, "gbps_per_gpu", CATCOL_REAL, REQ, 0.001, 1e6, NULL, FT_DBL, \
      gbps_per_gpu, 1, 0, PF_BRIEF,                                            \
      "scale-out bandwidth per accelerator, Gbit/s per direction")             \
    C(fabric_spec, "latency_us", CATCOL_REAL, 0, 0, 1e6, NULL, FT_DBL,         \
      latency_s, 1e-6, 5, DF | PF_BRIEF,                                       \
      "per-message latency (alpha) of a collective step, us")                  \
    C(fabric_spec, "bw_frac", CATCOL_REAL, 0, 0.01, 1, NULL, FT_DBL, bw_frac,  \
      1, 0.85, DF | PF_BRIEF, "achieved fraction of link bandwidth (NCCL)")    \
    C(fabric_spec, "switch_radix", CATCOL_COUNT, 0, 2, 1e5, NULL, FT_U64,      \
      switch_radix, 1, 64, DF | PF_BRIEF, "switch ports at that speed")        \
    FABRIC_USD(C, "switch_price_usd", switch_price_usd, "per switch, USD")     \
    FABRIC_W(C, "switch_power_w", switch_power_w, "per switch, W")             \
    FABRIC_USD(C, "nic_price_usd", nic_price_usd, "per NIC port, USD")         \
    FABRIC_W(C, "nic_power_w", nic_power_w, "per NIC port, W")                 \
    FABRIC_USD(C, "transceiver_price_usd", transceiver_price_usd,              \
               "per transceiver, USD")                                         \
    FABRIC_W(C, "transceiver_power_w", transceiver_power_w,                    \
             "per transceiver, W")                                             \
    FABRIC_USD(C, "cable_price_usd", cable_price_usd, "per cable, USD")        \
    C(fabric_spec, "rail_optimized", CATCOL_BOOL, 0, 0, 0, NULL, FT_BOOL,      \
      rail_optimized, 1, 0, 0, "rail-optimized leaf wiring (yes/no)")          \
    PROV_COLS(C, fabric_spec)                                                  \
    PRICE_PROV_COLS(C, fabric_spec)                                            \
    NOTE_COLS(C, fabric_spec)

#define STORAGE_COLS(C)                                                        \
    C(storage_spec, "id", CATCOL_ID, KEY, 0, 0, NULL, FT_STR, id, 1, 0,        \
      PF_BRIEF, "catalog id")                                                  \
    C(storage_spec, "name", CATCOL_TEXT, REQ, 0, 0, NULL, FT_STR, name, 1, 0,  \
      PF_BRIEF, "display name")                                                \
    C(storage_spec, "read_gb_s", CATCOL_REAL, REQ, 0, 1e9, NULL, FT_DBL,       \
      read_bps, 1e9, 0, PF_BRIEF, "aggregate read bandwidth, GB/s")            \
    C(storage_spec, "write_gb_s", CATCOL_REAL, REQ, 0, 1e9, NULL, FT_DBL,      \
      write_bps, 1e9, 0, PF_BRIEF, "aggregate write bandwidth, GB/s")          \
    C(storage_spec, "usd_per_tb", CATCOL_REAL, 0, 0, 1e7, NULL, FT_DBL,        \
      usd_per_tb, 1, 0, PF_BRIEF | PF_PRICE, "capital cost per TB, USD")       \
    C(storage_spec, "w_per_tb", CATCOL_REAL, 0, 0, 1e5, NULL, FT_DBL,          \
      watts_per_tb, 1, 0, PF_BRIEF, "power per TB, W")                         \
    C(storage_spec, "capacity_tb", CATCOL_REAL, 0, 0, 1e9, NULL, FT_DBL,       \
      capacity_tb, 1, 0, PF_BRIEF, "provisioned TB; 0 = sized from the job")   \
    PROV_COLS(C, storage_spec)                                                 \
    PRICE_PROV_COLS(C, storage_spec)                                           \
    NOTE_COLS(C, storage_spec)

#define SITE_COLS(C)                                                           \
    C(site_spec, "id", CATCOL_ID, KEY, 0, 0, NULL, FT_STR, id, 1, 0, PF_BRIEF, \
      "catalog id")                                                            \
    C(site_spec, "name", CATCOL_TEXT, REQ, 0, 0, NULL, FT_STR, name, 1, 0,     \
      PF_BRIEF, "display name")                                                \
    C(site_spec, "pue", CATCOL_REAL, REQ, B_PUE_MIN, B_PUE_MAX, NULL, FT_DBL,  \
      pue, 1, 0, PF_BRIEF, "power usage effectiveness")                        \
    C(site_spec, "usd_per_kwh", CATCOL_REAL, REQ, 0, B_USD_PER_KWH_MAX, NULL,  \
      FT_DBL, usd_per_kwh, 1, 0, PF_BRIEF | PF_PRICE,                          \
      "electricity price, USD/kWh")                                            \
    C(site_spec, "kgco2_per_kwh", CATCOL_REAL, REQ, 0, B_KGCO2_PER_KWH_MAX,    \
      NULL, FT_DBL, kgco2_per_kwh, 1, 0, PF_BRIEF,                             \
      "grid carbon intensity, kgCO2e/kWh")                                     \
    C(site_spec, "air_kw_per_rack", CATCOL_REAL, 0, 0, 1e4, NULL, FT_DBL,      \
      air_kw_per_rack, 1, 0, PF_BRIEF, "most an air-cooled rack may draw, kW") \
    C(site_spec, "liquid_kw_per_rack", CATCOL_REAL, 0, 0, 1e4, NULL, FT_DBL,   \
      liquid_kw_per_rack, 1, 0, PF_BRIEF,                                      \
      "most a liquid-cooled rack may draw, kW; 0 = none")                      \
    C(site_spec, "colo_usd_per_kw_month", CATCOL_REAL, 0, 0, 1e5, NULL,        \
      FT_DBL, colo_usd_per_kw_month, 1, 0, PF_BRIEF | PF_PRICE,                \
      "colocation rent per kW-month, USD; 0 = the owner builds")               \
    C(site_spec, "build_usd_per_mw", CATCOL_REAL, 0, 0, 1e10, NULL, FT_DBL,    \
      build_usd_per_mw, 1, 0, PF_PRICE,                                        \
      "facility build cost per MW of IT load, USD")                            \
    PROV_COLS(C, site_spec)                                                    \
    PRICE_PROV_COLS(C, site_spec)                                              \
    NOTE_COLS(C, site_spec)                                                    \
    C(site_spec, "rear_door_kw_per_rack", CATCOL_REAL, 0, 0, 1e4, NULL,        \
      FT_DBL, rear_door_kw_per_rack, 1, 50, DF,                                \
      "most a rack behind a rear-door heat exchanger may draw, kW; 0 = none")  \
    C(site_spec, "rear_door_usd_per_kw", CATCOL_REAL, 0, 0, 1e6, NULL, FT_DBL, \
      rear_door_usd_per_kw, 1, 400, DF | PF_PRICE,                             \
      "rear-door cooling CapEx per kW of nameplate IT, USD")                   \
    C(site_spec, "liquid_usd_per_kw", CATCOL_REAL, 0, 0, 1e6, NULL, FT_DBL,    \
      liquid_usd_per_kw, 1, 1000, DF | PF_PRICE,                               \
      "direct-liquid cooling CapEx per kW of nameplate IT, USD")               \
    C(site_spec, "liquid_pue", CATCOL_REAL, 0, 0, 5, NULL, FT_DBL, liquid_pue, \
      1, 1.15, DF, "PUE of a direct-liquid-cooled hall; 0 = the site's")

/* The cloud price lands in usd_per_gpu_hour[term]: catalog.c does that by
 * hand, so both columns are FT_NONE here.  A cloud row is a price, so its
 * source and as_of are the price's provenance. */
#define CLOUD_COLS(C)                                                          \
    C(cloud_offer, "id", CATCOL_ID, KEY, 0, 0, NULL, FT_STR, id, 1, 0,         \
      PF_BRIEF, "catalog id (provider-instance)")                              \
    C(cloud_offer, "term", CATCOL_ENUM, KEY, 0, 0, TERM_CHOICES, FT_NONE, id,  \
      1, 0, PF_BRIEF, "pricing term")                                          \
    C(cloud_offer, "provider", CATCOL_TEXT, REQ, 0, 0, NULL, FT_STR, provider, \
      1, 0, PF_BRIEF, "cloud provider")                                        \
    C(cloud_offer, "instance", CATCOL_TEXT, REQ, 0, 0, NULL, FT_STR, instance, \
      1, 0, PF_BRIEF, "instance type as the provider names it")                \
    C(cloud_offer, "accel_id", CATCOL_ID, REQ, 0, 0, NULL, FT_STR, accel_id,   \
      1, 0, PF_BRIEF | PF_REF_ACCEL, "accelerator")                            \
    C(cloud_offer, "gpus_per_instance", CATCOL_COUNT, REQ, 1, 1e5, NULL,       \
      FT_U64, gpus_per_instance, 1, 0, PF_BRIEF, "accelerators per instance")  \
    C(cloud_offer, "region", CATCOL_TEXT, 0, 0, 0, NULL, FT_STR, region, 1, 0, \
      PF_BRIEF, "region the price is for")                                     \
    C(cloud_offer, "usd_per_gpu_hour", CATCOL_REAL, REQ, 0,                    \
      B_USD_PER_GPU_HOUR_MAX, NULL, FT_NONE, id, 1, 0, PF_BRIEF,               \
      "price per accelerator-hour, USD")                                       \
    PROV_COLS(C, cloud_offer)                                                  \
    NOTE_COLS(C, cloud_offer)                                                  \
    C(cloud_offer, "capacity_gpus", CATCOL_COUNT, 0, 0, 1e9, NULL, FT_U64,     \
      capacity_gpus, 1, 0, PF_SOURCED,                                         \
      "most accelerators the offer can supply to one customer; 0 = unknown")   \
    C(cloud_offer, "spot_mtbi_h", CATCOL_REAL, 0, 0, 1e7, NULL, FT_DBL,        \
      spot_mtbi_h, 1, 0, 0,                                                    \
      "spot: mean hours between preemptions of one instance; 0 = default")    \
    C(cloud_offer, "capacity_source", CATCOL_TEXT, 0, 0, 0, NULL, FT_NONE, id, \
      1, 0, PF_SOURCE,                                                         \
      "where capacity_gpus comes from (instance quota, cluster size, "         \
      "capacity block)")

#define MODEL_COUNT(C, name, flags, min, max, member, dflt, pf, help)          \
    C(model_spec, name, CATCOL_COUNT, flags, min, max, NULL, FT_U64, member,   \
      1, dflt, pf, help)

#define MODEL_COLS(C)                                                          \
    C(model_spec, "id", CATCOL_ID, KEY, 0, 0, NULL, FT_STR, id, 1, 0,          \
      PF_BRIEF, "catalog id")                                                  \
    C(model_spec, "name", CATCOL_TEXT, REQ, 0, 0, NULL, FT_NONE, id, 1, 0,     \
      PF_BRIEF, "display name")                                                \
    MODEL_COUNT(C, "params", 0, 0, B_MODEL_PARAMS_MAX, params, 0, PF_BRIEF,    \
                "total parameters; empty = derived from the shape")            \
    MODEL_COUNT(C, "layers", REQ, 1, B_MODEL_LAYERS_MAX, layers, 0, PF_BRIEF,  \
                "layers (L)")                                                  \
    MODEL_COUNT(C, "hidden", REQ, 1, B_MODEL_WIDTH_MAX, hidden, 0, PF_BRIEF,   \
                "hidden size (h)")                                             \
    MODEL_COUNT(C, "heads", REQ, 1, B_MODEL_HEADS_MAX, heads, 0, PF_BRIEF,     \
                "attention heads")                                             \
    MODEL_COUNT(C, "kv_heads", 0, 1, B_MODEL_HEADS_MAX, kv_heads, 0, PF_BRIEF, \
                "key/value heads; empty = heads")                              \
    MODEL_COUNT(C, "ffn", REQ, 1, B_MODEL_FFN_MAX, ffn, 0, PF_BRIEF,           \
                "FFN inner width")                                             \
    MODEL_COUNT(C, "vocab", REQ, 1, B_MODEL_VOCAB_MAX, vocab, 0, PF_BRIEF,     \
                "vocabulary size")                                             \
    C(model_spec, "gated_ffn", CATCOL_BOOL, 0, 0, 0, NULL, FT_BOOL, gated_ffn, \
      1, 0, 0, "SwiGLU-style 3-matrix FFN")                                    \
    C(model_spec, "tied_embeddings", CATCOL_BOOL, 0, 0, 0, NULL, FT_BOOL,      \
      tied_embeddings, 1, 0, 0, "output layer shares the embedding")           \
    MODEL_COUNT(C, "experts", 0, 0, B_MODEL_HEADS_MAX, experts, 0, PF_BRIEF,   \
                "routed experts per MoE layer; 0 or 1 = dense")                \
    MODEL_COUNT(C, "experts_active", 0, 0, B_MODEL_HEADS_MAX, experts_active,  \
                0, PF_BRIEF, "routed experts per token (top-k)")               \
    MODEL_COUNT(C, "shared_experts", 0, 0, B_MODEL_HEADS_MAX, shared_experts,  \
                0, 0, "always-active shared experts")                          \
    MODEL_COUNT(C, "expert_ffn", 0, 0, B_MODEL_FFN_MAX, expert_ffn, 0, 0,      \
                "FFN width of one expert; 0 = ffn")                            \
    MODEL_COUNT(C, "moe_every", 0, 1, B_MODEL_MOE_EVERY_MAX, moe_every, 1, DF, \
                "every n-th layer is MoE")                                     \
    PROV_COLS(C, model_spec)                                                   \
    NOTE_COLS(C, model_spec)                                                   \
    MODEL_COUNT(C, "head_dim", 0, 0, B_MODEL_HEADS_MAX, head_dim, 0, 0,        \
                "width of one head; empty = hidden / heads")                   \
    C(model_spec, "attention", CATCOL_ENUM, 0, 0, 0, "mha|gqa|mla", FT_ENUM,   \
      attention, 1, 0, 0, "attention kind; empty = mha")                       \
    MODEL_COUNT(C, "kv_lora_rank", 0, 0, B_MODEL_WIDTH_MAX, kv_lora_rank, 0,   \
                0, "MLA: latent width of keys and values")                     \
    MODEL_COUNT(C, "q_lora_rank", 0, 0, B_MODEL_WIDTH_MAX, q_lora_rank, 0, 0,  \
                "MLA: latent width of queries; empty = 3 x kv_lora_rank")      \
    MODEL_COUNT(C, "rope_head_dim", 0, 0, B_MODEL_HEADS_MAX, rope_head_dim, 0, \
                0, "MLA: decoupled RoPE width per head")                       \
    MODEL_COUNT(C, "first_dense_layers", 0, 0, B_MODEL_LAYERS_MAX,             \
                first_dense_layers, 0, 0,                                      \
                "the first n layers are dense; empty = none")                  \
    C(model_spec, "expert_bias", CATCOL_BOOL, 0, 0, 0, NULL, FT_BOOL,          \
      expert_bias, 1, 0, 0, "experts carry biases (gpt-oss); empty = no")      \
    C(model_spec, "act_clamp", CATCOL_BOOL, 0, 0, 0, NULL, FT_BOOL, act_clamp, \
      1, 0, 0, "experts clamp their gated activation (gpt-oss); empty = no")

#define STACK_FRAC(C, name, member, dflt, help)                                \
    C(stack_spec, name, CATCOL_REAL, 0, 0, 1, NULL, FT_DBL, member, 1, dflt,   \
      DF, help)

#define STACK_COLS(C)                                                          \
    C(stack_spec, "id", CATCOL_ID, KEY, 0, 0, NULL, FT_STR, id, 1, 0,          \
      PF_BRIEF, "catalog id")                                                  \
    C(stack_spec, "name", CATCOL_TEXT, REQ, 0, 0, NULL, FT_STR, name, 1, 0,    \
      PF_BRIEF, "display name")                                                \
    C(stack_spec, "kind", CATCOL_ENUM, REQ, 0, 0, "train|serve", FT_ENUM,      \
      kind, 1, 0, PF_BRIEF, "what it runs: train or serve")                    \
    C(stack_spec, "attn_kernel", CATCOL_ID, 0, 0, 0, NULL, FT_STR,             \
      attn_kernel, 1, 0, PF_BRIEF,                                             \
      "attention kernel (fa2, fa3, cudnn, splash; unfused: scores in HBM)")    \
    STACK_FRAC(C, "gemm_eff", gemm_eff, 0.85,                                  \
               "share of the measured matmul ceiling reached in a step")       \
    STACK_FRAC(C, "attn_eff", attn_eff, 0.8,                                   \
               "share of the measured attention ceiling reached")              \
    STACK_FRAC(C, "fp8_eff", fp8_eff, 1,                                       \
               "8/4-bit GEMMs: scaling recipe, relative to gemm_eff")          \
    STACK_FRAC(C, "tp_overlap", tp_overlap, 0,                                 \
               "share of TP communication pipelined with GEMMs")               \
    STACK_FRAC(C, "dp_overlap", dp_overlap, 1,                                 \
               "share of DP gradient traffic hidden under backward")           \
    C(stack_spec, "zero3_prefetch", CATCOL_REAL, 0, 0, 64, NULL, FT_DBL,       \
      zero3_prefetch, 1, 1, DF,                                                \
      "ZeRO-3 layer gathers in flight ahead of compute (0: none)")             \
    C(stack_spec, "kernel_us", CATCOL_REAL, 0, 0, 1e4, NULL, FT_DBL, kernel_s, \
      1e-6, 0, DF, "host dispatch per kernel beyond the launch, us")           \
    C(stack_spec, "step_overhead_ms", CATCOL_REAL, 0, 0, 1e6, NULL, FT_DBL,    \
      step_overhead_s, 1e-3, 0, DF, "framework work per step, ms")             \
    C(stack_spec, "mem_reserve_gib", CATCOL_REAL, 0, 0, 1e4, NULL, FT_DBL,     \
      mem_reserve_bytes, GIB, 1, DF,                                           \
      "CUDA context, NCCL buffers, workspaces, GiB")                           \
    STACK_FRAC(C, "mem_frag_frac", mem_frag_frac, 0.05,                        \
               "allocator slack, fraction of activations")                     \
    STACK_FRAC(C, "selective_keep", selective_keep, 1,                         \
               "selective recompute keeps this share of Megatron's set")       \
    STACK_FRAC(C, "ep_overlap", ep_overlap, 0,                                 \
               "share of the MoE all-to-all hidden under compute")             \
    PROV_COLS(C, stack_spec)                                                   \
    NOTE_COLS(C, stack_spec)                                                   \
    STACK_FRAC(C, "mbu", mbu, 1,                                               \
               "serving decode: share of the measured HBM ceiling")            \
    STACK_FRAC(C, "kv_mem_frac", kv_mem_frac, 0.9,                             \
               "serving: share of free HBM given to the KV cache")             \
    C(stack_spec, "max_seqs", CATCOL_REAL, 0, 0, 1e9, NULL, FT_DBL, max_seqs,  \
      1, 0, DF, "serving: engine cap on running sequences (0: none)")          \
    C(stack_spec, "allreduce_us", CATCOL_REAL, 0, 0, 1e5, NULL, FT_DBL,        \
      allreduce_s, 1e-6, 0, DF,                                                \
      "serving: latency of one TP all-reduce at decode sizes, us")             \
    C(stack_spec, "prefill_chunk", CATCOL_REAL, 0, 0, 1e9, NULL, FT_DBL,       \
      prefill_chunk, 1, 8192, DF,                                              \
      "serving: tokens per forward pass (max_num_tokens)")                     \
    STACK_FRAC(C, "decode_overlap", decode_overlap, 0.5,                       \
               "serving: share of compute/memory overlapped in a step")        \
    C(stack_spec, "moe_imbalance", CATCOL_REAL, 0, 1, 16, NULL, FT_DBL,        \
      moe_imbalance, 1, 1, DF,                                                 \
      "dropless MoE: busiest EP rank's routed tokens over the even share")     \
    C(stack_spec, "runs_on", CATCOL_TEXT, 0, 0, 0, NULL, FT_STR, runs_on, 1,   \
      0, DF | PF_VENDORS,                                                      \
      "accelerator vendors it runs on (empty: not stated)")                    \
    C(stack_spec, "default_on", CATCOL_TEXT, 0, 0, 0, NULL, FT_STR,            \
      default_on, 1, 0, DF | PF_VENDORS,                                       \
      "vendors whose accelerators default to it")                              \
    C(stack_spec, "runs_on_source", CATCOL_TEXT, 0, 0, 0, NULL, FT_NONE, id,   \
      1, 0, 0, "where runs_on and default_on are published")                   \
    C(stack_spec, "moe_gemm_per_expert", CATCOL_REAL, 0, 0, 1, NULL, FT_DBL,   \
      moe_gemm_per_expert, 1, 0, DF,                                           \
      "MoE: 1 = one GEMM launch per local expert, 0 = one grouped kernel")  \
    STACK_FRAC(C, "dp_flat", dp_flat, 0,                                       \
               "DP/ZeRO collectives: 1 one flat ring, 0 hierarchical")         \
    C(stack_spec, "ar_oneshot_kb", CATCOL_REAL, 0, 0, 1e9, NULL, FT_DBL,       \
      ar_oneshot_bytes, 1e3, 0, DF,                                            \
      "serving, tp > 2: custom all-reduce while tp x message < it, kB")        \
    C(stack_spec, "ar_workspace_kb", CATCOL_REAL, 0, 0, 1e9, NULL, FT_DBL,     \
      ar_workspace_bytes, 1e3, 0, DF,                                          \
      "serving, tp <= 2: custom all-reduce up to this message, kB")        \
    STACK_FRAC(C, "tp_bwd_exposed", tp_bwd_exposed, 0,                         \
               "backward TP collectives: 1 in order, 0 under the wgrad GEMM") \
    STACK_FRAC(C, "ckpt_early_stop", ckpt_early_stop, 0,                       \
               "full recompute: 1 stops before the last GEMM, 0 whole layer") \
    STACK_FRAC(C, "pp_overlap", pp_overlap, 0,                                 \
               "interleaved pipeline: share of the sends posted beside compute") \
    C(stack_spec, "zero3_live_params", CATCOL_REAL, 0, 0, 1e15, NULL, FT_DBL,  \
      zero3_live_params, 1, 0, DF,                                             \
      "ZeRO-3: gathered parameters resident before release (0: no cap)")       \
    STACK_FRAC(C, "dp_shard_domain", dp_shard_domain, 0,                       \
               "ZeRO-3: 1 shard inside the scale-up domain, DP across")      \
    C(stack_spec, "cast_kernel", CATCOL_ENUM, 0, 0, 0, "te|torchao", FT_STR,   \
      cast_kernel, 1, 0, DF,                                                   \
      "8-bit casts: te (fused into the op before) or torchao; empty = te")    \
    C(stack_spec, "custom_ar_on", CATCOL_TEXT, 0, 0, 0, NULL, FT_STR,          \
      custom_ar_on, 1, 0, DF | PF_VENDORS,                                     \
      "serving: vendors with its own TP all-reduce (empty: all)")              \
    C(stack_spec, "fp8_row_fused_on", CATCOL_TEXT, 0, 0, 0, NULL, FT_STR,      \
      fp8_row_fused_on, 1, 0, DF | PF_VENDORS,                                 \
      "serving: vendors with a fused row-scaled FP8 GEMM (empty: all)")      \
    C(stack_spec, "per_op_sac", CATCOL_REAL, 0, 0, 1, NULL, FT_DBL,            \
      per_op_sac, 1, 0, DF | PF_FLAG,                                          \
      "selective: 1 torchtitan's per-op save list (attention kept)")          \
    C(stack_spec, "fp32_params", CATCOL_REAL, 0, 0, 1, NULL, FT_DBL,           \
      fp32_params, 1, 0, DF | PF_FLAG,                                         \
      "ZeRO-3: 1 the shards are the fp32 master, no 16-bit copy")

#define PUBLIC_COL(T, name, type, flags, min, max, choices, ft, member, scale, \
                   dflt, pf, help)                                             \
    {name, type, flags, min, max, choices, help},
#define MAP_COL(T, name, type, flags, min, max, choices, ft, member, scale,    \
                dflt, pf, help)                                                \
    {ft,                                                                       \
     offsetof(struct T, member),                                               \
     sizeof(((struct T *)0)->member),                                          \
     scale,                                                                    \
     dflt,                                                                     \
     pf},

#define KIND_TABLES(prefix, LIST)                                              \
    static const struct catalog_column prefix##_cols[] = {LIST(PUBLIC_COL)};   \
    static const struct col_map prefix##_map[] = {LIST(MAP_COL)};

KIND_TABLES(accel, ACCEL_COLS)
KIND_TABLES(system, SYSTEM_COLS)
KIND_TABLES(fabric, FABRIC_COLS)
KIND_TABLES(storage, STORAGE_COLS)
KIND_TABLES(site, SITE_COLS)
KIND_TABLES(cloud, CLOUD_COLS)
KIND_TABLES(model, MODEL_COLS)
KIND_TABLES(stack, STACK_COLS)

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define KIND_DEF(prefix, table, nkey)                                          \
    {                                                                          \
        table, prefix##_cols, prefix##_map, N(prefix##_cols), nkey,            \
            "data/" table ".csv"                                               \
    }

/* In enum catalog_kind order. */
static const struct kind_def kinds[CATALOG_KIND_COUNT] = {
    KIND_DEF(accel, "accelerators", 1), KIND_DEF(system, "systems", 1),
    KIND_DEF(fabric, "fabrics", 1),     KIND_DEF(storage, "storage", 1),
    KIND_DEF(site, "sites", 1),         KIND_DEF(cloud, "cloud", 2),
    KIND_DEF(model, "models", 1),       KIND_DEF(stack, "stacks", 1),
};

static const char *const kind_names[CATALOG_KIND_COUNT] = {
#define KIND_NAME(name, str) str,
    CATALOG_KIND_LIST(KIND_NAME)
#undef KIND_NAME
};

const char *catalog_kind_name(enum catalog_kind k)
{
    if ((unsigned)k >= CATALOG_KIND_COUNT)
        return NULL;
    return kind_names[k];
}

enum cp_status catalog_kind_parse(const char *name, enum catalog_kind *out,
                                  struct diag *d)
{
    int k;

    for (k = 0; k < CATALOG_KIND_COUNT; k++) {
        if (name && strcmp(name, kind_names[k]) == 0) {
            *out = (enum catalog_kind)k;
            return CP_OK;
        }
    }
    return diag_set(d, CP_ERR_NOT_FOUND, name ? name : "",
                    "unknown catalog kind (accelerators, systems, fabrics, "
                    "storage, sites, cloud, models, stacks)");
}

const struct kind_def *catalog_kind_def(enum catalog_kind k)
{
    if ((unsigned)k >= CATALOG_KIND_COUNT)
        return NULL;
    return &kinds[k];
}

const struct catalog_column *catalog_columns(enum catalog_kind k, size_t *n)
{
    const struct kind_def *kd = catalog_kind_def(k);

    if (!kd) {
        if (n)
            *n = 0;
        return NULL;
    }
    if (n)
        *n = kd->ncols;
    return kd->cols;
}

int catalog_col_index(const struct kind_def *kd, const char *name)
{
    size_t i;

    for (i = 0; i < kd->ncols; i++)
        if (strcmp(kd->cols[i].name, name) == 0)
            return (int)i;
    return -1;
}

int catalog_column_brief(enum catalog_kind k, size_t i)
{
    const struct kind_def *kd = catalog_kind_def(k);

    return kd && i < kd->ncols && (kd->map[i].pflags & PF_BRIEF);
}
