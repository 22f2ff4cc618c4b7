/*
 * check_calibrate.c - the stack fitter (plan/calibrate.h) of
 * `llmplan calibrate` and of `make validate` (fit_stacks.py drives it):
 *   * synthetic runs measured by the model itself at a known gemm_eff: the
 *     fit from the catalog row (which has another) recovers it and the
 *     error falls from several percent to ~0;
 *   * the knobs that do not move the runs are not fitted (fp8_eff on bf16
 *     runs), nor those that move fewer than 3 of them, mem_reserve_gib
 *     only with a measured total_gib, moe_imbalance only with 3+ MoE runs;
 *   * leave one source out fits from the typical knobs, not the row;
 *   * a prediction equals the metric of plan_evaluate after the row's
 *     knobs are in the catalog (the quote path);
 *   * the reader names the file, line and column of bad input.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_helpers.h"
#include "plan/calibrate.h"

/* Dense llm-foundry-like runs (MPT shapes of its benchmarking README). */
#define RUN_SETS(layers, hidden, heads, ffn, seq, gpus, mb, gb)                \
    "model.layers=" #layers " model.hidden=" #hidden " model.heads=" #heads    \
    " model.kv_heads=" #heads " model.ffn=" #ffn " model.vocab=50368 "         \
    "model.gated_ffn=no train.seq_len=" #seq " train.global_batch=" #gb        \
    " train.precision=bf16 train.tokens=1e12 hardware.accelerator=h100-sxm "   \
    "hardware.gpus=" #gpus " parallel.tp=1 parallel.pp=1 parallel.dp=" #gpus   \
    " parallel.microbatch=" #mb " parallel.zero=3 parallel.recompute=none "    \
    "software.stack=llm-foundry"

static const char runs_csv[] =
    "id,metric,expected,tol,source,sets\n"
    "a,mfu,0.4,0.1,synthetic," RUN_SETS(
        32, 4096, 32, 16384, 2048, 8, 4,
        256) "\n"
             "b,mfu,0.4,0.1,synthetic," RUN_SETS(
                 32, 4096, 32, 16384, 8192, 8, 1,
                 64) "\n"
                     "c,step_s,1,0.1,synthetic," RUN_SETS(
                         40, 5120, 40, 20480, 2048, 16, 2,
                         256) "\n"
                              "d,tokens_per_s_per_gpu,3000,0.1,"
                              "synthetic," RUN_SETS(
                                  24, 2048, 16, 8192, 2048, 8, 8,
                                  512) "\n"
                                       "e,model_tflops_per_gpu,300,0.1,"
                                       "synthetic," RUN_SETS(48, 6144, 48,
                                                             24576, 2048, 32, 1,
                                                             256) "\n";

static struct calib_set *load(const char *text, struct catalog *cat,
                              struct stack_spec *st)
{
    struct calib_set *cs = calib_set_new();
    char *buf = strdup(text);
    FILE *fp = fmemopen(buf, strlen(buf), "r");
    struct diag d;

    ck_assert_ptr_nonnull(fp);
    ck_assert_msg(calib_read(cs, "runs.csv", fp, &d) == CP_OK, "%s: %s",
                  d.where, d.msg);
    fclose(fp);
    free(buf);
    ck_assert_int_eq(catalog_get_stack(cat, "llm-foundry", st, NULL, &d),
                     CP_OK);
    ck_assert_msg(calib_resolve(cs, cat, "llm-foundry", &d) == CP_OK, "%s: %s",
                  d.where, d.msg);
    return cs;
}

