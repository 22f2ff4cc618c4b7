/*
 * check_reliability.c - Young/Daly intervals (reference/catalog.md 7.3),
 * the Llama 3 failure anchor (7.1) and goodput invariants.
 */
#include <math.h>
#include <string.h>

#include "check_helpers.h"
#include "core/reliability.h"

/* Llama 3 405B: 16,384 H100 in 2,048 DGX-style nodes. */
static void llama3(struct scenario *sc, struct result *r)
{
    memset(sc, 0, sizeof(*sc));
    memset(r, 0, sizeof(*r));
    sc->gpus = 16384;
    sc->system.gpus_per_node = 8;
    sc->reliability.restart_min = 10;
    r->time.train_days = 54;
    /* 405e9 params x 14 B at Tectonic's 2 TB/s sustained (reference 4). */
    r->storage.checkpoint_write_s = 405e9 * 14 / 2e12;
}

/* clang-format off */
static const struct interval_case {
    const char *name;
    double delta_s, mtbf_s;
    double young_s, daly_s;
    double rel;
    const char *source;
} intervals[] = {
    {"reference example", 60, 3 * 3600, 1138, 1099, 1e-3,
     "reference 7.3: delta 60 s, M 3 h -> Young 1,138 s, Daly 1,099 s"},
    /* sqrt(2 x 40 x 10800) = 929.5; x = 40/21600: 929.52 x (1 +
     * 0.014344 + 0.000206) - 40 = 903.04. */
    {"BLOOM-like", 40, 3 * 3600, 929.5160031, 903.0403, 1e-6,
     "derived from Young 1974 / Daly 2006 eq. 37"},
    /* delta = 2M: Daly's form ends, tau = M. */
    {"delta = 2M", 7200, 3600, 7200, 3600, 1e-12,
     "Daly 2006: tau = M for delta >= 2M"},
    {"delta > 2M", 1e6, 10, 4472.135954999579, 10, 1e-12,
     "Daly 2006: tau = M for delta >= 2M"},
    {"no checkpoint cost", 0, 3600, 0, 0, 0, "derived: delta = 0"},
    {"no failures", 60, 0, 0, 0, 0, "derived: M = 0 guarded"},
};
/* clang-format on */

START_TEST(test_intervals)
{
    const struct interval_case *c = &intervals[_i];

    ck_assert_rel(reliability_young_s(c->delta_s, c->mtbf_s), c->young_s,
                  c->rel);
    ck_assert_rel(reliability_daly_s(c->delta_s, c->mtbf_s), c->daly_s, c->rel);
}
END_TEST

/* clang-format off */
static const struct lost_case {
    const char *name;
    double delta_s, tau_s, mtbf_s, restart_s, lost;
    const char *source;
} losts[] = {
    /* 60/1099 + (549.5 + 0)/10800 */
    {"reference example", 60, 1099, 10800, 0,
     60.0 / 1099 + 549.5 / 10800, "reference 7.3 first-order form"},
    /* 40/10800 + (5400 + 600)/10800 */
    {"BLOOM 3 h interval", 40, 10800, 1e9, 600,
     40.0 / 10800 + 6000.0 / 1e9, "derived"},
    {"capped", 100, 10, 10, 1e6, RELIABILITY_MAX_LOST_FRAC, "cap 0.99"},
    {"no mtbf", 1, 1, 0, 0, RELIABILITY_MAX_LOST_FRAC, "guard"},
    {"free checkpoints", 0, 0, 3600, 360, 0.1, "derived: R / M"},
};
/* clang-format on */

START_TEST(test_lost)
{
    const struct lost_case *c = &losts[_i];

    ck_assert_rel(
        reliability_lost_frac(c->delta_s, c->tau_s, c->mtbf_s, c->restart_s),
        c->lost, 1e-12);
}
END_TEST

/* Llama 3: 419 unexpected interruptions in 54 days on 2,048 nodes with
 * the default node MTBF (Dubey et al. 2024, 3.3.4). */
START_TEST(test_llama3_failures)
{
    struct scenario sc;
    struct result r;
    struct reliability_result *rel = &r.reliability;

    llama3(&sc, &r);
    reliability_estimate(&sc, &r);
    ck_assert_rel(rel->cluster_mtbf_h, 54.0 * 24 / 419, 1e-12);
    /* failures per 54 wall-clock days */
    ck_assert_rel(rel->failures / rel->effective_train_days * 54, 419, 1e-9);
    /* Published: effective training time above 90%. */
    ck_assert_msg(rel->goodput > 0.90 && rel->goodput < 0.99,
                  "goodput %g, Llama 3 reports > 90%%", rel->goodput);
    ck_assert_rel(rel->effective_train_days, 54 / rel->goodput, 1e-12);
    ck_assert_rel(rel->lost_frac + rel->goodput, 1, 1e-15);
    ck_assert_uint_eq(r.nwarnings, 0);
}
END_TEST

/* The wall-clock run holds 54 days when the steady days are scaled by
 * goodput: then ~419 failures, as published. */
