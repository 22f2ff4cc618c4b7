/*
 * check_catalog.c - the SQLite catalog on a seeded ":memory:" database:
 * contract ids, getters and their unit conversions, the column tables
 * against PRAGMA table_info, import validation, export/import round trip,
 * injection-looking text, saved plans, settings, and refusing files that
 * are not (or not yet) our catalogs.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "catalog/catalog_int.h"
#include "check_helpers.h"
#include "util/strbuf.h"

static struct catalog *cat;
static struct diag d;

static void setup(void)
{
    diag_clear(&d);
    ck_assert_int_eq(catalog_open(":memory:", 0, &cat, &d), CP_OK);
}

static void teardown(void)
{
    catalog_close(cat);
    cat = NULL;
}

static enum cp_status count_row(void *ctx, const char *const *v, size_t n)
{
    (void)v;
    (void)n;
    ++*(size_t *)ctx;
    return CP_OK;
}

static size_t count(enum catalog_kind k, const char *id)
{
    size_t n = 0;

    catalog_foreach(cat, k, id, count_row, &n, NULL);
    return n;
}

/* ---- core ------------------------------------------------------------ */

static const struct {
    enum catalog_kind kind;
    const char *ids;
} contract[] = {
    {CATALOG_ACCELERATORS,
     "v100-32gb a100-40gb a100-80gb h100-sxm h100-pcie h800-sxm h200-sxm "
     "b200 gb200 mi250x mi300x mi325x tpu-v4 tpu-v5e tpu-v5p gaudi3 l40s"},
    {CATALOG_SYSTEMS, "dgx-a100 dgx-h100 dgx-h200 dgx-b200 gb200-nvl72 "
                      "hgx-h800 mi300x-8 tpu-v4-pod tpu-v5p-pod"},
    {CATALOG_FABRICS, "ib-hdr ib-ndr ib-xdr roce-400g eth-100g"},
    {CATALOG_MODELS, "gpt3-175b megatron-22b mt-nlg-530b megatron-1t "
                     "llama2-7b llama2-70b llama3-8b llama3-70b "
                     "llama3.1-405b mixtral-8x7b deepseek-v3 bloom-176b"},
    {CATALOG_STORAGE, "parallel-fs local-nvme object-store"},
    {CATALOG_SITES, "us-average us-texas us-virginia us-virginia-colo "
                    "germany finland norway sweden france us-hyperscale"},
    {CATALOG_CLOUD, "aws-p5.48xlarge azure-nd96isr-h100-v5 "
                    "gcp-a3-highgpu-8g lambda-8x-h100 coreweave-hgx-h100 "
                    "gcp-tpu-v5p"},
};

START_TEST(test_contract_ids)
{
    size_t i;

    for (i = 0; i < sizeof(contract) / sizeof(contract[0]); i++) {
        char buf[512], *save = NULL, *id;

        snprintf(buf, sizeof(buf), "%s", contract[i].ids);
        for (id = strtok_r(buf, " ", &save); id;
             id = strtok_r(NULL, " ", &save))
            ck_assert_msg(count(contract[i].kind, id) >= 1, "%s %s missing",
                          catalog_kind_name(contract[i].kind), id);
    }
}
END_TEST

struct idlist {
    char ids[64][CP_ID_MAX];
    size_t n;
};

static enum cp_status collect_id(void *ctx, const char *const *v, size_t n)
{
    struct idlist *l = ctx;

    (void)n;
    if (l->n < 64)
        snprintf(l->ids[l->n++], CP_ID_MAX, "%s", v[0]);
    return CP_OK;
}

START_TEST(test_every_accel_has_system)
{
    struct idlist l = {0};
    char sys[CP_ID_MAX];
    struct system_spec s;
    size_t i;

    ck_assert_int_eq(
        catalog_foreach(cat, CATALOG_ACCELERATORS, NULL, collect_id, &l, &d),
        CP_OK);
    ck_assert_uint_ge(l.n, 17);
    for (i = 0; i < l.n; i++) {
        ck_assert_msg(catalog_default_system(cat, l.ids[i], sys, &d) == CP_OK,
                      "no system for %s", l.ids[i]);
        ck_assert_int_eq(catalog_get_system(cat, sys, &s, NULL, &d), CP_OK);
        ck_assert_str_eq(s.accel_id, l.ids[i]);
        ck_assert_msg(s.fabric_id[0], "%s has no fabric", sys);
    }
    catalog_default_system(cat, "h100-sxm", sys, &d);
    ck_assert_str_eq(sys, "dgx-h100");
    catalog_default_system(cat, "a100-80gb", sys, &d);
    ck_assert_str_eq(sys, "dgx-a100");
    catalog_default_system(cat, "gb200", sys, &d);
    ck_assert_str_eq(sys, "gb200-nvl72");
    ck_assert_int_eq(catalog_default_system(cat, "nope", sys, &d),
                     CP_ERR_NOT_FOUND);
}
END_TEST