START_TEST(test_recovers_known_knobs)
{
    struct catalog *cat = NULL;
    struct stack_spec st;
    struct calib_set *cs;
    struct calib_fit fit;
    double truth[CK_COUNT], v;
    struct diag d;
    size_t i;

    ck_assert_int_eq(catalog_open(":memory:", 0, &cat, &d), CP_OK);
    cs = load(runs_csv, cat, &st);
    ck_assert_uint_eq(cs->n, 5);
    /* the "measurements": the model at gemm_eff 0.6 (the row has 0.76) */
    calib_knobs_of(&st, truth);
    ck_assert(fabs(truth[CK_GEMM_EFF] - 0.6) > 0.1);
    truth[CK_GEMM_EFF] = 0.6;
    for (i = 0; i < cs->n; i++) {
        ck_assert(calib_predict(cs, i, &st, truth, &v));
        cs->runs[i].expected = v;
    }
    calib_fit(cs, NULL, 0, &st, &fit);
    ck_assert_msg(fit.before > 0.03, "start error %.3f", fit.before);
    ck_assert_int_eq(fit.why[CK_GEMM_EFF], CALIB_FIT);
    ck_assert_msg(fabs(fit.knobs[CK_GEMM_EFF] - 0.6) < 0.002,
                  "gemm_eff %.4f, want 0.6", fit.knobs[CK_GEMM_EFF]);
    ck_assert_msg(fit.after < 0.001, "after %.4f", fit.after);
    ck_assert(fit.after < fit.before);
    /* bf16 runs: the FP8 recipe does not move them; no memory measured;
     * no MoE runs */
    ck_assert_int_eq(fit.why[CK_FP8_EFF], CALIB_NO_EFFECT);
    ck_assert_double_eq(fit.knobs[CK_FP8_EFF], fit.start[CK_FP8_EFF]);
    ck_assert_int_eq(fit.why[CK_MEM_RESERVE_GIB], CALIB_NO_MEMORY);
    ck_assert_int_eq(fit.why[CK_MOE_IMBALANCE], CALIB_FEW_MOE);
    ck_assert_uint_eq(fit.moe_runs, 0);
    for (i = 0; i < CK_COUNT; i++) {
        const struct calib_knob_info *ki = calib_knob_info(i);

        ck_assert(fit.knobs[i] >= ki->low && fit.knobs[i] <= ki->high);
    }
    calib_set_free(cs);
    catalog_close(cat);
}
END_TEST

/* calib_predict with the row's own knobs is plan_evaluate's metric. */
START_TEST(test_predict_is_quote)
{
    struct catalog *cat = NULL;
    struct plan_outcome *oc = malloc(sizeof(*oc));
    struct stack_spec st;
    struct calib_set *cs;
    double knobs[CK_COUNT], v, q;
    struct plan p;
    struct diag d;
    char *copy, *t, *save = NULL;

    ck_assert_int_eq(catalog_open(":memory:", 0, &cat, &d), CP_OK);
    cs = load(runs_csv, cat, &st);
    calib_knobs_of(&st, knobs);
    ck_assert(calib_predict(cs, 2, &st, knobs, &v));
    plan_init(&p, "c");
    copy = strdup(cs->runs[2].sets);
    for (t = strtok_r(copy, " ", &save); t; t = strtok_r(NULL, " ", &save))
        ck_assert_int_eq(plan_set_assignment(&p, t, &d), CP_OK);
    free(copy);
    ck_assert_int_eq(plan_evaluate(&p, cat, OBJECTIVE_TIME, oc, &d), CP_OK);
    ck_assert(calib_metric("step_s", oc, &q));
    ck_assert_double_eq_tol(v, q, 1e-12 * q);
    ck_assert(!calib_metric("no_such_metric", oc, &q));
    ck_assert(calib_metric("time.step_s", oc, &q));
    free(oc);
    calib_set_free(cs);
    catalog_close(cat);
}
END_TEST

/* A run without its layout: searched once with the stack as it is, then
 * held; its prediction is still what quote (which searches) prints. */