START_TEST(test_llama3_wallclock)
{
    struct scenario sc;
    struct result r;
    double goodput;

    llama3(&sc, &r);
    reliability_estimate(&sc, &r);
    goodput = r.reliability.goodput;
    llama3(&sc, &r);
    r.time.train_days = 54 * goodput;
    reliability_estimate(&sc, &r);
    ck_assert_rel(r.reliability.effective_train_days, 54, 1e-12);
    ck_assert_rel(r.reliability.failures, 419, 1e-9);
}
END_TEST

/* reliability.node_mtbf_h over system.node_mtbf_h over the default. */
START_TEST(test_mtbf_precedence)
{
    struct scenario sc;
    struct result r;

    llama3(&sc, &r);
    ck_assert_rel(reliability_node_mtbf_h(&sc), RELIABILITY_DEFAULT_NODE_MTBF_H,
                  0);
    ck_assert_rel(RELIABILITY_DEFAULT_NODE_MTBF_H, 6334.6, 1e-4);
    sc.system.node_mtbf_h = 1000;
    ck_assert_rel(reliability_node_mtbf_h(&sc), 1000, 0);
    sc.reliability.node_mtbf_h = 500;
    ck_assert_rel(reliability_node_mtbf_h(&sc), 500, 0);

    /* 500 h / 2,048 nodes; the network's node count is used when set. */
    reliability_estimate(&sc, &r);
    ck_assert_rel(r.reliability.cluster_mtbf_h, 500.0 / 2048, 1e-12);
    r.network.nodes = 100;
    reliability_estimate(&sc, &r);
    ck_assert_rel(r.reliability.cluster_mtbf_h, 5, 1e-12);
}
END_TEST

/* The interval reported is Daly's, in minutes; goodput 1 in the limit of
 * reliable hardware and free restarts (the DeepSeek cost setting). */
START_TEST(test_interval_and_ideal)
{
    struct scenario sc;
    struct result r;

    llama3(&sc, &r);
    sc.reliability.node_mtbf_h = 3.0 * 2048; /* M = 3 h */
    r.storage.checkpoint_write_s = 60;
    reliability_estimate(&sc, &r);
    ck_assert_rel(r.reliability.checkpoint_interval_min, 1099.0 / 60, 1e-3);

    llama3(&sc, &r);
    sc.reliability.node_mtbf_h = 1e15;
    sc.reliability.restart_min = 0;
    reliability_estimate(&sc, &r);
    ck_assert_rel(r.reliability.goodput, 1, 1e-6);
    ck_assert_rel(r.reliability.effective_train_days, 54, 1e-6);
}
END_TEST

START_TEST(test_warnings)
{
    struct scenario sc;
    struct result r;

    /* 20 min writes against a 3 h cluster MTBF: Daly's interval is
     * ~70 min, so writing takes over 10% of it. */
    llama3(&sc, &r);
    r.storage.checkpoint_write_s = 1200;
    sc.reliability.node_mtbf_h = 3.0 * 2048;
    reliability_estimate(&sc, &r);
    ck_assert_uint_ge(r.nwarnings, 1);
    ck_assert_ptr_nonnull(strstr(r.warnings[0], "10% of the checkpoint"));

    /* A cluster failing every 20 minutes: goodput ~0.43, most of the run
     * wasted, but it progresses. */
    llama3(&sc, &r);
    sc.reliability.node_mtbf_h = 20.0 / 60 * 2048;
    reliability_estimate(&sc, &r);
    ck_assert(!r.reliability.never);
    ck_assert(r.reliability.goodput > 0.3 && r.reliability.goodput < 0.5);
    ck_assert_ptr_nonnull(strstr(r.warnings[r.nwarnings - 1], "goodput"));

    /* A node failing every hour on 2,048 nodes (a failure every 1.8 s):
     * no progress at all.  The floored goodput keeps the numbers finite;
     * the run never finishes and says so (issue 18 item 9), instead of
     * the 100-fold days it used to report. */
    llama3(&sc, &r);
    sc.reliability.node_mtbf_h = 1;
    reliability_estimate(&sc, &r);
    ck_assert(r.reliability.never);
    ck_assert_rel(r.reliability.goodput, 1 - RELIABILITY_MAX_LOST_FRAC, 1e-12);
    ck_assert_ptr_nonnull(strstr(r.warnings[0], "never finishes"));
}
END_TEST