START_TEST(test_get_accel_units)
{
    struct accel_spec a;
    struct catalog_meta m;

    ck_assert_int_eq(catalog_get_accel(cat, "h100-sxm", &a, &m, &d), CP_OK);
    ck_assert_str_eq(a.id, "h100-sxm");
    ck_assert_rel(a.peak_flops[PREC_BF16], 989e12, 1e-12);
    ck_assert_rel(a.peak_flops[PREC_FP8], 1979e12, 1e-12);
    ck_assert_rel(a.peak_flops[PREC_TF32], 494.5e12, 1e-12);
    ck_assert_rel(a.peak_flops[PREC_FP32], 67e12, 1e-12);
    ck_assert_rel(a.hbm_bytes, 80.0 * 1073741824.0, 1e-12);
    ck_assert_rel(a.hbm_bps, 3.35e12, 1e-12);
    ck_assert_rel(a.scaleup_bps, 450e9, 1e-12); /* 900 bidir / 2 */
    ck_assert_rel(a.tdp_w, 700, 1e-12);
    /* calibration knobs: fitted values change with calibration, so check
     * they are plausible here and the unit conversion exactly below */
    ck_assert(a.gemm_frac > 0.3 && a.gemm_frac <= 1);
    ck_assert(a.gemm_half_flops > 1e9 && a.gemm_half_flops < 1e13);
    ck_assert(a.kernel_s > 1e-7 && a.kernel_s < 1e-4);
    ck_assert(a.attn_frac > 0.05 && a.attn_frac <= 1);
    ck_assert(a.hbm_frac > 0.5 && a.hbm_frac <= 1);
    ck_assert(a.power_frac > 0.3 && a.power_frac <= 1);
    {
        /* a row with known knobs: GFLOP -> FLOP, us -> s */
        static const char *const row[] = {
            "knob-test", "Knob test", "x", "", "", "100", "", "", "",
            "10", "1", "", "", "", "0.5", "3", "0.25", "0.75", "6", "0.6",
            "test", "2026", "", "", "", "", "", "", "0.4", "0.3", "bench",
            "0.35", "36", "341"};
        size_t n;

        catalog_columns(CATALOG_ACCELERATORS, &n);
        ck_assert_uint_eq(n, sizeof(row) / sizeof(row[0]));
        ck_assert_int_eq(catalog_row_put(cat, CATALOG_ACCELERATORS, row, n, &d),
                         CP_OK);
        ck_assert_int_eq(catalog_get_accel(cat, "knob-test", &a, NULL, &d),
                         CP_OK);
        ck_assert_rel(a.peak_flops[PREC_BF16], 100e12, 1e-12);
        ck_assert_rel(a.gemm_frac, 0.5, 1e-12);
        ck_assert_rel(a.gemm_half_flops, 3e9, 1e-12);
        ck_assert_rel(a.fp8_gemm_frac, 0.4, 1e-12);
        ck_assert_rel(a.fp4_gemm_frac, 0.35, 1e-12);
        ck_assert_rel(a.attn_fa2_frac, 0.3, 1e-12);
        ck_assert_rel(a.attn_frac, 0.25, 1e-12);
        ck_assert_rel(a.hbm_frac, 0.75, 1e-12);
        ck_assert_rel(a.kernel_s, 6e-6, 1e-12);
        ck_assert_rel(a.power_frac, 0.6, 1e-12);
        ck_assert_rel(a.nccl_ar_s, 36e-6, 1e-12);    /* us -> s */
        ck_assert_rel(a.nccl_ar_bps, 341e9, 1e-12);  /* GB/s -> B/s */
        ck_assert_int_eq(catalog_get_accel(cat, "h100-sxm", &a, &m, &d), CP_OK);
    }
    ck_assert(a.price_usd > 0);
    ck_assert(m.source[0] && m.as_of[0] && m.price_source[0] &&
              m.price_as_of[0]);

    /* V100 has no BF16: an empty cell is 0, "unsupported" */
    ck_assert_int_eq(catalog_get_accel(cat, "v100-32gb", &a, NULL, &d), CP_OK);
    ck_assert(a.peak_flops[PREC_BF16] == 0);
    ck_assert_rel(a.peak_flops[PREC_FP16], 125e12, 1e-12);
    ck_assert_int_eq(catalog_get_accel(cat, "tpu-v5p", &a, NULL, &d), CP_OK);
    ck_assert_rel(a.power_frac, 0.43, 1e-12);
    /* GB300's measured FP4 GEMM: 8640.3 of 15000 TFLOP/s (Azure ND GB300
     * v6, cuBLASLt 16384^3; ceilings.csv) */
    ck_assert_int_eq(catalog_get_accel(cat, "gb300", &a, NULL, &d), CP_OK);
    ck_assert_rel(a.fp4_gemm_frac, 8640.3 / 15000, 1e-3);
    /* Meta's H100 variant (torchtitan's benchmarks: 96GB HBM2e at 2.4
     * TB/s, a 700 W TDP part run at a default 500 W power limit, which a
     * plan states as hardware.power_limit_w): torchao's roofline for it
     * reaches 0.78 of the GEMM peak, one figure for both dtypes (so no FP8
     * column of its own), and 2.2 of its 2.4 TB/s; the same die as
     * h100-sxm but the lower ceilings of that memory; not sold: no price */
    ck_assert_int_eq(catalog_get_accel(cat, "h100-96gb", &a, &m, &d), CP_OK);
    ck_assert_rel(a.peak_flops[PREC_BF16], 989e12, 1e-12);
    ck_assert_rel(a.gemm_frac, 0.78, 1e-12);
    ck_assert(a.fp8_gemm_frac == 0);
    ck_assert_rel(a.hbm_bps * a.hbm_frac, 2.2e12, 1e-3);
    ck_assert_rel(a.tdp_w, 700, 1e-12);
    ck_assert(a.price_usd == 0);
    ck_assert(m.source[0] && m.as_of[0]);
    {
        struct accel_spec sxm;

        ck_assert_int_eq(catalog_get_accel(cat, "h100-sxm", &sxm, NULL, &d),
                         CP_OK);
        ck_assert(a.gemm_frac < sxm.gemm_frac);
        ck_assert(a.hbm_bps * a.hbm_frac < sxm.hbm_bps * sxm.hbm_frac);
        ck_assert_rel(a.attn_fa2_frac, sxm.attn_fa2_frac, 1e-12);
    }
}
END_TEST

START_TEST(test_get_others)
{
    struct system_spec s;
    struct fabric_spec f;
    struct model_spec mo;
    struct site_spec si;
    struct storage_spec st;

    ck_assert_int_eq(catalog_get_system(cat, "dgx-h100", &s, NULL, &d), CP_OK);
    ck_assert_str_eq(s.accel_id, "h100-sxm");
    ck_assert_str_eq(s.fabric_id, "ib-ndr");
    ck_assert_uint_eq(s.gpus_per_node, 8);
    ck_assert_uint_eq(s.scaleup_domain, 8);
    ck_assert(s.scaleup_bps == 0); /* the accelerator's */
    ck_assert_rel(s.host_power_w, 4600, 1e-12);
    ck_assert_rel(s.node_mtbf_h, 6336, 1e-12);
    ck_assert_uint_eq(s.nodes_per_rack, 4);
    ck_assert_int_eq(catalog_get_system(cat, "mi300x-8", &s, NULL, &d), CP_OK);
    ck_assert_rel(s.scaleup_frac, 0.698, 1e-9);
    ck_assert_int_eq(catalog_get_system(cat, "gb200-nvl72", &s, NULL, &d),
                     CP_OK);
    ck_assert_uint_eq(s.scaleup_domain, 72);

    /* v5e hosts: 2 x 100 Gbps NIC for 8 chips, 6.4 Tbps of DCN per
     * 256-chip pod (GCP TPU v5e docs): 25 Gbps per chip, not v5p's 50 */
    ck_assert_int_eq(catalog_get_system(cat, "tpu-v5e-pod", &s, NULL, &d),
                     CP_OK);
    ck_assert_str_eq(s.fabric_id, "tpu-v5e-dcn");
    ck_assert_int_eq(catalog_get_fabric(cat, s.fabric_id, &f, NULL, &d),
                     CP_OK);
    ck_assert_rel(f.gbps_per_gpu * (double)s.gpus_per_node, 2 * 100, 1e-12);
    ck_assert_rel(f.gbps_per_gpu * (double)s.scaleup_domain, 6400, 1e-12);

    ck_assert_int_eq(catalog_get_fabric(cat, "ib-ndr", &f, NULL, &d), CP_OK);
    ck_assert_rel(f.gbps_per_gpu, 400, 1e-12);
    ck_assert_rel(f.latency_s, 5e-6, 1e-12);
    ck_assert_uint_eq(f.switch_radix, 64);
    ck_assert(f.rail_optimized);

    ck_assert_int_eq(catalog_get_model(cat, "llama3-70b", &mo, NULL, &d),
                     CP_OK);
    ck_assert_uint_eq(mo.layers, 80);
    ck_assert_uint_eq(mo.hidden, 8192);
    ck_assert_uint_eq(mo.kv_heads, 8);
    ck_assert_uint_eq(mo.vocab, 128256);
    ck_assert(mo.gated_ffn && !mo.tied_embeddings);
    ck_assert_uint_eq(mo.params, 0);
    ck_assert_int_eq(catalog_get_model(cat, "deepseek-v3", &mo, NULL, &d),
                     CP_OK);
    ck_assert_uint_eq(mo.params, 0); /* derived from the MLA shape */
    ck_assert_int_eq(mo.attention, MATTN_MLA);
    ck_assert_uint_eq(mo.kv_lora_rank, 512);
    ck_assert_uint_eq(mo.q_lora_rank, 1536);
    ck_assert_uint_eq(mo.rope_head_dim, 64);
    ck_assert_uint_eq(mo.head_dim, 128);
    ck_assert_uint_eq(mo.experts, 256);
    ck_assert_uint_eq(mo.experts_active, 8);
    ck_assert_uint_eq(mo.shared_experts, 1);
    ck_assert_uint_eq(mo.expert_ffn, 2048);
    ck_assert_uint_eq(mo.vocab, 129280);
    ck_assert_int_eq(catalog_get_model(cat, "megatron-22b", &mo, NULL, &d),
                     CP_OK);
    ck_assert_uint_eq(mo.vocab, 51200);
    ck_assert_uint_eq(mo.moe_every, 1);

    ck_assert_int_eq(catalog_get_site(cat, "us-average", &si, NULL, &d), CP_OK);
    ck_assert(si.pue >= 1 && si.usd_per_kwh > 0 && si.kgco2_per_kwh > 0);
    ck_assert_int_eq(catalog_get_site(cat, "us-virginia-colo", &si, NULL, &d),
                     CP_OK);
    ck_assert(si.colo_usd_per_kw_month > 0);
    ck_assert_int_eq(catalog_get_storage(cat, "parallel-fs", &st, NULL, &d),
                     CP_OK);
    ck_assert(st.write_bps > 1e9 && st.read_bps >= st.write_bps);

    ck_assert_int_eq(catalog_get_site(cat, "nope", &si, NULL, &d),
                     CP_ERR_NOT_FOUND);
    ck_assert_str_eq(d.where, "sites");
    ck_assert_ptr_nonnull(strstr(d.msg, "nope"));
}
END_TEST