START_TEST(test_pin_layout)
{
    static const char text[] =
        "id,metric,expected,sets\n"
        "a,mfu,0.4," RUN_SETS(
            32, 4096, 32, 16384, 2048, 8, 4,
            256) "\n"
                 "b,step_s,2,model.layers=32 model.hidden=4096 model.heads=32 "
                 "model.kv_heads=8 model.ffn=14336 train.seq_len=4096 "
                 "train.global_batch=256 hardware.accelerator=h100-sxm "
                 "hardware.gpus=16 software.stack=llm-foundry\n";
    struct catalog *cat = NULL;
    struct plan_outcome *oc = malloc(sizeof(*oc));
    struct stack_spec st;
    struct calib_set *cs;
    double knobs[CK_COUNT], v, q;
    struct plan p;
    struct diag d;
    size_t pinned;
    char *copy, *t, *save = NULL;

    ck_assert_int_eq(catalog_open(":memory:", 0, &cat, &d), CP_OK);
    cs = load(text, cat, &st);
    ck_assert(cs->runs[1].res->needs_search);
    ck_assert_int_eq(calib_pin_layouts(cs, &pinned, &d), CP_OK);
    ck_assert_uint_ge(pinned, 1);
    ck_assert(!cs->runs[0].res->needs_search);
    ck_assert(!cs->runs[1].res->needs_search);
    calib_knobs_of(&st, knobs);
    ck_assert(calib_predict(cs, 1, &st, knobs, &v));
    plan_init(&p, "b");
    copy = strdup(cs->runs[1].sets);
    for (t = strtok_r(copy, " ", &save); t; t = strtok_r(NULL, " ", &save))
        ck_assert_int_eq(plan_set_assignment(&p, t, &d), CP_OK);
    free(copy);
    ck_assert_int_eq(plan_evaluate(&p, cat, OBJECTIVE_TIME, oc, &d), CP_OK);
    ck_assert(oc->searched);
    ck_assert(calib_metric("step_s", oc, &q));
    ck_assert_double_eq_tol(v, q, 1e-12 * q);
    free(oc);
    calib_set_free(cs);
    catalog_close(cat);
}
END_TEST

static void read_fails(const char *text, const char *want_where,
                       const char *want_msg)
{
    struct calib_set *cs = calib_set_new();
    char *buf = strdup(text);
    FILE *fp = fmemopen(buf, strlen(buf), "r");
    struct diag d;

    diag_clear(&d);
    ck_assert(calib_read(cs, "runs.csv", fp, &d) != CP_OK);
    fclose(fp);
    free(buf);
    ck_assert_msg(strstr(d.where, want_where) != NULL, "where '%s'", d.where);
    ck_assert_msg(strstr(d.msg, want_msg) != NULL, "msg '%s'", d.msg);
    calib_set_free(cs);
}

/* selective_keep measures selective recomputation against Megatron's set:
 * a Megatron stack keeps 1 by definition and the fitter never moves it
 * ; any other stack's is fitted
 * or left as it is. */
START_TEST(test_megatron_selective_defined)
{
    struct catalog *cat = NULL;
    struct stack_spec st, mc;
    struct calib_set *cs;
    struct calib_fit fit;
    struct diag d;

    ck_assert_int_eq(catalog_open(":memory:", 0, &cat, &d), CP_OK);
    cs = load(runs_csv, cat, &st);
    mc = st;
    snprintf(mc.id, sizeof(mc.id), "%s", "megatron-core");
    mc.selective_keep = 0.4;
    calib_fit(cs, NULL, 0, &mc, &fit);
    ck_assert_int_eq(fit.why[CK_SELECTIVE_KEEP], CALIB_DEFINED);
    ck_assert_double_eq(fit.start[CK_SELECTIVE_KEEP], 1);
    ck_assert_double_eq(fit.knobs[CK_SELECTIVE_KEEP], 1);
    st.selective_keep = 0.4;
    calib_fit(cs, NULL, 0, &st, &fit);
    ck_assert_int_ne(fit.why[CK_SELECTIVE_KEEP], CALIB_DEFINED);
    ck_assert_double_eq_tol(fit.start[CK_SELECTIVE_KEEP], 0.4, 1e-12);
    /* MaxText's step is one jax.jit program: no host dispatch per kernel */
    mc = st;
    snprintf(mc.id, sizeof(mc.id), "%s", "maxtext");
    mc.kernel_s = 5e-6;
    calib_fit(cs, NULL, 0, &mc, &fit);
    ck_assert_int_eq(fit.why[CK_KERNEL_US], CALIB_DEFINED);
    ck_assert_double_eq(fit.knobs[CK_KERNEL_US], 0);
    ck_assert_int_ne(fit.why[CK_SELECTIVE_KEEP], CALIB_DEFINED);
    calib_set_free(cs);
    catalog_close(cat);
}
END_TEST

