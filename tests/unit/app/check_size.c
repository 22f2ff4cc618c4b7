/*
 * check_size.c - `llmplan size`: the frontier against a brute force on a
 * small catalog (every grid count searched in full by plan_evaluate, every
 * offer priced, the Pareto set by pairwise comparison): no dominated point
 * shown, no non-dominated point lost; constraints nothing meets.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "check_helpers.h"
#include "plan/resolve.h"
#include "plan/size.h"
#include "plan/stack_errors.h"

Suite *suite_size(void);

static struct catalog *cat;
static struct plan plan;
static struct size_result *res;

static void setup(void)
{
    struct diag d;

    ck_assert_msg(catalog_open(":memory:", 0, &cat, &d) == CP_OK, "%s: %s",
                  d.where, d.msg);
    res = calloc(1, sizeof(*res));
    ck_assert_ptr_nonnull(res);
    plan_init(&plan, NULL);
}

static void teardown(void)
{
    catalog_close(cat);
    free(res);
}

static void set(struct plan *p, const char *assignment)
{
    struct diag d;

    ck_assert_msg(plan_set_assignment(p, assignment, &d) == CP_OK, "%s: %s: %s",
                  assignment, d.where, d.msg);
}

/* ---- the brute force ----------------------------------------------------- */

#define BRUTE_MAX 2048

struct opt {
    char system[CP_ID_MAX];
    uint64_t gpus;
    bool rented;
    char offer[CP_ID_MAX];
    int term;
    double days, usd, mwh;
    bool ok;
};

struct offers {
    const char *accel;
    size_t n;
    char id[64][CP_ID_MAX];
    int term[64];
};

static enum cp_status on_cloud(void *ctx, const char *const *v, size_t n)
{
    struct offers *o = ctx;
    size_t nc, i, c_id = 0, c_term = 0, c_acc = 0;
    const struct catalog_column *c = catalog_columns(CATALOG_CLOUD, &nc);
    int t;

    for (i = 0; i < nc && i < n; i++) {
        if (strcmp(c[i].name, "id") == 0)
            c_id = i;
        if (strcmp(c[i].name, "term") == 0)
            c_term = i;
        if (strcmp(c[i].name, "accel_id") == 0)
            c_acc = i;
    }
    if (strcmp(v[c_acc], o->accel) != 0 || o->n >= 64)
        return CP_OK;
    for (t = 0; t < TERM_COUNT; t++)
        if (strcmp(term_name((enum cloud_term)t), v[c_term]) == 0)
            break;
    snprintf(o->id[o->n], CP_ID_MAX, "%s", v[c_id]);
    o->term[o->n++] = t;
    return CP_OK;
}

static bool dominates(const struct opt *a, const struct opt *b)
{
    return a->days <= b->days && a->usd <= b->usd && a->mwh <= b->mwh &&
           (a->days < b->days || a->usd < b->usd || a->mwh < b->mwh);
}

/* Every option of system sys (built from accel) at every grid count up to
 * gmax: a full layout search per count, every priced offer. */