START_TEST(test_get_cloud)
{
    struct cloud_offer o;
    struct catalog_meta m;
    char id[CP_ID_MAX];

    ck_assert_int_eq(catalog_get_cloud(cat, "azure-nd96isr-h100-v5",
                                       TERM_RESERVED_1Y, &o, &m, &d),
                     CP_OK);
    ck_assert_str_eq(o.accel_id, "h100-sxm");
    ck_assert_uint_eq(o.gpus_per_instance, 8);
    ck_assert_rel(o.usd_per_gpu_hour[TERM_ON_DEMAND], 12.29, 1e-12);
    ck_assert_rel(o.usd_per_gpu_hour[TERM_RESERVED_1Y], 7.8656, 1e-12);
    ck_assert(o.usd_per_gpu_hour[TERM_SPOT] == 0);
    ck_assert_str_eq(m.price_as_of, "2026-09-27");
    ck_assert_int_eq(
        catalog_default_cloud(cat, "h100-sxm", TERM_ON_DEMAND, id, &d), CP_OK);
    ck_assert_int_eq(catalog_get_cloud(cat, id, TERM_ON_DEMAND, &o, NULL, &d),
                     CP_OK);
    ck_assert(o.usd_per_gpu_hour[TERM_ON_DEMAND] <= 2.5); /* Gcore 2.50 */
    ck_assert_int_eq(
        catalog_get_cloud(cat, "gcp-tpu-v5p", TERM_ON_DEMAND, &o, NULL, &d),
        CP_OK);
    ck_assert_str_eq(o.accel_id, "tpu-v5p");
}
END_TEST

/* The column tables and the SQL schema must agree column for column. */
START_TEST(test_columns_match_schema)
{
    int k;

    for (k = 0; k < CATALOG_KIND_COUNT; k++) {
        const struct kind_def *kd = catalog_kind_def(k);
        sqlite3_stmt *st = NULL;
        size_t i = 0;

        ck_assert_int_eq(sqlite3_prepare_v2(cat->db,
                                            "SELECT name, type, \"notnull\", "
                                            "pk FROM pragma_table_info(?)",
                                            -1, &st, NULL),
                         SQLITE_OK);
        sqlite3_bind_text(st, 1, kd->table, -1, SQLITE_STATIC);
        while (sqlite3_step(st) == SQLITE_ROW) {
            const struct catalog_column *c = &kd->cols[i];
            const char *want =
                c->type == CATCOL_REAL ? "REAL"
                : (c->type == CATCOL_COUNT || c->type == CATCOL_BOOL)
                    ? "INTEGER"
                    : "TEXT";

            ck_assert_msg(i < kd->ncols, "%s: extra SQL column", kd->table);
            ck_assert_str_eq((const char *)sqlite3_column_text(st, 0), c->name);
            ck_assert_str_eq((const char *)sqlite3_column_text(st, 1), want);
            ck_assert_int_eq(sqlite3_column_int(st, 2) != 0,
                             (c->flags & CATCOL_REQUIRED) != 0);
            ck_assert_int_eq(sqlite3_column_int(st, 3) != 0,
                             (c->flags & CATCOL_KEY) != 0);
            i++;
        }
        sqlite3_finalize(st);
        ck_assert_msg(i == kd->ncols, "%s: %zu SQL columns, %zu in table",
                      kd->table, i, kd->ncols);
    }
}
END_TEST

START_TEST(test_format_real_round_trips)
{
    static const double v[] = {0.1,    1.0 / 3,       989e12, 2.5e-7,
                               1e300,  6336,          0.803,  -4.25,
                               1e-300, 123456789.125, 3.2768, 0.0826};
    char buf[64];
    size_t i;

    for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
        catalog_format_real(v[i], buf, sizeof(buf));
        ck_assert_msg(strtod(buf, NULL) == v[i], "%s", buf);
    }
    catalog_format_real(0.1, buf, sizeof(buf));
    ck_assert_str_eq(buf, "0.1");
    catalog_format_real(989, buf, sizeof(buf));
    ck_assert_str_eq(buf, "989");
}
END_TEST

/* ---- errors ---------------------------------------------------------- */

static const char accel_hdr[] = "id,name,hbm_gib,hbm_tb_s,source,as_of\n";

START_TEST(test_import_bad_row_imports_nothing)
{
    char buf[512];

    snprintf(buf, sizeof(buf),
             "%sx1,X one,80,3,somewhere,2024\nx2,X two,-1,3,somewhere,2024\n",
             accel_hdr);
    ck_assert_int_eq(catalog_import_buffer(cat, CATALOG_ACCELERATORS, "a.csv",
                                           buf, strlen(buf), &d),
                     CP_ERR_RANGE);
    ck_assert_str_eq(d.where, "a.csv:3: hbm_gib");
    ck_assert_ptr_nonnull(strstr(d.msg, "must be a number"));
    ck_assert_uint_eq(count(CATALOG_ACCELERATORS, "x1"), 0);
    ck_assert_int_eq(cp_status_exit(CP_ERR_RANGE), 2);
}
END_TEST