START_TEST(test_read_errors)
{
    read_fails("id,metric,expected,source\n", "runs.csv", "'sets'");
    read_fails("id,metric,expected,sets\nx,speed,1,model.layers=2\n",
               "runs.csv:2", "metric: unknown metric 'speed'");
    read_fails("id,metric,expected,sets\nx,mfu,-1,model.layers=2\n",
               "runs.csv:2", "expected");
    read_fails("id,metric,expected,sets\nx,mfu,0.4,model.layerz=2\n",
               "runs.csv:2: x: model.layerz", "unknown");
    read_fails("id,metric,expected,sets\nx,mfu,0.4,model.layers=two\n",
               "runs.csv:2: x", "");
}
END_TEST

START_TEST(test_source_of)
{
    char buf[64];

    calib_source_of("Megatron-Bridge 25.11 perf summary; @5776a6d9 config",
                    buf, sizeof(buf));
    ck_assert_str_eq(buf, "Megatron-Bridge 25.11 perf summary");
    calib_source_of("  PaLM Sec 4.1  ", buf, sizeof(buf));
    ck_assert_str_eq(buf, "PaLM Sec 4.1");
    calib_source_of("", buf, sizeof(buf));
    ck_assert_str_eq(buf, "");
    calib_source_of(" ; b", buf, sizeof(buf));
    ck_assert_str_eq(buf, "");
}
END_TEST

/* A stack row as text, edited column by column. */
struct text_row {
    const struct catalog_column *cols;
    size_t n;
    char v[64][CP_TEXT_MAX];
};

static enum cp_status keep_row(void *ctx, const char *const *values, size_t n)
{
    struct text_row *r = ctx;
    size_t i;

    for (i = 0; i < n && i < 64; i++)
        snprintf(r->v[i], sizeof(r->v[i]), "%s", values[i]);
    return CP_OK;
}

static void put_stack(struct catalog *cat, struct text_row *r, const char *id,
                      const char *kind, const char *gemm, const char *moe)
{
    const char *ptr[64];
    struct diag d;
    size_t i;

    for (i = 0; i < r->n; i++) {
        const char *c = r->cols[i].name;

        if (!strcmp(c, "id"))
            snprintf(r->v[i], sizeof(r->v[i]), "%s", id);
        else if (!strcmp(c, "kind"))
            snprintf(r->v[i], sizeof(r->v[i]), "%s", kind);
        else if (!strcmp(c, "gemm_eff"))
            snprintf(r->v[i], sizeof(r->v[i]), "%s", gemm);
        else if (!strcmp(c, "moe_imbalance"))
            snprintf(r->v[i], sizeof(r->v[i]), "%s", moe);
        ptr[i] = r->v[i];
    }
    ck_assert_msg(catalog_row_put(cat, CATALOG_STACKS, ptr, r->n, &d) == CP_OK,
                  "%s: %s", d.where, d.msg);
}

static enum cp_status collect_id(void *ctx, const char *const *values,
                                 size_t n)
{
    char(*ids)[CP_ID_MAX] = ctx;
    size_t i = 0;

    (void)n;
    while (ids[i][0])
        i++;
    snprintf(ids[i], CP_ID_MAX, "%s", values[0]);
    return CP_OK;
}

/* A built-in catalog with every stack row deleted; r keeps the
 * torchtitan row's cells as the template put_stack fills in. */
static struct catalog *stacks_emptied(struct text_row *r)
{
    static char ids[256][CP_ID_MAX];
    struct catalog *cat = NULL;
    struct diag d;
    size_t i;

    ck_assert_int_eq(catalog_open(":memory:", 0, &cat, &d), CP_OK);
    r->cols = catalog_columns(CATALOG_STACKS, &r->n);
    ck_assert(r->n <= 64 && !strcmp(r->cols[0].name, "id"));
    ck_assert_int_eq(
        catalog_foreach(cat, CATALOG_STACKS, "torchtitan", keep_row, r, &d),
        CP_OK);
    memset(ids, 0, sizeof(ids));
    ck_assert_int_eq(
        catalog_foreach(cat, CATALOG_STACKS, NULL, collect_id, ids, &d), CP_OK);
    for (i = 0; ids[i][0]; i++)
        ck_assert_int_eq(catalog_row_delete(cat, CATALOG_STACKS, ids[i], &d),
                         CP_OK);
    return cat;
}

