/*
 * check_resolve.c - plans resolved against the seeded in-memory catalog:
 * defaults, overrides, errors that name the key or option, the layout
 * search's invariants, saved plans.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "check_helpers.h"
#include "plan/resolve.h"
#include "plan/search.h"

Suite *suite_resolve(void);

static struct catalog *cat;
static struct plan plan;
static struct plan_outcome *oc;

static void setup(void)
{
    struct diag d;

    ck_assert_msg(catalog_open(":memory:", 0, &cat, &d) == CP_OK, "%s: %s",
                  d.where, d.msg);
    oc = calloc(1, sizeof(*oc));
    plan_init(&plan, NULL);
}

static void teardown(void)
{
    catalog_close(cat);
    free(oc);
}

static void set(const char *assignment)
{
    struct diag d;

    ck_assert_msg(plan_set_assignment(&plan, assignment, &d) == CP_OK,
                  "%s: %s: %s", assignment, d.where, d.msg);
}

static void base(void)
{
    set("model.preset=llama3-70b");
    set("hardware.accelerator=h100-sxm");
    set("hardware.gpus=1024");
    set("train.tokens=15T");
}

START_TEST(test_defaults)
{
    struct diag d;
    const struct scenario *sc = &oc->res.sc;
    const struct layout *l = &oc->result.layout;

    base();
    ck_assert_msg(plan_evaluate(&plan, cat, OBJECTIVE_TIME, oc, &d) == CP_OK,
                  "%s: %s", d.where, d.msg);
    ck_assert_str_eq(sc->accel.id, "h100-sxm");
    ck_assert_str_eq(sc->system.id, "dgx-h100");
    ck_assert_str_eq(sc->fabric.id, sc->system.fabric_id);
    ck_assert_str_eq(sc->storage.id, "parallel-fs");
    ck_assert_str_eq(sc->site.id, "us-average");
    ck_assert_int_eq(sc->cloud_term, TERM_ON_DEMAND);
    ck_assert_rel(sc->finance.depreciation_years, 5, 0);
    ck_assert_rel(sc->finance.cost_of_capital, 0.08, 0);
    ck_assert_rel(sc->finance.utilization, 0.8, 0);
    ck_assert_rel(sc->finance.maintenance_frac, 0.05, 0);
    ck_assert_rel(sc->reliability.restart_min, 10, 0);
    ck_assert_uint_eq(sc->train.seq_len, 4096);
    ck_assert_uint_eq(sc->train.global_batch, 1024);
    ck_assert_uint_eq(l->tp * l->pp * l->dp * l->cp, 1024);
    ck_assert(oc->result.memory.fits);
    ck_assert(oc->searched);
    ck_assert_uint_ge(oc->res.nsources, 6);
}
END_TEST

START_TEST(test_overrides)
{
    struct diag d;
    const struct scenario *sc = &oc->res.sc;

    base();
    set("site.pue=1.1");
    set("cloud.usd_per_gpu_hour=1.5");
    set("cloud.term=reserved_1y");
    set("parallel.tp=8");
    set("parallel.pp=4");
    set("parallel.recompute=selective");
    set("reliability.node_mtbf_h=5000");
    ck_assert_msg(plan_evaluate(&plan, cat, OBJECTIVE_TIME, oc, &d) == CP_OK,
                  "%s: %s", d.where, d.msg);
    ck_assert_rel(sc->site.pue, 1.1, 0);
    ck_assert_rel(sc->cloud_usd_per_gpu_hour, 1.5, 0);
    ck_assert_int_eq(sc->cloud_term, TERM_RESERVED_1Y);
    ck_assert_uint_eq(oc->result.layout.tp, 8);
    ck_assert_uint_eq(oc->result.layout.pp, 4);
    ck_assert_uint_eq(oc->result.layout.dp, 32);
    ck_assert_int_eq(oc->result.layout.recompute, RECOMPUTE_SELECTIVE);
    ck_assert(oc->result.layout.sequence_parallel);
    ck_assert_rel(sc->reliability.node_mtbf_h, 5000, 0);
}
END_TEST

static const struct {
    const char *sets[3];
    enum cp_status st;
    const char *where;
} bad[] = {
    {{"parallel.tp=7"}, CP_ERR_LAYOUT, "parallel.tp"},
    {{"parallel.tp=8", "parallel.pp=8", "parallel.dp=8"},
     CP_ERR_LAYOUT,
     "parallel"},
    {{"hardware.accelerator=no-such-gpu"},
     CP_ERR_NOT_FOUND,
     "hardware.accelerator"},
    {{"model.preset=no-such-model"}, CP_ERR_NOT_FOUND, "model.preset"},
    {{"site.id=mars"}, CP_ERR_NOT_FOUND, "site.id"},
    {{"hardware.fabric=carrier-pigeon"}, CP_ERR_NOT_FOUND, "hardware.fabric"},
    {{"parallel.tp=8", "parallel.pp=1", "parallel.dp=3"},
     CP_ERR_LAYOUT,
     "parallel"},
};

START_TEST(test_errors)
{
    struct diag d;
    size_t i;
    enum cp_status st;

    base();
    for (i = 0; i < 3 && bad[_i].sets[i]; i++)
        set(bad[_i].sets[i]);
    diag_clear(&d);
    st = plan_evaluate(&plan, cat, OBJECTIVE_TIME, oc, &d);
    ck_assert_msg(st == bad[_i].st, "case %d: %s (%s: %s)", _i,
                  cp_status_str(st), d.where, d.msg);
    ck_assert_str_eq(d.where, bad[_i].where);
    ck_assert_int_eq(cp_status_exit(st), 2);
}
END_TEST

START_TEST(test_missing)
{
    struct diag d;

    set("hardware.gpus=8");
    set("train.tokens=1T");
    set("model.preset=llama3-8b");
    ck_assert_int_eq(plan_evaluate(&plan, cat, OBJECTIVE_TIME, oc, &d),
                     CP_ERR_USAGE);
    ck_assert_str_eq(d.where, "hardware.accelerator");
    plan_init(&plan, NULL);
    set("hardware.gpus=8");
    set("model.preset=llama3-8b");
    set("hardware.accelerator=h100-sxm");
    ck_assert_int_eq(plan_evaluate(&plan, cat, OBJECTIVE_TIME, oc, &d), CP_OK);
    ck_assert_rel(oc->result.time.train_days, 0, 0);
    ck_assert_uint_ge(oc->result.nwarnings, 1);
    ck_assert_int_eq(plan_resolve(&plan, cat, PLAN_NEED_TOKENS, &oc->res, &d),
                     CP_ERR_USAGE);
    ck_assert_str_eq(d.where, "train.tokens");
}
END_TEST

START_TEST(test_search_invariants)
{
    struct plan_resolved *res = calloc(1, sizeof(*res));
    struct search_result *sr = calloc(1, sizeof(*sr));
    struct diag d;
    size_t i;

    base();
    ck_assert_int_eq(plan_resolve(&plan, cat, PLAN_NEED_TOKENS, res, &d),
                     CP_OK);
    ck_assert_int_eq(plan_search(&res->sc, &res->space, OBJECTIVE_TIME, 20, sr,
                                 NULL, NULL, NULL, &d),
                     CP_OK);
    ck_assert(sr->fits);
    ck_assert_uint_eq(sr->n, 20);
    ck_assert_uint_ge(sr->candidates, sr->feasible);
    for (i = 0; i < sr->n; i++) {
        const struct layout *l = &sr->hits[i].layout;
        struct scenario sc = res->sc;

        ck_assert_uint_eq(l->tp * l->pp * l->dp * l->cp, 1024);
        ck_assert(sr->hits[i].fits);
        sc.layout = *l;
        ck_assert_int_eq(scenario_validate(&sc, NULL), CP_OK);
        if (i)
            ck_assert(sr->hits[i - 1].score <= sr->hits[i].score);
    }
    free(sr);
    free(res);
}
END_TEST

/* interleave=auto searches virtual stages; every hit still validates. */
START_TEST(test_interleave_auto)
{
    struct diag d;
    const struct layout *l = &oc->result.layout;

    set("model.preset=megatron-1t");
    set("hardware.accelerator=h100-sxm");
    set("hardware.gpus=16384");
    set("train.tokens=10T");
    set("parallel.interleave=auto");
    ck_assert_msg(plan_evaluate(&plan, cat, OBJECTIVE_TIME, oc, &d) == CP_OK,
                  "%s: %s", d.where, d.msg);
    ck_assert(oc->searched);
    ck_assert_uint_ge(l->interleave, 1);
    if (l->interleave > 1)
        ck_assert_uint_eq(oc->res.sc.model.layers % (l->pp * l->interleave), 0);
    ck_assert_uint_eq(l->tp * l->pp * l->dp * l->cp, 16384);
}
END_TEST