START_TEST(test_import_cloud_price_error)
{
    struct strbuf sb = STRBUF_INIT;
    int i;

    strbuf_init(&sb, 0);
    strbuf_addstr(&sb, "id,term,provider,instance,accel_id,gpus_per_instance,"
                       "usd_per_gpu_hour,source,as_of\n");
    for (i = 0; i < 5; i++)
        strbuf_addf(&sb, "t-%d,on_demand,T,i,h100-sxm,8,2.5,s,2026-01\n", i);
    strbuf_addstr(&sb, "t-9,on_demand,T,i,h100-sxm,8,-3,s,2026-01\n");
    ck_assert_int_eq(catalog_import_buffer(cat, CATALOG_CLOUD, "prices.csv",
                                           sb.buf, sb.len, &d),
                     CP_ERR_RANGE);
    ck_assert_str_eq(d.where, "prices.csv:7: usd_per_gpu_hour");
    ck_assert_ptr_nonnull(strstr(d.msg, "must be a number"));
    ck_assert_uint_eq(count(CATALOG_CLOUD, "t-0"), 0);
    strbuf_release(&sb);
}
END_TEST

static enum cp_status import_str(enum catalog_kind k, const char *s)
{
    diag_clear(&d);
    return catalog_import_buffer(cat, k, "f.csv", s, strlen(s), &d);
}

START_TEST(test_import_header_errors)
{
    ck_assert_int_eq(import_str(CATALOG_ACCELERATORS,
                                "id,name,hbm_gib,hbm_tb_s,source,as_of,bogus\n"
                                "x,X,1,1,s,2024,1\n"),
                     CP_ERR_PARSE);
    ck_assert_str_eq(d.where, "f.csv:1");
    ck_assert_ptr_nonnull(strstr(d.msg, "'bogus'"));
    ck_assert_int_eq(import_str(CATALOG_ACCELERATORS,
                                "id,name,hbm_gib,hbm_tb_s,source\n"
                                "x,X,1,1,s\n"),
                     CP_ERR_PARSE);
    ck_assert_ptr_nonnull(strstr(d.msg, "missing required column 'as_of'"));
    ck_assert_int_eq(import_str(CATALOG_ACCELERATORS, ""), CP_ERR_PARSE);
    ck_assert_int_eq(import_str(CATALOG_ACCELERATORS,
                                "id,name,hbm_gib,hbm_tb_s,source,as_of\n"
                                "x,X,1,1,s\n"),
                     CP_ERR_PARSE);
    ck_assert_str_eq(d.where, "f.csv:2");
    ck_assert_int_eq(import_str(CATALOG_ACCELERATORS,
                                "id,name,hbm_gib,hbm_tb_s,source,as_of\n"
                                "x,\"unterminated,1,1,s,2024\n"),
                     CP_ERR_PARSE);
}
END_TEST

START_TEST(test_import_cell_errors)
{
    /* ids: lower-case [a-z0-9.-] only */
    ck_assert_int_eq(import_str(CATALOG_ACCELERATORS,
                                "id,name,hbm_gib,hbm_tb_s,source,as_of\n"
                                "H100,X,1,1,s,2024\n"),
                     CP_ERR_RANGE);
    ck_assert_str_eq(d.where, "f.csv:2: id");
    ck_assert_int_eq(import_str(CATALOG_ACCELERATORS,
                                "id,name,hbm_gib,hbm_tb_s,source,as_of\n"
                                "x,X,1,1,s,2024-13\n"),
                     CP_ERR_RANGE);
    ck_assert_str_eq(d.where, "f.csv:2: as_of");
    ck_assert_int_eq(import_str(CATALOG_ACCELERATORS,
                                "id,name,hbm_gib,hbm_tb_s,source,as_of\n"
                                "x,X,nan,1,s,2024\n"),
                     CP_ERR_RANGE);
    ck_assert_int_eq(import_str(CATALOG_ACCELERATORS,
                                "id,name,hbm_gib,hbm_tb_s,source,as_of\n"
                                "x,,1,1,s,2024\n"),
                     CP_ERR_RANGE);
    ck_assert_str_eq(d.where, "f.csv:2: name");
    ck_assert_str_eq(d.msg, "required");
    /* a price needs its provenance */
    ck_assert_int_eq(import_str(CATALOG_ACCELERATORS,
                                "id,name,hbm_gib,hbm_tb_s,price_usd,source,"
                                "as_of\nx,X,1,1,100,s,2024\n"),
                     CP_ERR_RANGE);
    ck_assert_str_eq(d.where, "f.csv:2: price_source");
    /* issue 18: a published capacity, a sale mode need their source */
    ck_assert_int_eq(import_str(CATALOG_CLOUD,
                                "id,term,provider,instance,accel_id,"
                                "gpus_per_instance,usd_per_gpu_hour,source,"
                                "as_of,capacity_gpus\n"
                                "o,on_demand,P,i,h100-sxm,8,2,s,2026,64\n"),
                     CP_ERR_RANGE);
    ck_assert_str_eq(d.where, "f.csv:2: capacity_source");
    ck_assert_int_eq(import_str(CATALOG_SYSTEMS,
                                "id,name,accel_id,gpus_per_node,"
                                "scaleup_domain,source,as_of,sale\n"
                                "s1,S,h100-sxm,8,8,s,2024,rent\n"),
                     CP_ERR_RANGE);
    ck_assert_str_eq(d.where, "f.csv:2: sale_source");
    /* references must exist */
    ck_assert_int_eq(import_str(CATALOG_SYSTEMS,
                                "id,name,accel_id,gpus_per_node,"
                                "scaleup_domain,source,as_of\n"
                                "s1,S,no-such-gpu,8,8,s,2024\n"),
                     CP_ERR_NOT_FOUND);
    ck_assert_str_eq(d.where, "f.csv:2: accel_id");
    /* duplicate keys in one file */
    ck_assert_int_eq(import_str(CATALOG_ACCELERATORS,
                                "id,name,hbm_gib,hbm_tb_s,source,as_of\n"
                                "x,X,1,1,s,2024\nx,Y,1,1,s,2024\n"),
                     CP_ERR_EXISTS);
    ck_assert_str_eq(d.where, "f.csv:3: id");
    /* not UTF-8 */
    ck_assert_int_eq(import_str(CATALOG_ACCELERATORS,
                                "id,name,hbm_gib,hbm_tb_s,source,as_of\n"
                                "x,\xff\xfe,1,1,s,2024\n"),
                     CP_ERR_RANGE);
    ck_assert_uint_eq(count(CATALOG_ACCELERATORS, "x"), 0);
    /* a good one, with a byte order mark and yes/no spelled true */
    ck_assert_int_eq(import_str(CATALOG_FABRICS,
                                "\xEF\xBB\xBFid,name,gbps_per_gpu,"
                                "rail_optimized,source,as_of\n"
                                "f1,F,200,TRUE,s,2024-02-29\n"),
                     CP_OK);
    ck_assert_uint_eq(count(CATALOG_FABRICS, "f1"), 1);
}
END_TEST

/* The stack columns of this session's merges (0020-0021): cast_kernel
 * names te or torchao, and a vendor list names vendors the catalog's
 * accelerators have (spec_vendor_listed compares them word by word, case
 * and all: a misspelt one would silently match nothing); the 0022 flags
 * per_op_sac and fp32_params are 0 or 1. */