/* The typical stack: per knob the median of the other training rows'
 * stated cells (a serving row and an empty cell do not count), the
 * knob's default when no row states it. */
START_TEST(test_typical_knobs)
{
    struct text_row *r = calloc(1, sizeof(*r));
    struct catalog *cat = stacks_emptied(r);
    double k[CK_COUNT];
    struct diag d;

    put_stack(cat, r, "s1", "train", "0.6", "");
    put_stack(cat, r, "s2", "train", "0.7", "2");
    put_stack(cat, r, "s3", "train", "0.9", "");
    put_stack(cat, r, "s4", "train", "0.8", "");
    put_stack(cat, r, "e1", "serve", "0.1", "3");
    ck_assert_int_eq(calib_typical_knobs(cat, "s3", k, &d), CP_OK);
    ck_assert_double_eq_tol(k[CK_GEMM_EFF], 0.7, 1e-12);
    ck_assert_double_eq_tol(k[CK_MOE_IMBALANCE], 2, 1e-12);
    ck_assert_int_eq(calib_typical_knobs(cat, "none", k, &d), CP_OK);
    ck_assert_double_eq_tol(k[CK_GEMM_EFF], 0.75, 1e-12);
    ck_assert_int_eq(calib_typical_knobs(cat, "s2", k, &d), CP_OK);
    ck_assert_double_eq_tol(k[CK_GEMM_EFF], 0.8, 1e-12);
    ck_assert_double_eq(k[CK_MOE_IMBALANCE],
                        calib_knob_info(CK_MOE_IMBALANCE)->dflt);
    free(r);
    catalog_close(cat);
}
END_TEST

/* attn_eff scales a fused attention kernel's measured ceiling: a stack
 * whose attention is unfused (Megatron-LM 2021-22) never uses it, so its
 * cell (the knob's default, which no run can move) is no value of the
 * typical stack; every other knob of that row still counts. */
START_TEST(test_typical_skips_unfused_attention)
{
    static const struct {
        const char *id, *kernel, *attn, *gemm;
    } rows[] = {
        {"f1", "fa2", "0.5", "0.6"},      {"f2", "cudnn", "0.55", "0.7"},
        {"f3", "splash", "0.9", "0.8"},   {"u1", "unfused", "0.8", "0.9"},
        {"u2", "unfused", "0.8", "0.95"},
    };
    struct text_row *r = calloc(1, sizeof(*r));
    struct catalog *cat = stacks_emptied(r);
    const char *ptr[64];
    double k[CK_COUNT];
    struct diag d;
    size_t i, j;

    for (j = 0; j < sizeof(rows) / sizeof(rows[0]); j++) {
        for (i = 0; i < r->n; i++) {
            const char *c = r->cols[i].name;
            const char *v = !strcmp(c, "id")            ? rows[j].id
                            : !strcmp(c, "kind")        ? "train"
                            : !strcmp(c, "attn_kernel") ? rows[j].kernel
                            : !strcmp(c, "attn_eff")    ? rows[j].attn
                            : !strcmp(c, "gemm_eff")    ? rows[j].gemm
                                                        : NULL;

            if (v)
                snprintf(r->v[i], sizeof(r->v[i]), "%s", v);
            ptr[i] = r->v[i];
        }
        ck_assert_msg(catalog_row_put(cat, CATALOG_STACKS, ptr, r->n, &d) ==
                          CP_OK,
                      "%s: %s", d.where, d.msg);
    }
    /* attn_eff: the fused rows f1, f2, f3 only; gemm_eff: all five */
    ck_assert_int_eq(calib_typical_knobs(cat, "none", k, &d), CP_OK);
    ck_assert_double_eq_tol(k[CK_ATTN_EFF], 0.55, 1e-12);
    ck_assert_double_eq_tol(k[CK_GEMM_EFF], 0.8, 1e-12);
    ck_assert_int_eq(calib_typical_knobs(cat, "f2", k, &d), CP_OK);
    ck_assert_double_eq_tol(k[CK_ATTN_EFF], 0.7, 1e-12);
    ck_assert_double_eq_tol(k[CK_GEMM_EFF], 0.85, 1e-12);
    free(r);
    catalog_close(cat);
}
END_TEST