/* Finite, non-negative, goodput in (0, 1] for absurd inputs. */
START_TEST(test_extremes)
{
    static const uint64_t gpus[] = {1, 8, 16384, 10000000, UINT64_MAX / 4};
    static const double mtbf[] = {0, 1e-300, 1e-3, 1e6, 1e300};
    static const double delta[] = {0, 1e-300, 60, 1e12, 1e300};
    static const double restart[] = {0, 10, 1e300};
    size_t a, b, c, d;

    for (a = 0; a < sizeof(gpus) / sizeof(gpus[0]); a++)
        for (b = 0; b < sizeof(mtbf) / sizeof(mtbf[0]); b++)
            for (c = 0; c < sizeof(delta) / sizeof(delta[0]); c++)
                for (d = 0; d < sizeof(restart) / sizeof(restart[0]); d++) {
                    struct scenario sc;
                    struct result r;
                    const struct reliability_result *x = &r.reliability;

                    llama3(&sc, &r);
                    sc.gpus = gpus[a];
                    sc.reliability.node_mtbf_h = mtbf[b];
                    r.storage.checkpoint_write_s = delta[c];
                    sc.reliability.restart_min = restart[d];
                    r.time.train_days = 1e300;
                    reliability_estimate(&sc, &r);
                    ck_assert_finite_nonneg(x->cluster_mtbf_h);
                    ck_assert_finite_nonneg(x->failures);
                    ck_assert_finite_nonneg(x->checkpoint_interval_min);
                    ck_assert_finite_nonneg(x->lost_frac);
                    ck_assert_finite_nonneg(x->effective_train_days);
                    ck_assert(x->goodput > 0 && x->goodput <= 1);
                }
}
END_TEST

/* A run whose failures outpace progress never finishes (issue 18 item
 * 9): Llama 3 405B's 2,048 nodes, 10-minute restart, 2.835 s write. */
/* clang-format off */
static const struct never_case {
    const char *name;
    double cluster_mtbf_min; /* node MTBF = this x 2,048 nodes */
    bool never;
    const char *source;
} nevers[] = {
    /* M 185.6 min: tau ~ 1,011 s, lost 0.0028 + (506 + 600) / 11,136 =
     * 0.10: the run Llama 3 finished. */
    {"Llama 3 anchor", 2048.0 * 54 * 24 / 419 / 2048 * 60, false,
     "Dubey et al. 2024 section 3.3.4: 419 interruptions in 54 days"},
    /* M 20 min: tau ~ 80 s, lost 2.835 / 80 + (40 + 600) / 1,200 = 0.57. */
    {"slow but progressing", 20, false, "derived: first-order lost fraction"},
    /* M = the restart: (tau / 2 + 600) / 600 > 1 before any write. */
    {"MTBF = restart", 10, true, "derived: restart alone fills the MTBF"},
    /* M 5 min: a restart takes two MTBFs. */
    {"MTBF below restart", 5, true, "issue 18: MTBF shorter than restart"},
};
/* clang-format on */

START_TEST(test_never)
{
    const struct never_case *c = &nevers[_i];
    struct scenario sc;
    struct result r;

    llama3(&sc, &r);
    sc.reliability.node_mtbf_h = c->cluster_mtbf_min / 60 * 2048;
    reliability_estimate(&sc, &r);
    ck_assert_msg(r.reliability.never == c->never, "%s: never %d", c->name,
                  r.reliability.never);
    ck_assert(reliability_never_with(&sc, &r, 0) == c->never);
    if (c->never) {
        ck_assert(strstr(r.reliability.reason, "never finishes"));
        ck_assert_uint_ge(r.nwarnings, 1);
    } else {
        ck_assert_str_eq(r.reliability.reason, "");
    }
}
END_TEST

/* Goodput never rises when failures become more frequent. */
START_TEST(test_monotone_mtbf)
{
    struct scenario sc;
    struct result r;
    double m, prev = 0;
    bool was_finishing = false;

    for (m = 1e-2; m < 1e9; m *= 1.3) {
        llama3(&sc, &r);
        sc.reliability.node_mtbf_h = m;
        reliability_estimate(&sc, &r);
        ck_assert_msg(r.reliability.goodput >= prev - 1e-12,
                      "node mtbf %g h: goodput %g < %g", m,
                      r.reliability.goodput, prev);
        /* a run that finishes keeps finishing with rarer failures */
        ck_assert(!(was_finishing && r.reliability.never));
        was_finishing = was_finishing || !r.reliability.never;
        prev = r.reliability.goodput;
    }
}
END_TEST

Suite *suite_reliability(void); /* listed by the Makefile */

Suite *suite_reliability(void)
{
    Suite *s = suite_create("reliability");
    TCase *core = tcase_create("core");
    TCase *inv = tcase_create("invariants");
    TCase *lim = tcase_create("limits");

    tcase_add_loop_test(core, test_intervals, 0,
                        (int)(sizeof(intervals) / sizeof(intervals[0])));
    tcase_add_loop_test(core, test_lost, 0,
                        (int)(sizeof(losts) / sizeof(losts[0])));
    tcase_add_test(core, test_llama3_failures);
    tcase_add_loop_test(core, test_never, 0,
                        (int)(sizeof(nevers) / sizeof(nevers[0])));
    tcase_add_test(core, test_llama3_wallclock);
    tcase_add_test(core, test_mtbf_precedence);
    tcase_add_test(core, test_interval_and_ideal);
    tcase_add_test(core, test_warnings);
    tcase_add_test(inv, test_monotone_mtbf);
    tcase_add_test(lim, test_extremes);
    suite_add_tcase(s, core);
    suite_add_tcase(s, inv);
    suite_add_tcase(s, lim);
    return s;
}