static size_t brute(const char *accel, const char *sys, uint64_t unit,
                    uint64_t gmax, double deadline, struct opt *out, size_t n)
{
    struct plan_outcome *oc = calloc(1, sizeof(*oc));
    struct result *r = calloc(1, sizeof(*r));
    struct offers of;
    struct diag d;
    uint64_t k, g, cand[2];
    size_t i, j;
    char buf[64];

    ck_assert_ptr_nonnull(oc);
    ck_assert_ptr_nonnull(r);
    memset(&of, 0, sizeof(of));
    of.accel = accel;
    ck_assert(catalog_foreach(cat, CATALOG_CLOUD, NULL, on_cloud, &of, &d) ==
              CP_OK);
    for (k = 1; unit * k <= gmax; k *= 2) {
        cand[0] = unit * k;
        cand[1] = k >= 2 ? unit * (k / 2 * 3) : 0;
        for (j = 0; j < 2; j++) {
            struct plan p = plan;
            struct scenario sc;

            g = cand[j];
            if (!g || g > gmax)
                continue;
            snprintf(buf, sizeof(buf), "hardware.accelerator=%s", accel);
            set(&p, buf);
            snprintf(buf, sizeof(buf), "hardware.system=%s", sys);
            set(&p, buf);
            snprintf(buf, sizeof(buf), "hardware.gpus=%llu",
                     (unsigned long long)g);
            set(&p, buf);
            if (plan_evaluate(&p, cat, OBJECTIVE_TIME, oc, &d) != CP_OK)
                continue;
            sc = oc->res.sc;
            /* owned */
            ck_assert(n < BRUTE_MAX);
            memset(&out[n], 0, sizeof(out[n]));
            snprintf(out[n].system, CP_ID_MAX, "%s", sys);
            out[n].gpus = g;
            out[n].days = oc->result.reliability.effective_train_days;
            out[n].usd = oc->result.cost.build.run_usd;
            out[n].mwh = oc->result.energy.facility_mwh;
            out[n].ok = oc->result.memory.fits &&
                        !(deadline > 0 && out[n].days > deadline);
            n++;
            for (i = 0; i < of.n; i++) {
                struct cloud_offer co;

                ck_assert(catalog_get_cloud(cat, of.id[i],
                                            (enum cloud_term)of.term[i], &co,
                                            NULL, &d) == CP_OK);
                if (!(co.usd_per_gpu_hour[of.term[i]] > 0))
                    continue;
                sc.cloud = co;
                sc.cloud_term = (enum cloud_term)of.term[i];
                sc.cloud_usd_per_gpu_hour = co.usd_per_gpu_hour[of.term[i]];
                scenario_eval(&sc, r);
                ck_assert(n < BRUTE_MAX);
                memset(&out[n], 0, sizeof(out[n]));
                snprintf(out[n].system, CP_ID_MAX, "%s", sys);
                snprintf(out[n].offer, CP_ID_MAX, "%s", of.id[i]);
                out[n].gpus = g;
                out[n].rented = true;
                out[n].term = of.term[i];
                out[n].days = r->time.train_days / r->cost.cloud.goodput;
                out[n].usd = r->cost.cloud.run_usd;
                out[n].mwh = r->energy.facility_mwh;
                out[n].ok = r->memory.fits &&
                            !(deadline > 0 && out[n].days > deadline) &&
                            !(co.capacity_gpus > 0 &&
                              r->cost.cloud.billed_gpus > co.capacity_gpus);
                n++;
            }
        }
    }
    free(r);
    free(oc);
    return n;
}

static bool same(const struct opt *o, const struct size_point *p)
{
    return strcmp(o->system, p->system) == 0 && o->gpus == p->gpus &&
           o->rented == p->rented &&
           (!o->rented ||
            (strcmp(o->offer, p->offer) == 0 && o->term == (int)p->term));
}

/* The frontier of size_run equals the brute force's Pareto set. */
static void check_frontier(double deadline)
{
    struct opt *bf = calloc(BRUTE_MAX, sizeof(*bf));
    struct size_opts o;
    struct diag d;
    size_t n = 0, i, j, nbf = 0;

    ck_assert_ptr_nonnull(bf);
    set(&plan, "model.preset=llama3-8b");
    set(&plan, "train.tokens=300G");
    memset(&o, 0, sizeof(o));
    o.obj = OBJECTIVE_COST;
    o.deadline_days = deadline;
    o.gpus_max = 512;
    o.no_refine = true; /* the brute force walks the grid only */
    o.nids = 2;
    snprintf(o.ids[0], CP_ID_MAX, "h100-sxm");
    snprintf(o.ids[1], CP_ID_MAX, "gb200");
    ck_assert_msg(size_run(&plan, cat, &o, res, &d) == CP_OK, "%s: %s", d.where,
                  d.msg);
    n = brute("h100-sxm", "dgx-h100", 8, 512, deadline, bf, n);
    n = brute("gb200", "gb200-nvl72", 72, 512, deadline, bf, n);
    ck_assert_uint_gt(n, 20);
    /* no point shown is dominated by any option the brute force found */
    for (i = 0; i < res->nfront; i++) {
        const struct size_point *p = &res->pt[res->front[i]];
        struct opt me;

        memset(&me, 0, sizeof(me));
        me.days = p->days;
        me.usd = p->usd;
        me.mwh = p->mwh;
        for (j = 0; j < n; j++)
            ck_assert_msg(!(bf[j].ok && dominates(&bf[j], &me)),
                          "%s x %llu %s is dominated by %s x %llu %s",
                          p->system, (unsigned long long)p->gpus, p->offer,
                          bf[j].system, (unsigned long long)bf[j].gpus,
                          bf[j].offer);
    }
    /* every non-dominated option is shown, with the same figures */
    for (i = 0; i < n; i++) {
        bool dom = false;

        if (!bf[i].ok)
            continue;
        for (j = 0; j < n && !dom; j++)
            dom = bf[j].ok && dominates(&bf[j], &bf[i]);
        if (dom)
            continue;
        nbf++;
        for (j = 0; j < res->nfront; j++)
            if (same(&bf[i], &res->pt[res->front[j]]))
                break;
        ck_assert_msg(j < res->nfront, "lost %s x %llu %s %d", bf[i].system,
                      (unsigned long long)bf[i].gpus, bf[i].offer, bf[i].term);
        ck_assert_rel(res->pt[res->front[j]].days, bf[i].days, 1e-9);
        ck_assert_rel(res->pt[res->front[j]].usd, bf[i].usd, 1e-9);
        ck_assert_rel(res->pt[res->front[j]].mwh, bf[i].mwh, 1e-9);
    }
    ck_assert_uint_gt(nbf, 1);
    ck_assert_uint_eq(nbf, res->nfront);
    /* best by the objective first */
    for (i = 1; i < res->nfront; i++)
        ck_assert(res->pt[res->front[i - 1]].usd <= res->pt[res->front[i]].usd);
    free(bf);
}