/* train.global_batch = auto: the band's high end for the model, noted;
 * a fixed batch that leaves a bubble-bound pipeline points at auto. */
START_TEST(test_auto_batch)
{
    struct diag d;
    size_t i;
    bool noted = false, pointed = false;

    set("model.preset=llama3.1-405b");
    set("hardware.accelerator=h100-sxm");
    set("hardware.gpus=16384");
    set("train.tokens=15T");
    set("parallel.tp=8");
    set("parallel.pp=16");
    ck_assert_msg(plan_evaluate(&plan, cat, OBJECTIVE_TIME, oc, &d) == CP_OK,
                  "%s: %s", d.where, d.msg);
    ck_assert_uint_eq(oc->res.sc.train.global_batch, 1024);
    for (i = 0; i < oc->result.nwarnings; i++)
        pointed |= strstr(oc->result.warnings[i],
                          "train.global_batch=auto") != NULL;
    ck_assert(pointed);

    set("train.global_batch=auto");
    ck_assert_msg(plan_evaluate(&plan, cat, OBJECTIVE_TIME, oc, &d) == CP_OK,
                  "%s: %s", d.where, d.msg);
    ck_assert(oc->res.sc.train.batch_auto);
    /* 16M tokens of the catalog's 4096 */
    ck_assert_uint_eq(oc->res.sc.train.global_batch *
                          oc->res.sc.train.seq_len,
                      1u << 24);
    for (i = 0; i < oc->result.nwarnings; i++) {
        noted |= strstr(oc->result.warnings[i], "train.global_batch=auto: ") !=
                 NULL;
        ck_assert_ptr_null(strstr(oc->result.warnings[i], "use larger"));
    }
    ck_assert(noted);
    ck_assert(oc->result.time.mfu > 0.3 && oc->result.time.mfu <= 1);

    /* auto is for training batches: a bad word still names the key */
    ck_assert_int_eq(plan_set_assignment(&plan, "train.global_batch=many", &d),
                     CP_ERR_PARSE);
    ck_assert_str_eq(d.where, "train.global_batch");
}
END_TEST