/* A hardware ceiling is not below what a published whole step reached on
 * that chip: MaxText 32B on one v5e-256 slice, 66.86% MFU with
 * remat_policy=full (MaxText configs/v5e README and 32b.sh @76bd53b0f),
 * i.e. 4/3 of it in hardware FLOPs.  The row's gemm_frac (a large GEMM's
 * share of peak) must be at least that. */
START_TEST(test_tpu_v5e_ceiling_bound)
{
    struct catalog *cat = NULL;
    struct accel_spec a;
    struct diag d;

    ck_assert_int_eq(catalog_open(":memory:", 0, &cat, &d), CP_OK);
    ck_assert_int_eq(catalog_get_accel(cat, "tpu-v5e", &a, NULL, &d), CP_OK);
    ck_assert_msg(a.gemm_frac >= 4.0 / 3.0 * 0.6686 - 0.005,
                  "tpu-v5e gemm_frac %.3f below the HFU MaxText reached",
                  a.gemm_frac);
    ck_assert(a.gemm_frac <= 1);
    catalog_close(cat);
}
END_TEST

/* A knob is fitted only on CALIB_KNOB_RUNS_MIN runs that it moves: on
 * two runs gemm_eff would meet both whatever it stands for, so it keeps
 * its start; on three it is fitted (the same fitter for make validate,
 * --loso and calibrate). */
START_TEST(test_few_runs_rule)
{
    struct catalog *cat = NULL;
    struct stack_spec st;
    struct calib_set *cs;
    struct calib_fit fit;
    double truth[CK_COUNT], v;
    size_t two[] = {0, 1}, three[] = {0, 1, 2}, i;
    struct diag d;

    ck_assert_int_eq(catalog_open(":memory:", 0, &cat, &d), CP_OK);
    cs = load(runs_csv, cat, &st);
    calib_knobs_of(&st, truth);
    truth[CK_GEMM_EFF] = 0.7;
    for (i = 0; i < cs->n; i++) {
        ck_assert(calib_predict(cs, i, &st, truth, &v));
        cs->runs[i].expected = v;
    }
    calib_fit(cs, two, 2, &st, &fit);
    ck_assert_int_eq(fit.why[CK_GEMM_EFF], CALIB_FEW_RUNS);
    ck_assert_uint_eq(fit.moved[CK_GEMM_EFF], 2);
    ck_assert_uint_eq(fit.nactive, 0);
    for (i = 0; i < CK_COUNT; i++)
        ck_assert_double_eq(fit.knobs[i], fit.start[i]);
    ck_assert_double_eq(fit.after, fit.before);
    ck_assert_str_eq(calib_why_text(CALIB_FEW_RUNS), "moves fewer than 3 runs");
    calib_fit(cs, three, 3, &st, &fit);
    ck_assert_int_eq(fit.why[CK_GEMM_EFF], CALIB_FIT);
    ck_assert_uint_eq(fit.moved[CK_GEMM_EFF], 3);
    ck_assert_msg(fabs(fit.knobs[CK_GEMM_EFF] - 0.7) < 0.002,
                  "gemm_eff %.4f, want 0.7", fit.knobs[CK_GEMM_EFF]);
    calib_set_free(cs);
    catalog_close(cat);
}
END_TEST

/* Leave one source out on runs the model measured with the typical knobs
 * but gemm_eff 0.7, from two sources, A with three runs and B with two:
 * B, predicted by the stack fitted on A's three, is met within 0.5 %; A
 * gets the typical stack (B's two runs tell no knob), not the row's
 * knobs (fitted with A) nor a fit on two runs; the rows come source by
 * source; a stack of one source takes the typical stack. */