START_TEST(test_frontier_brute)
{
    check_frontier(0);
}
END_TEST

/* A deadline: the ideal-time bound skips counts; nothing is lost. */
START_TEST(test_frontier_brute_deadline)
{
    check_frontier(5);
    ck_assert_uint_gt(res->skipped, 0);
    ck_assert_uint_gt(res->why_count[SIZE_TOO_SLOW], 0);
}
END_TEST

START_TEST(test_nothing_meets)
{
    struct size_opts o;
    struct diag d;
    const struct size_point *p;

    set(&plan, "model.preset=llama3-70b");
    set(&plan, "train.tokens=15T");
    memset(&o, 0, sizeof(o));
    o.obj = OBJECTIVE_COST;
    o.deadline_days = 60;
    o.budget_usd = 1e5; /* nothing trains 70B on 15T for $100K */
    o.gpus_max = 16384;
    o.nids = 1;
    snprintf(o.ids[0], CP_ID_MAX, "h100-sxm");
    ck_assert(size_run(&plan, cat, &o, res, &d) == CP_OK);
    ck_assert_uint_eq(res->nfront, 0);
    ck_assert_int_ge(res->nearest, 0);
    p = &res->pt[res->nearest];
    ck_assert(p->why == SIZE_OVER_BUDGET || p->why == SIZE_TOO_SLOW);
    ck_assert_uint_gt(res->why_count[SIZE_OVER_BUDGET], 0);
}
END_TEST

START_TEST(test_ranges_and_errors)
{
    struct size_opts o;
    struct diag d;
    size_t i;

    /* generated by make validate from the leave-one-source-out run */
    ck_assert(size_stack_error("megatron-core") > 0.01);
    ck_assert(size_stack_error("megatron-core") < 1);
    ck_assert_rel(size_stack_error("no-such-stack"), SIZE_OVERALL_ERROR, 1e-12);
    set(&plan, "model.preset=llama3-8b");
    memset(&o, 0, sizeof(o));
    /* no tokens: a usage error naming the key */
    ck_assert(size_run(&plan, cat, &o, res, &d) == CP_ERR_USAGE);
    ck_assert_str_eq(d.where, "train.tokens");
    set(&plan, "train.tokens=100G");
    o.nids = 1;
    snprintf(o.ids[0], CP_ID_MAX, "no-such-accel");
    ck_assert(size_run(&plan, cat, &o, res, &d) == CP_ERR_NOT_FOUND);
    snprintf(o.ids[0], CP_ID_MAX, "mi300x");
    o.gpus_max = 64;
    ck_assert(size_run(&plan, cat, &o, res, &d) == CP_OK);
    ck_assert_uint_gt(res->nfront, 0);
    for (i = 0; i < res->n; i++) {
        const struct size_point *p = &res->pt[i];

        ck_assert(p->days_lo <= p->days && p->days <= p->days_hi);
        ck_assert(p->usd_lo <= p->usd && p->usd <= p->usd_hi);
        ck_assert_finite_nonneg(p->days_lo);
        ck_assert(p->mfu > 0 && p->mfu <= 1);
        ck_assert_uint_eq(p->gpus % 8, 0);
    }
}
END_TEST

Suite *suite_size(void)
{
    Suite *s = suite_create("size");
    TCase *tc = tcase_create("size");

    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_frontier_brute);
    tcase_add_test(tc, test_frontier_brute_deadline);
    tcase_add_test(tc, test_nothing_meets);
    tcase_add_test(tc, test_ranges_and_errors);
    suite_add_tcase(s, tc);
    return s;
}