START_TEST(test_import_stack_kernels)
{
    static const char hdr[] = "id,name,kind,source,as_of,cast_kernel,"
                              "custom_ar_on,fp8_row_fused_on,runs_on,"
                              "default_on,per_op_sac,fp32_params\n";
    static const struct {
        const char *row, *where, *msg;
    } bad[] = {
        {"s1,S,train,s,2024,torchoa,,,,,,", "f.csv:2: cast_kernel", "torchao"},
        {"s1,S,train,s,2024,TE,,,,,,", "f.csv:2: cast_kernel", "te|torchao"},
        {"s1,S,serve,s,2024,,NVIDA,,,,,", "f.csv:2: custom_ar_on", "'NVIDA'"},
        {"s1,S,serve,s,2024,,,NVIDIA amd,,,,", "f.csv:2: fp8_row_fused_on",
         "'amd'"},
        {"s1,S,serve,s,2024,,,,NVIDIA Cerebras,,,", "f.csv:2: runs_on",
         "'Cerebras'"},
        {"s1,S,serve,s,2024,,,,,Nvidia,,", "f.csv:2: default_on", "'Nvidia'"},
        {"s1,S,train,s,2024,,,,,,0.5,", "f.csv:2: per_op_sac", "0 or 1"},
        {"s1,S,train,s,2024,,,,,,,0.3", "f.csv:2: fp32_params", "0 or 1"},
    };
    char buf[512];
    struct stack_spec st;
    size_t i;

    for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        snprintf(buf, sizeof(buf), "%s%s\n", hdr, bad[i].row);
        ck_assert_int_ne(import_str(CATALOG_STACKS, buf), CP_OK);
        ck_assert_str_eq(d.where, bad[i].where);
        ck_assert_msg(strstr(d.msg, bad[i].msg) != NULL, "%s: %s", bad[i].row,
                      d.msg);
        ck_assert_uint_eq(count(CATALOG_STACKS, "s1"), 0);
    }
    snprintf(buf, sizeof(buf),
             "%ss1,S,serve,s,2024,torchao,NVIDIA,NVIDIA  AMD,NVIDIA AMD,AMD,"
             "1,0\n"
             "s2,S,train,s,2024,te,,,,,0,1\n",
             hdr);
    ck_assert_int_eq(import_str(CATALOG_STACKS, buf), CP_OK);
    ck_assert_int_eq(catalog_get_stack(cat, "s1", &st, NULL, &d), CP_OK);
    ck_assert_str_eq(st.cast_kernel, "torchao");
    ck_assert_str_eq(st.fp8_row_fused_on, "NVIDIA  AMD");
}
END_TEST

static char *export_str(enum catalog_kind k)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);

    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(catalog_export_csv(cat, k, f, &d), CP_OK);
    fclose(f);
    return buf;
}

START_TEST(test_export_import_round_trip)
{
    int k;

    for (k = 0; k < CATALOG_KIND_COUNT; k++) {
        char *a = export_str(k), *b;

        ck_assert_int_eq(import_str(k, a), CP_OK);
        b = export_str(k);
        ck_assert_str_eq(a, b);
        free(b);
        free(a);
    }
}
END_TEST

/* The stacks the contract names, with their provenance and knobs in
 * range; megatron-lm keeps the scores (unfused), megatron-core does not. */
START_TEST(test_get_stacks)
{
    static const char *const ids[] = {
        "megatron-core", "megatron-lm",      "megatron-deepspeed",
        "deepspeed",     "llm-foundry",      "torchtitan",
        "maxtext",       "tensorrt-llm",     "vllm",
        "sglang",        "fastertransformer"};
    struct catalog_meta meta;
    struct stack_spec s;
    size_t i;

    for (i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
        ck_assert_int_eq(catalog_get_stack(cat, ids[i], &s, &meta, &d), CP_OK);
        ck_assert_str_eq(s.id, ids[i]);
        ck_assert(meta.source[0] && meta.as_of[0]);
        ck_assert(s.gemm_eff > 0 && s.gemm_eff <= 1);
        ck_assert(s.attn_eff > 0 && s.attn_eff <= 1);
        ck_assert(s.mem_reserve_bytes > 0);
    }
    ck_assert_int_eq(catalog_get_stack(cat, "megatron-lm", &s, NULL, &d),
                     CP_OK);
    ck_assert_str_eq(s.attn_kernel, "unfused");
    ck_assert_int_eq(s.kind, WORKLOAD_TRAIN);
    ck_assert_int_eq(catalog_get_stack(cat, "vllm", &s, NULL, &d), CP_OK);
    ck_assert_int_eq(s.kind, WORKLOAD_SERVE);
    ck_assert_int_eq(catalog_get_stack(cat, "nope", &s, NULL, &d),
                     CP_ERR_NOT_FOUND);
}
END_TEST

START_TEST(test_injection_text_verbatim)
{
    static const char evil[] = "x'); DROP TABLE plans;--";
    const char *row[40] = {0};
    size_t n, i;
    const struct catalog_column *cols =
        catalog_columns(CATALOG_ACCELERATORS, &n);
    struct accel_spec a;
    char *text = NULL;

    ck_assert_uint_le(n, 40);
    for (i = 0; i < n; i++) {
        const char *c = cols[i].name;

        row[i] = strcmp(c, "id") == 0         ? "inj-1"
                 : strcmp(c, "name") == 0     ? evil
                 : strcmp(c, "hbm_gib") == 0  ? "8"
                 : strcmp(c, "hbm_tb_s") == 0 ? "1"
                 : strcmp(c, "source") == 0   ? evil
                 : strcmp(c, "as_of") == 0    ? "2024"
                                              : "";
    }
    ck_assert_int_eq(catalog_row_put(cat, CATALOG_ACCELERATORS, row, n, &d),
                     CP_OK);
    ck_assert_int_eq(catalog_get_accel(cat, "inj-1", &a, NULL, &d), CP_OK);
    ck_assert_str_eq(a.name, evil);
    ck_assert_int_eq(catalog_get_accel(cat, evil, &a, NULL, &d),
                     CP_ERR_NOT_FOUND);
    row[0] = evil; /* ids are not free text */
    ck_assert_int_eq(catalog_row_put(cat, CATALOG_ACCELERATORS, row, n, &d),
                     CP_ERR_RANGE);
    ck_assert_str_eq(d.where, "accelerators: id");
    ck_assert_int_eq(catalog_plan_save(cat, "p1", evil, &d), CP_OK);
    ck_assert_int_eq(catalog_plan_load(cat, "p1", &text, &d), CP_OK);
    ck_assert_str_eq(text, evil);
    free(text);
    ck_assert_int_eq(catalog_plan_save(cat, evil, "x", &d), CP_ERR_RANGE);
    ck_assert_int_eq(catalog_setting_put(cat, "theme", evil, &d), CP_OK);
    ck_assert_int_eq(catalog_setting_get(cat, "theme", &text, &d), CP_OK);
    ck_assert_str_eq(text, evil);
    free(text);
}
END_TEST

struct names {
    char s[256];
};

static enum cp_status add_name(void *ctx, const char *name, const char *at)
{
    struct names *n = ctx;
    size_t len = strlen(n->s);

    ck_assert(at && strlen(at) == 20);
    snprintf(n->s + len, sizeof(n->s) - len, "%s ", name);
    return CP_OK;
}