START_TEST(test_loso)
{
    struct catalog *cat = NULL;
    struct stack_spec st;
    struct calib_set *cs;
    struct calib_groups gs = {0, NULL};
    struct calib_loso_case *c = NULL;
    double truth[CK_COUNT], typical[CK_COUNT], v;
    size_t i, n;
    struct diag d;

    ck_assert_int_eq(catalog_open(":memory:", 0, &cat, &d), CP_OK);
    cs = load(runs_csv, cat, &st);
    ck_assert_int_eq(calib_resolve(cs, cat, NULL, &d), CP_OK);
    /* the truth: the typical stack but for gemm_eff */
    ck_assert_int_eq(calib_typical_knobs(cat, "llm-foundry", typical, &d),
                     CP_OK);
    ck_assert(fabs(typical[CK_GEMM_EFF] - 0.7) > 0.05);
    memcpy(truth, typical, sizeof(truth));
    truth[CK_GEMM_EFF] = 0.7;
    for (i = 0; i < cs->n; i++) {
        ck_assert(calib_predict(cs, i, &st, truth, &v));
        cs->runs[i].expected = v;
        snprintf(cs->runs[i].source, sizeof(cs->runs[i].source), "%s",
                 i % 2 ? "B paper" : "A blog; its config");
    }
    ck_assert_int_eq(calib_group_stacks(cs, cat, &gs, &d), CP_OK);
    ck_assert_uint_eq(gs.n, 1);
    ck_assert_str_eq(gs.g[0].st.id, "llm-foundry");
    ck_assert_uint_eq(gs.g[0].nsel, cs->n);
    /* the row as fitted on every source: it knows A */
    calib_set_knobs(&gs.g[0].st, truth);
    ck_assert_int_eq(calib_loso(cs, &gs, cat, &c, &n, &d), CP_OK);
    ck_assert_uint_eq(n, cs->n);
    for (i = 0; i < n; i++) {
        bool a = c[i].run % 2 == 0;

        ck_assert_uint_eq(c[i].run % 2, i < 3 ? 0 : 1); /* A, then B */
        ck_assert(c[i].fallback == a);
        ck_assert(a ? c[i].fitted == 0 : c[i].fitted >= 1);
        if (a)
            ck_assert_msg(fabs(c[i].error) > 0.05, "run %zu: %.4f", c[i].run,
                          c[i].error);
        else
            ck_assert_msg(fabs(c[i].error) < 0.005, "run %zu: %.4f", c[i].run,
                          c[i].error);
    }
    free(c);
    /* one source: the typical stack's knobs, not a fit on the runs */
    for (i = 0; i < cs->n; i++)
        snprintf(cs->runs[i].source, sizeof(cs->runs[i].source), "A");
    ck_assert_int_eq(calib_loso(cs, &gs, cat, &c, &n, &d), CP_OK);
    ck_assert_uint_eq(n, cs->n);
    for (i = 0; i < n; i++) {
        ck_assert(c[i].fallback);
        ck_assert(fabs(c[i].error) > 0.005);
    }
    free(c);
    /* ... with the knobs the stack has by definition (maxtext: no host
     * dispatch per kernel) */
    snprintf(gs.g[0].st.id, sizeof(gs.g[0].st.id), "%s", "maxtext");
    ck_assert_int_eq(calib_typical_knobs(cat, "maxtext", typical, &d), CP_OK);
    ck_assert(typical[CK_KERNEL_US] > 1);
    typical[CK_KERNEL_US] = 0;
    ck_assert_int_eq(calib_loso(cs, &gs, cat, &c, &n, &d), CP_OK);
    for (i = 0; i < n; i++) {
        ck_assert(calib_predict(cs, c[i].run, &gs.g[0].st, typical, &v));
        ck_assert_double_eq_tol(c[i].predicted, v, 1e-9 * v);
    }
    free(c);
    calib_groups_release(&gs);
    calib_set_free(cs);
    catalog_close(cat);
}
END_TEST

Suite *suite_calibrate(void)
{
    Suite *s = suite_create("calibrate");
    TCase *tc = tcase_create("core");

    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_recovers_known_knobs);
    tcase_add_test(tc, test_predict_is_quote);
    tcase_add_test(tc, test_pin_layout);
    tcase_add_test(tc, test_read_errors);
    tcase_add_test(tc, test_megatron_selective_defined);
    tcase_add_test(tc, test_source_of);
    tcase_add_test(tc, test_typical_knobs);
    tcase_add_test(tc, test_typical_skips_unfused_attention);
    tcase_add_test(tc, test_few_runs_rule);
    tcase_add_test(tc, test_tpu_v5e_ceiling_bound);
    tcase_add_test(tc, test_loso);
    suite_add_tcase(s, tc);
    return s;
}