START_TEST(test_nothing_fits)
{
    struct diag d;

    set("model.preset=llama3.1-405b");
    set("hardware.accelerator=a100-40gb");
    set("hardware.gpus=8");
    set("train.tokens=1T");
    ck_assert_msg(plan_evaluate(&plan, cat, OBJECTIVE_TIME, oc, &d) == CP_OK,
                  "%s: %s", d.where, d.msg);
    ck_assert(!oc->result.memory.fits);
    ck_assert(!oc->search.fits);
    ck_assert_uint_ge(oc->result.nwarnings, 1);
}
END_TEST

START_TEST(test_saved_plan)
{
    struct plan back;
    struct strbuf sb;
    struct diag d;
    char *text = NULL;

    base();
    set("parallel.zero=1");
    strbuf_init(&sb, 0);
    ck_assert_int_eq(plan_write_ini(&plan, &sb), CP_OK);
    ck_assert_int_eq(catalog_plan_save(cat, "base", sb.buf, &d), CP_OK);
    ck_assert_int_eq(catalog_plan_load(cat, "base", &text, &d), CP_OK);
    plan_init(&back, NULL);
    ck_assert_int_eq(plan_parse_ini(&back, "@base", text, &d), CP_OK);
    ck_assert(plan_equal(&plan, &back));
    free(text);
    strbuf_release(&sb);
}
END_TEST

Suite *suite_resolve(void)
{
    Suite *s = suite_create("resolve");
    TCase *core = tcase_create("core");
    TCase *errors = tcase_create("errors");
    TCase *inv = tcase_create("invariants");

    tcase_add_checked_fixture(core, setup, teardown);
    tcase_add_checked_fixture(errors, setup, teardown);
    tcase_add_checked_fixture(inv, setup, teardown);
    tcase_set_timeout(core, 30);
    tcase_set_timeout(inv, 30);
    tcase_add_test(core, test_defaults);
    tcase_add_test(core, test_overrides);
    tcase_add_test(core, test_saved_plan);
    tcase_add_test(core, test_auto_batch);
    tcase_add_loop_test(errors, test_errors, 0,
                        (int)(sizeof(bad) / sizeof(bad[0])));
    tcase_add_test(errors, test_missing);
    tcase_add_test(inv, test_search_invariants);
    tcase_add_test(inv, test_nothing_fits);
    tcase_add_test(inv, test_interleave_auto);
    suite_add_tcase(s, core);
    suite_add_tcase(s, errors);
    suite_add_tcase(s, inv);
    return s;
}