START_TEST(test_plans)
{
    struct names n = {""};
    char *text = NULL;

    ck_assert_int_eq(catalog_plan_save(cat, "beta", "[model]\n", &d), CP_OK);
    ck_assert_int_eq(catalog_plan_save(cat, "alpha", "a", &d), CP_OK);
    ck_assert_int_eq(catalog_plan_save(cat, "alpha", "a2", &d), CP_OK);
    ck_assert_int_eq(catalog_plan_list(cat, add_name, &n, &d), CP_OK);
    ck_assert_str_eq(n.s, "alpha beta ");
    ck_assert_int_eq(catalog_plan_load(cat, "alpha", &text, &d), CP_OK);
    ck_assert_str_eq(text, "a2");
    free(text);
    ck_assert_int_eq(catalog_plan_rename(cat, "alpha", "beta", &d),
                     CP_ERR_EXISTS);
    ck_assert_int_eq(catalog_plan_rename(cat, "alpha", "gamma", &d), CP_OK);
    ck_assert_int_eq(catalog_plan_rename(cat, "alpha", "delta", &d),
                     CP_ERR_NOT_FOUND);
    ck_assert_int_eq(catalog_plan_load(cat, "alpha", &text, &d),
                     CP_ERR_NOT_FOUND);
    ck_assert_ptr_null(text);
    ck_assert_int_eq(catalog_plan_load(cat, "gamma", &text, &d), CP_OK);
    free(text);
    ck_assert_int_eq(catalog_plan_delete(cat, "gamma", &d), CP_OK);
    ck_assert_int_eq(catalog_plan_delete(cat, "gamma", &d), CP_ERR_NOT_FOUND);
    ck_assert_int_eq(catalog_plan_save(cat, "Bad Name", "x", &d), CP_ERR_RANGE);
    /* reset keeps plans and settings */
    ck_assert_int_eq(catalog_setting_put(cat, "last_plan", "beta", &d), CP_OK);
    ck_assert_int_eq(catalog_row_delete(cat, CATALOG_MODELS, "llama2-7b", &d),
                     CP_OK);
    ck_assert_uint_eq(count(CATALOG_MODELS, "llama2-7b"), 0);
    ck_assert_int_eq(catalog_reset(cat, &d), CP_OK);
    ck_assert_uint_eq(count(CATALOG_MODELS, "llama2-7b"), 1);
    ck_assert_int_eq(catalog_plan_load(cat, "beta", &text, &d), CP_OK);
    free(text);
}
END_TEST

START_TEST(test_settings_and_delete)
{
    char *v = NULL;

    ck_assert_int_eq(catalog_setting_get(cat, "theme", &v, &d),
                     CP_ERR_NOT_FOUND);
    ck_assert_int_eq(catalog_setting_put(cat, "theme", "mono", &d), CP_OK);
    ck_assert_int_eq(catalog_setting_put(cat, "theme", "light", &d), CP_OK);
    ck_assert_int_eq(catalog_setting_get(cat, "theme", &v, &d), CP_OK);
    ck_assert_str_eq(v, "light");
    free(v);
    /* an accelerator a system is built from cannot go */
    ck_assert_int_eq(
        catalog_row_delete(cat, CATALOG_ACCELERATORS, "h100-sxm", &d),
        CP_ERR_EXISTS);
    ck_assert_uint_eq(count(CATALOG_ACCELERATORS, "h100-sxm"), 1);
    ck_assert_int_eq(catalog_row_delete(cat, CATALOG_CLOUD, "gcp-tpu-v5p", &d),
                     CP_OK);
    ck_assert_uint_eq(count(CATALOG_CLOUD, "gcp-tpu-v5p"), 0);
    ck_assert_int_eq(catalog_row_delete(cat, CATALOG_CLOUD, "gcp-tpu-v5p", &d),
                     CP_ERR_NOT_FOUND);
}
END_TEST

/* ---- files ----------------------------------------------------------- */

static char dir[64];

static void file_setup(void)
{
    snprintf(dir, sizeof(dir), "/tmp/llmplan-cat-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    diag_clear(&d);
}

static void file_teardown(void)
{
    char cmd[128];

    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf = malloc(1 << 20);

    ck_assert_ptr_nonnull(f);
    *len = fread(buf, 1, 1 << 20, f);
    fclose(f);
    return buf;
}

/* A catalog of schema 1 (before stacks and the finance columns) migrates
 * to the current schema and gets the built-in stacks; its own rows stay. */
START_TEST(test_migrate_v1_seeds_stacks)
{
    static const char *const downgrade[] = {
        "DROP TABLE stacks",
        "ALTER TABLE accelerators DROP COLUMN mxfp8_tflops",
        "ALTER TABLE accelerators DROP COLUMN fp4_tflops",
        "ALTER TABLE accelerators DROP COLUMN fp8_gemm_frac",
        "ALTER TABLE accelerators DROP COLUMN attn_fa2_frac",
        "ALTER TABLE accelerators DROP COLUMN ceiling_source",
        "ALTER TABLE models DROP COLUMN head_dim",
        "ALTER TABLE models DROP COLUMN attention",
        "ALTER TABLE models DROP COLUMN kv_lora_rank",
        "ALTER TABLE models DROP COLUMN q_lora_rank",
        "ALTER TABLE models DROP COLUMN rope_head_dim",
        "ALTER TABLE models DROP COLUMN first_dense_layers",
        "ALTER TABLE accelerators DROP COLUMN fp4_gemm_frac",
        "ALTER TABLE systems DROP COLUMN nics_included",
        "ALTER TABLE systems DROP COLUMN sale",
        "ALTER TABLE systems DROP COLUMN unit_gpus",
        "ALTER TABLE systems DROP COLUMN sale_source",
        "ALTER TABLE systems DROP COLUMN host_link_gb_s",
        "ALTER TABLE systems DROP COLUMN host_cores",
        "ALTER TABLE systems DROP COLUMN host_mem_gb",
        "ALTER TABLE cloud DROP COLUMN capacity_source",
        "ALTER TABLE sites DROP COLUMN rear_door_kw_per_rack",
        "ALTER TABLE sites DROP COLUMN rear_door_usd_per_kw",
        "ALTER TABLE sites DROP COLUMN liquid_usd_per_kw",
        "ALTER TABLE sites DROP COLUMN liquid_pue",
        "ALTER TABLE cloud DROP COLUMN capacity_gpus",
        "ALTER TABLE cloud DROP COLUMN spot_mtbi_h",
        "ALTER TABLE accelerators DROP COLUMN nccl_ar_us",
        "ALTER TABLE accelerators DROP COLUMN nccl_ar_gb_s",
        "DELETE FROM models WHERE id = 'bloom-176b'",
        "ALTER TABLE models DROP COLUMN expert_bias",
        "ALTER TABLE models DROP COLUMN act_clamp",
        "PRAGMA user_version = 1",
    };
    char path[128];
    struct catalog *c = NULL;
    struct stack_spec st;
    struct accel_spec a;
    size_t i;

    snprintf(path, sizeof(path), "%s/old.db", dir);
    ck_assert_int_eq(catalog_open(path, 0, &c, &d), CP_OK);
    for (i = 0; i < sizeof(downgrade) / sizeof(downgrade[0]); i++)
        ck_assert_msg(sqlite3_exec(c->db, downgrade[i], NULL, NULL, NULL) ==
                          SQLITE_OK,
                      "%s: %s", downgrade[i], sqlite3_errmsg(c->db));
    catalog_close(c);

    ck_assert_int_eq(catalog_open(path, 0, &c, &d), CP_OK);
    ck_assert_int_eq(catalog_get_stack(c, "megatron-core", &st, NULL, &d),
                     CP_OK);
    ck_assert_int_eq(catalog_get_accel(c, "h100-sxm", &a, NULL, &d), CP_OK);
    ck_assert_double_eq(a.fp8_gemm_frac, 0); /* not in the old row */
    {
        struct model_spec mo;

        ck_assert_int_eq(catalog_get_model(c, "bloom-176b", &mo, NULL, &d),
                         CP_ERR_NOT_FOUND); /* the user's deletion stays */
    }
    catalog_close(c);
}
END_TEST

/* Issue 18: a catalog made before systems.sale (user_version 5) gets the
 * built-in systems' sale and units and the offers' published capacities
 * when it is migrated: it never offers to own a TPU; a capacity the user
 * set stays. */
START_TEST(test_migrate_v5_sale_capacity)
{
    static const char *const downgrade[] = {
        "ALTER TABLE systems DROP COLUMN sale",
        "ALTER TABLE systems DROP COLUMN unit_gpus",
        "ALTER TABLE systems DROP COLUMN sale_source",
        "ALTER TABLE systems DROP COLUMN host_link_gb_s",
        "ALTER TABLE systems DROP COLUMN host_cores",
        "ALTER TABLE systems DROP COLUMN host_mem_gb",
        "ALTER TABLE cloud DROP COLUMN capacity_source",
        "ALTER TABLE models DROP COLUMN first_dense_layers",
        "ALTER TABLE accelerators DROP COLUMN fp4_gemm_frac",
        "ALTER TABLE stacks DROP COLUMN runs_on",
        "ALTER TABLE stacks DROP COLUMN default_on",
        "ALTER TABLE stacks DROP COLUMN runs_on_source",
        "ALTER TABLE stacks DROP COLUMN moe_gemm_per_expert",
        "ALTER TABLE stacks DROP COLUMN dp_flat",
        "ALTER TABLE accelerators DROP COLUMN nccl_ar_us",
        "ALTER TABLE accelerators DROP COLUMN nccl_ar_gb_s",
        "ALTER TABLE stacks DROP COLUMN ar_oneshot_kb",
        "ALTER TABLE stacks DROP COLUMN ar_workspace_kb",
        "ALTER TABLE stacks DROP COLUMN tp_bwd_exposed",
        "ALTER TABLE stacks DROP COLUMN ckpt_early_stop",
        "ALTER TABLE stacks DROP COLUMN pp_overlap",
        "ALTER TABLE stacks DROP COLUMN zero3_live_params",
        "ALTER TABLE stacks DROP COLUMN dp_shard_domain",
        "ALTER TABLE stacks DROP COLUMN cast_kernel",
        "ALTER TABLE stacks DROP COLUMN custom_ar_on",
        "ALTER TABLE stacks DROP COLUMN fp8_row_fused_on",
        "ALTER TABLE stacks DROP COLUMN per_op_sac",
        "ALTER TABLE stacks DROP COLUMN fp32_params",
        "UPDATE cloud SET capacity_gpus = NULL",
        "UPDATE cloud SET capacity_gpus = 64 WHERE id = 'gcp-a3-highgpu-8g'",
        "ALTER TABLE models DROP COLUMN expert_bias",
        "ALTER TABLE models DROP COLUMN act_clamp",
        "PRAGMA user_version = 5",
    };
    char path[128];
    struct catalog *c = NULL;
    struct system_spec sy;
    struct cloud_offer of;
    size_t i;

    snprintf(path, sizeof(path), "%s/v5.db", dir);
    ck_assert_int_eq(catalog_open(path, 0, &c, &d), CP_OK);
    for (i = 0; i < sizeof(downgrade) / sizeof(downgrade[0]); i++)
        ck_assert_msg(sqlite3_exec(c->db, downgrade[i], NULL, NULL, NULL) ==
                          SQLITE_OK,
                      "%s: %s", downgrade[i], sqlite3_errmsg(c->db));
    catalog_close(c);

    ck_assert_int_eq(catalog_open(path, 0, &c, &d), CP_OK);
    ck_assert_int_eq(catalog_get_system(c, "tpu-v5p-pod", &sy, NULL, &d),
                     CP_OK);
    ck_assert_int_eq(sy.sale, SALE_RENT);
    ck_assert_int_eq(catalog_get_system(c, "gb200-nvl72", &sy, NULL, &d),
                     CP_OK);
    ck_assert_int_eq(sy.sale, SALE_BOTH);
    ck_assert_uint_eq(sy.unit_gpus, 72);
    ck_assert_int_eq(
        catalog_get_cloud(c, "aws-p5.48xlarge", TERM_ON_DEMAND, &of, NULL, &d),
        CP_OK);
    ck_assert_uint_eq(of.capacity_gpus, 20000);
    ck_assert_int_eq(catalog_get_cloud(c, "gcp-a3-highgpu-8g", TERM_ON_DEMAND,
                                       &of, NULL, &d),
                     CP_OK);
    ck_assert_uint_eq(of.capacity_gpus, 64); /* the user's own */
    /* 0014_host_link: the built-in host side of ZeRO-Offload, as
     * data/systems.csv (DGX A100: PCIe Gen4 ~25 GB/s, 128 cores) */
    ck_assert_int_eq(catalog_get_system(c, "dgx-a100", &sy, NULL, &d), CP_OK);
    ck_assert_double_eq(sy.host_link_bps, 25e9);
    ck_assert_uint_eq(sy.host_cores, 128);
    ck_assert_int_eq(catalog_get_system(c, "dgx-b200", &sy, NULL, &d), CP_OK);
    ck_assert_double_eq(sy.host_link_bps, 0); /* not stated */
    ck_assert_double_eq(sy.host_mem_bytes, 0);
    /* 0015_grace_host: a GB200 tray's 2 Grace CPUs, 480 GB LPDDR5X each
     * over NVLink-C2C (450 GB/s a direction shared by 2 GPUs) */
    ck_assert_int_eq(catalog_get_system(c, "gb200-nvl72", &sy, NULL, &d),
                     CP_OK);
    ck_assert_double_eq(sy.host_link_bps, 225e9);
    ck_assert_uint_eq(sy.host_cores, 144);
    ck_assert_double_eq(sy.host_mem_bytes, 960e9);
    /* 0016_ckpt_early_stop: llm-foundry's PyTorch checkpointing stops
     * early, Megatron's recomputes the whole layer (data/stacks.csv) */
    {
        struct stack_spec st;

        ck_assert_int_eq(catalog_get_stack(c, "llm-foundry", &st, NULL, &d),
                         CP_OK);
        ck_assert_double_eq(st.ckpt_early_stop, 1);
        ck_assert_int_eq(catalog_get_stack(c, "megatron-core", &st, NULL, &d),
                         CP_OK);
        ck_assert_double_eq(st.ckpt_early_stop, 0);
        /* 0020_cast_kernel: Megatron-Core casts with Transformer Engine
         * (empty), torchtitan with torchao (data/stacks.csv) */
        ck_assert_str_eq(st.cast_kernel, "");
        ck_assert_int_eq(catalog_get_stack(c, "torchtitan", &st, NULL, &d),
                         CP_OK);
        ck_assert_str_eq(st.cast_kernel, "torchao");
        /* 0021_rocm_kernels: vLLM 0.6 has its custom all-reduce and the
         * fused row-scaled FP8 GEMM on NVIDIA only; other stacks do not
         * say (everywhere) */
        ck_assert_int_eq(catalog_get_stack(c, "vllm-0.6", &st, NULL, &d),
                         CP_OK);
        ck_assert_str_eq(st.custom_ar_on, "NVIDIA");
        ck_assert_str_eq(st.fp8_row_fused_on, "NVIDIA");
        ck_assert_int_eq(catalog_get_stack(c, "vllm", &st, NULL, &d), CP_OK);
        ck_assert_str_eq(st.custom_ar_on, "");
        ck_assert_str_eq(st.fp8_row_fused_on, "");
    }
    catalog_close(c);
}
END_TEST

/* A new catalog file and its directories are private (how long the first
 * open takes is make bench's business, not a unit test's). */
START_TEST(test_create_file_private)
{
    char path[128];
    struct stat sb;

    snprintf(path, sizeof(path), "%s/sub/dir/catalog.db", dir);
    ck_assert_int_eq(catalog_open(path, 0, &cat, &d), CP_OK);
    ck_assert_uint_ge(count(CATALOG_CLOUD, NULL), 50);
    catalog_close(cat);
    cat = NULL;
    ck_assert_int_eq(stat(path, &sb), 0);
    ck_assert_int_eq(sb.st_mode & 0777, 0600);
    snprintf(path, sizeof(path), "%s/sub/dir", dir);
    ck_assert_int_eq(stat(path, &sb), 0);
    ck_assert_int_eq(sb.st_mode & 0777, 0700);
}
END_TEST

START_TEST(test_newer_schema_refused)
{
    char path[128];
    sqlite3 *db;
    struct catalog *c2 = NULL;

    snprintf(path, sizeof(path), "%s/c.db", dir);
    ck_assert_int_eq(catalog_open(path, 0, &cat, &d), CP_OK);
    catalog_close(cat);
    cat = NULL;
    ck_assert_int_eq(sqlite3_open(path, &db), SQLITE_OK);
    ck_assert_int_eq(
        sqlite3_exec(db, "PRAGMA user_version = 99", NULL, NULL, NULL),
        SQLITE_OK);
    sqlite3_close(db);
    ck_assert_int_eq(catalog_open(path, 0, &c2, &d), CP_ERR_DB);
    ck_assert_ptr_null(c2);
    ck_assert_ptr_nonnull(strstr(d.msg, "newer"));
    ck_assert_int_eq(cp_status_exit(CP_ERR_DB), 1);
}
END_TEST

START_TEST(test_garbage_refused_untouched)
{
    static const char *const junk[] = {
        "just some text\nnot a database\n",
        "\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x10",
        "SQLite format 3",
        "",
    };
    char path[128];
    size_t i, len;

    snprintf(path, sizeof(path), "%s/junk.db", dir);
    for (i = 0; i < sizeof(junk) / sizeof(junk[0]); i++) {
        FILE *f = fopen(path, "wb");
        size_t n = i == 1 ? 20 : strlen(junk[i]);
        char *back;
        struct catalog *c2 = NULL;

        fwrite(junk[i], 1, n, f);
        fclose(f);
        ck_assert_int_eq(catalog_open(path, 0, &c2, &d), CP_ERR_DB);
        ck_assert_ptr_null(c2);
        ck_assert(d.msg[0]);
        back = slurp(path, &len);
        ck_assert_uint_eq(len, n);
        ck_assert(memcmp(back, junk[i], n) == 0);
        free(back);
    }
}
END_TEST

START_TEST(test_truncated_refused)
{
    char path[128], cut[128];
    size_t len;
    char *full;
    FILE *f;
    struct catalog *c2 = NULL;

    snprintf(path, sizeof(path), "%s/c.db", dir);
    snprintf(cut, sizeof(cut), "%s/cut.db", dir);
    ck_assert_int_eq(catalog_open(path, 0, &cat, &d), CP_OK);
    catalog_close(cat);
    cat = NULL;
    full = slurp(path, &len);
    ck_assert_uint_gt(len, 16384);
    f = fopen(cut, "wb");
    fwrite(full, 1, 12288, f);
    fclose(f);
    ck_assert_int_eq(catalog_open(cut, 0, &c2, &d), CP_ERR_DB);
    ck_assert_ptr_null(c2);
    free(full);
    full = slurp(cut, &len);
    ck_assert_uint_eq(len, 12288);
    free(full);
}
END_TEST

START_TEST(test_read_only_file)
{
    char path[128];
    struct catalog *c2 = NULL;

    snprintf(path, sizeof(path), "%s/ro.db", dir);
    ck_assert_int_eq(catalog_open(path, 0, &cat, &d), CP_OK);
    catalog_close(cat);
    cat = NULL;
    ck_assert_int_eq(chmod(path, 0444), 0);
    ck_assert_int_eq(catalog_open(path, 0, &c2, &d), CP_ERR_DB);
    ck_assert_ptr_null(c2);
    ck_assert_ptr_nonnull(strstr(d.msg, "read-only"));
    ck_assert_int_eq(catalog_open(path, CATALOG_OPEN_READONLY, &cat, &d),
                     CP_OK);
    ck_assert_uint_ge(count(CATALOG_MODELS, NULL), 12);
    catalog_close(cat);
    cat = NULL;
    snprintf(path, sizeof(path), "%s/missing.db", dir);
    ck_assert_int_eq(catalog_open(path, CATALOG_OPEN_READONLY, &c2, &d),
                     CP_ERR_DB);
    ck_assert_int_eq(access(path, F_OK), -1);
}
END_TEST

Suite *suite_catalog(void)
{
    Suite *s = suite_create("catalog");
    TCase *tc = tcase_create("core");
    TCase *te = tcase_create("errors");
    TCase *tf = tcase_create("files");

    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_contract_ids);
    tcase_add_test(tc, test_every_accel_has_system);
    tcase_add_test(tc, test_get_accel_units);
    tcase_add_test(tc, test_get_others);
    tcase_add_test(tc, test_get_stacks);
    tcase_add_test(tc, test_get_cloud);
    tcase_add_test(tc, test_columns_match_schema);
    tcase_add_test(tc, test_format_real_round_trips);
    suite_add_tcase(s, tc);

    tcase_add_checked_fixture(te, setup, teardown);
    tcase_add_test(te, test_import_bad_row_imports_nothing);
    tcase_add_test(te, test_import_cloud_price_error);
    tcase_add_test(te, test_import_header_errors);
    tcase_add_test(te, test_import_cell_errors);
    tcase_add_test(te, test_import_stack_kernels);
    tcase_add_test(te, test_export_import_round_trip);
    tcase_add_test(te, test_injection_text_verbatim);
    tcase_add_test(te, test_plans);
    tcase_add_test(te, test_settings_and_delete);
    suite_add_tcase(s, te);

    tcase_add_checked_fixture(tf, file_setup, file_teardown);
    tcase_add_test(tf, test_create_file_private);
    tcase_add_test(tf, test_migrate_v1_seeds_stacks);
    tcase_add_test(tf, test_migrate_v5_sale_capacity);
    tcase_add_test(tf, test_newer_schema_refused);
    tcase_add_test(tf, test_garbage_refused_untouched);
    tcase_add_test(tf, test_truncated_refused);
    tcase_add_test(tf, test_read_only_file);
    suite_add_tcase(s, tf);
    return s;
}
