/*
 * check_size.c - `llmplan size`: the frontier against a brute force on a
 * small catalog (every grid count searched in full by plan_evaluate, every
 * offer priced, the Pareto set by pairwise comparison): no dominated point
 * shown, no non-dominated point lost; constraints nothing meets.
 */
#include <check.h>
#include <math.h>
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
    size_result_release(res);
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
    double days, usd, mwh, cash;
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

/* Four axes: time, run cost, energy and the cash committed. */
static bool dominates(const struct opt *a, const struct opt *b)
{
    return a->days <= b->days && a->usd <= b->usd && a->mwh <= b->mwh &&
           a->cash <= b->cash &&
           (a->days < b->days || a->usd < b->usd || a->mwh < b->mwh ||
            a->cash < b->cash);
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
            out[n].cash = oc->result.cost.build.cash_usd;
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
                out[n].cash = r->cost.cloud.cash_usd;
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
        me.cash = p->cash;
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
        ck_assert_rel(res->pt[res->front[j]].cash, bf[i].cash, 1e-9);
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

/* ---- serving: the brute force ------------------------------------------- */

#define SBRUTE_MAX 8192

struct sopt {
    char system[CP_ID_MAX];
    uint64_t tp, pp, cap, gpus, owned;
    int buy; /* 0 own, 1 rent, 2 hybrid */
    char offer[CP_ID_MAX];
    int term;
    double e2e, usd, wh, ttft, tpot, cash;
    bool ok;
};

static bool sdominates(const struct sopt *a, const struct sopt *b)
{
    return a->e2e <= b->e2e && a->usd <= b->usd && a->wh <= b->wh &&
           a->cash <= b->cash &&
           (a->e2e < b->e2e || a->usd < b->usd || a->wh < b->wh ||
            a->cash < b->cash);
}

static struct sopt *snew(struct sopt *out, size_t *n, const char *sys,
                         uint64_t tp, uint64_t pp, uint64_t cap,
                         const struct result *r)
{
    struct sopt *o;

    ck_assert(*n < SBRUTE_MAX);
    o = &out[(*n)++];
    memset(o, 0, sizeof(*o));
    snprintf(o->system, CP_ID_MAX, "%s", sys);
    o->tp = tp;
    o->pp = pp;
    o->cap = cap;
    o->gpus = (uint64_t)(r->serve.gpus + 0.5);
    o->e2e = r->serve.e2e_s;
    o->wh = r->serve.wh_per_mtok;
    o->ttft = r->serve.ttft_ms;
    o->tpot = r->serve.tpot_ms;
    o->ok = o->gpus <= SIZE_DEFAULT_GPUS_MAX;
    return o;
}

/* Every serving replica of system sys (tp over the divisors of the heads
 * within the node, pp only at full tp, the engine's batch cap auto or a
 * binding power of two: the serving search's candidates), each sized for
 * the peak by plan_evaluate, priced owned, on every offer and term, and
 * hybrid (on-demand and spot, an owned base for the average load). */
static size_t sbrute(const char *accel, const char *sys, uint64_t domain,
                     struct sopt *out, size_t n)
{
    static const uint64_t tps[] = {1, 2, 4, 8};
    struct plan_outcome *oc = calloc(1, sizeof(*oc));
    struct result *r = calloc(1, sizeof(*r));
    struct offers of;
    struct diag d;
    size_t it, i;
    uint64_t pp, cap;
    char buf[80];

    ck_assert_ptr_nonnull(oc);
    ck_assert_ptr_nonnull(r);
    memset(&of, 0, sizeof(of));
    of.accel = accel;
    ck_assert(catalog_foreach(cat, CATALOG_CLOUD, NULL, on_cloud, &of, &d) ==
              CP_OK);
    for (it = 0; it < 4; it++) {
        for (pp = 1; pp <= 8; pp *= 2) {
            if (pp > 1 && tps[it] < domain)
                continue;
            for (cap = 0; cap <= 1024; cap = cap ? cap * 2 : 1) {
                struct plan p = plan;
                struct scenario sc;
                double ratio, need;
                uint64_t gpr = tps[it] * pp, owned, gpus;
                bool own;
                struct sopt *o;

                snprintf(buf, sizeof(buf), "hardware.accelerator=%s", accel);
                set(&p, buf);
                snprintf(buf, sizeof(buf), "hardware.system=%s", sys);
                set(&p, buf);
                set(&p, "hardware.gpus=auto");
                snprintf(buf, sizeof(buf), "parallel.tp=%llu",
                         (unsigned long long)tps[it]);
                set(&p, buf);
                snprintf(buf, sizeof(buf), "parallel.pp=%llu",
                         (unsigned long long)pp);
                set(&p, buf);
                if (cap) {
                    snprintf(buf, sizeof(buf), "serve.max_batch=%llu",
                             (unsigned long long)cap);
                    set(&p, buf);
                }
                if (plan_evaluate(&p, cat, OBJECTIVE_COST, oc, &d) != CP_OK ||
                    !oc->result.serve.fits)
                    continue;
                /* a cap that does not bind is the auto replica again */
                if (cap && (oc->result.serve.max_batch < (double)cap ||
                            oc->result.serve.batch < (double)cap - 0.5))
                    continue;
                sc = oc->res.sc;
                own = sc.system.node_price_usd > 0 &&
                      !(oc->result.cost.unpriced & COST_UNPRICED_BUILD);
                if (own) {
                    o = snew(out, &n, sys, tps[it], pp, cap, &oc->result);
                    o->usd = oc->result.serve.usd_per_day_build;
                    o->cash = oc->result.serve.cash_usd_build;
                }
                ratio = sc.serve.peak_to_avg > 1 ? sc.serve.peak_to_avg : 1;
                for (i = 0; i < of.n; i++) {
                    struct cloud_offer co;
                    enum cloud_term t = (enum cloud_term)of.term[i];

                    ck_assert(catalog_get_cloud(cat, of.id[i], t, &co, NULL,
                                                &d) == CP_OK);
                    if (!(co.usd_per_gpu_hour[t] > 0))
                        continue;
                    sc.cloud = co;
                    sc.cloud_term = t;
                    sc.cloud_usd_per_gpu_hour = co.usd_per_gpu_hour[t];
                    sc.serve.owned_gpus = 0;
                    scenario_eval(&sc, r);
                    o = snew(out, &n, sys, tps[it], pp, cap, r);
                    o->buy = 1;
                    snprintf(o->offer, CP_ID_MAX, "%s", of.id[i]);
                    o->term = of.term[i];
                    o->usd = r->serve.usd_per_day_cloud;
                    o->cash = r->serve.cash_usd_cloud;
                    gpus = o->gpus;
                    if (co.capacity_gpus > 0 &&
                        r->serve.instances * (double)co.gpus_per_instance >
                            (double)co.capacity_gpus)
                        o->ok = false;
                    if (!(t == TERM_ON_DEMAND || t == TERM_SPOT) ||
                        !(ratio > 1) || !(sc.system.node_price_usd > 0))
                        continue;
                    need = r->serve.gpus * r->serve.utilization / ratio;
                    owned = (uint64_t)ceil(need / (double)gpr - 1e-9) * gpr;
                    if (owned < gpr)
                        owned = gpr;
                    owned = (owned + 7) / 8 * 8; /* whole 8-GPU servers */
                    if (owned >= gpus)
                        continue;
                    sc.serve.owned_gpus = owned;
                    scenario_eval(&sc, r);
                    sc.serve.owned_gpus = 0;
                    if (r->cost.unpriced & COST_UNPRICED_BUILD)
                        continue;
                    o = snew(out, &n, sys, tps[it], pp, cap, r);
                    o->buy = 2;
                    o->owned = owned;
                    snprintf(o->offer, CP_ID_MAX, "%s", of.id[i]);
                    o->term = of.term[i];
                    o->usd = r->serve.usd_per_day_hybrid;
                    o->cash = r->serve.cash_usd_hybrid;
                    if (co.capacity_gpus > 0 && gpus - owned > co.capacity_gpus)
                        o->ok = false;
                }
            }
        }
    }
    free(r);
    free(oc);
    return n;
}

static void serving_plan(void)
{
    set(&plan, "model.preset=llama3-8b");
    set(&plan, "workload.kind=serve");
    set(&plan, "serve.tokens_per_day=3e9");
    set(&plan, "serve.peak_to_avg=2");
    set(&plan, "serve.ttft_ms=1000");
    set(&plan, "serve.tpot_ms=40");
}

/* Wide-EP disaggregated pools (issue 22 item 2): on a DeepSeek-V3 plan
 * with serve.disaggregated=auto the cheapest fleet is a pair of pools of
 * whole nodes that meets the targets, and each pool point is what its plan
 * says: the fleet quoted back has the same GPUs, cost and latency. */
START_TEST(test_serve_pools_round_trip)
{
    struct size_opts o;
    struct diag d;
    size_t i, pools = 0;

    set(&plan, "model.preset=deepseek-v3");
    set(&plan, "workload.kind=serve");
    set(&plan, "software.stack=sglang");
    set(&plan, "serve.weights=fp8");
    set(&plan, "serve.input_tokens=2000");
    set(&plan, "serve.output_tokens=500");
    set(&plan, "serve.requests_per_s=200");
    set(&plan, "serve.ttft_ms=3000");
    set(&plan, "serve.tpot_ms=50");
    set(&plan, "serve.disaggregated=auto");
    memset(&o, 0, sizeof(o));
    o.obj = OBJECTIVE_COST;
    o.nids = 1;
    snprintf(o.ids[0], CP_ID_MAX, "dgx-h100");
    ck_assert_msg(size_run(&plan, cat, &o, res, &d) == CP_OK, "%s: %s", d.where,
                  d.msg);
    ck_assert_uint_gt(res->nfront, 0);
    ck_assert_uint_gt(res->pt[res->front[0]].prefill.ep, 0);
    for (i = 0; i < res->nfront; i++) {
        const struct size_point *p = &res->pt[res->front[i]];
        struct plan *q;
        struct plan_outcome *oc;
        double usd;

        if (!p->prefill.ep)
            continue;
        pools++;
        ck_assert_uint_eq(p->prefill.gpus + p->decode.gpus, p->fleet_gpus);
        ck_assert_uint_eq(p->prefill.gpus % 8, 0);
        ck_assert_uint_eq(p->decode.gpus % 8, 0);
        ck_assert(p->ttft_ms <= 3000 * (1 + 1e-9));
        ck_assert(p->tpot_ms <= 50 * (1 + 1e-9));
        q = calloc(1, sizeof(*q));
        oc = calloc(1, sizeof(*oc));
        ck_assert(size_point_plan(&plan, p, q, &d) == CP_OK);
        ck_assert_msg(plan_evaluate(q, cat, OBJECTIVE_COST, oc, &d) == CP_OK,
                      "%s: %s", d.where, d.msg);
        usd = p->hybrid   ? oc->result.serve.usd_per_day_hybrid
              : p->rented ? oc->result.serve.usd_per_day_cloud
                          : oc->result.serve.usd_per_day_build;
        ck_assert_rel(oc->result.serve.gpus, (double)p->fleet_gpus, 1e-12);
        ck_assert_rel(oc->result.serve.prefill_gpus, (double)p->prefill.gpus,
                      1e-12);
        ck_assert_rel(usd, p->usd_day, 1e-9);
        ck_assert_rel(oc->result.serve.e2e_s, p->e2e_s, 1e-9);
        free(oc);
        free(q);
    }
    ck_assert_uint_gt(pools, 0);
}
END_TEST

/* The serving frontier of size_run equals the brute force's Pareto set
 * (latency, cost a day, energy per token), and every point on it meets
 * the targets. */
START_TEST(test_serve_frontier_brute)
{
    struct sopt *bf = calloc(SBRUTE_MAX, sizeof(*bf));
    struct size_opts o;
    struct diag d;
    size_t n = 0, i, j, nbf = 0, hybrids = 0;

    ck_assert_ptr_nonnull(bf);
    serving_plan();
    memset(&o, 0, sizeof(o));
    o.obj = OBJECTIVE_COST;
    o.nids = 2;
    snprintf(o.ids[0], CP_ID_MAX, "dgx-h100");
    snprintf(o.ids[1], CP_ID_MAX, "dgx-a100");
    ck_assert_msg(size_run(&plan, cat, &o, res, &d) == CP_OK, "%s: %s", d.where,
                  d.msg);
    ck_assert(res->serve);
    n = sbrute("h100-sxm", "dgx-h100", 8, bf, n);
    n = sbrute("a100-80gb", "dgx-a100", 8, bf, n);
    ck_assert_uint_gt(n, 50);
    for (i = 0; i < res->nfront; i++) {
        const struct size_point *p = &res->pt[res->front[i]];
        struct sopt me;

        /* the targets at the peak */
        ck_assert_msg(
            p->ttft_ms <= 1000 * (1 + 1e-9) && p->tpot_ms <= 40 * (1 + 1e-9),
            "%s: TTFT %g, TPOT %g", p->system, p->ttft_ms, p->tpot_ms);
        ck_assert(p->why == SIZE_OK);
        hybrids += p->hybrid;
        memset(&me, 0, sizeof(me));
        me.e2e = p->e2e_s;
        me.usd = p->usd_day;
        me.wh = p->wh_mtok;
        me.cash = p->cash;
        for (j = 0; j < n; j++)
            ck_assert_msg(!(bf[j].ok && sdominates(&bf[j], &me)),
                          "%s x %llu %s dominated by %s tp%llu cap %llu %s",
                          p->system, (unsigned long long)p->gpus, p->offer,
                          bf[j].system, (unsigned long long)bf[j].tp,
                          (unsigned long long)bf[j].cap, bf[j].offer);
        /* the point is what its plan says: the fleet quoted back */
        {
            struct plan *q = calloc(1, sizeof(*q));
            struct plan_outcome *oc = calloc(1, sizeof(*oc));
            double usd;

            ck_assert(size_point_plan(&plan, p, q, &d) == CP_OK);
            ck_assert_msg(plan_evaluate(q, cat, OBJECTIVE_COST, oc, &d) ==
                              CP_OK,
                          "%s: %s", d.where, d.msg);
            usd = p->hybrid   ? oc->result.serve.usd_per_day_hybrid
                  : p->rented ? oc->result.serve.usd_per_day_cloud
                              : oc->result.serve.usd_per_day_build;
            ck_assert_rel(oc->result.serve.gpus, (double)p->fleet_gpus,
                          1e-12);
            /* what is bought: whole units or instances, never fewer
             * than the fleet */
            if (!p->hybrid)
                ck_assert_uint_eq(p->gpus, p->units * p->unit_gpus);
            ck_assert_uint_ge(p->gpus, p->fleet_gpus);
            ck_assert_rel(usd, p->usd_day, 1e-9);
            ck_assert_rel(p->hybrid   ? oc->result.serve.cash_usd_hybrid
                          : p->rented ? oc->result.serve.cash_usd_cloud
                                      : oc->result.serve.cash_usd_build,
                          p->cash, 1e-9);
            ck_assert_rel(oc->result.serve.e2e_s, p->e2e_s, 1e-9);
            free(oc);
            free(q);
        }
    }
    /* every non-dominated option is shown, with the same figures */
    for (i = 0; i < n; i++) {
        bool dom = false;

        if (!bf[i].ok)
            continue;
        for (j = 0; j < n && !dom; j++)
            dom = bf[j].ok && sdominates(&bf[j], &bf[i]);
        if (dom)
            continue;
        /* the same fleet bought the same way with the same figures (a
         * cap binding exactly where the engine's limit does) counts once */
        for (j = 0; j < i && !dom; j++)
            dom = bf[j].ok && bf[j].e2e == bf[i].e2e &&
                  bf[j].usd == bf[i].usd && bf[j].wh == bf[i].wh &&
                  bf[j].cash == bf[i].cash &&
                  strcmp(bf[j].system, bf[i].system) == 0 &&
                  bf[j].gpus == bf[i].gpus && bf[j].buy == bf[i].buy &&
                  bf[j].owned == bf[i].owned && bf[j].term == bf[i].term &&
                  strcmp(bf[j].offer, bf[i].offer) == 0;
        if (dom)
            continue;
        nbf++;
        for (j = 0; j < res->nfront; j++) {
            const struct size_point *p = &res->pt[res->front[j]];

            if (p->e2e_s == bf[i].e2e && p->usd_day == bf[i].usd &&
                p->wh_mtok == bf[i].wh && p->cash == bf[i].cash)
                break;
        }
        ck_assert_msg(j < res->nfront, "lost %s tp%llu pp%llu cap %llu %d %s",
                      bf[i].system, (unsigned long long)bf[i].tp,
                      (unsigned long long)bf[i].pp,
                      (unsigned long long)bf[i].cap, bf[i].buy, bf[i].offer);
    }
    ck_assert_uint_gt(nbf, 2);
    ck_assert_uint_eq(nbf, res->nfront);
    ck_assert_uint_gt(hybrids, 0);
    /* best by the objective first; ranges hold the figures */
    for (i = 1; i < res->nfront; i++)
        ck_assert(res->pt[res->front[i - 1]].usd_day <=
                  res->pt[res->front[i]].usd_day);
    for (i = 0; i < res->n; i++) {
        const struct size_point *p = &res->pt[i];

        ck_assert(p->usd_day_lo <= p->usd_day && p->usd_day <= p->usd_day_hi);
        ck_assert(p->wh_mtok_lo <= p->wh_mtok && p->wh_mtok <= p->wh_mtok_hi);
        ck_assert_rel(p->err, size_serve_error(p->stack), 1e-12);
    }
    free(bf);
}
END_TEST

/* Constraints nothing meets are an answer naming the closest option and
 * the constraint it breaks; a deadline is refused for serving. */
START_TEST(test_serve_nothing_meets)
{
    struct size_opts o;
    struct diag d;
    const struct size_point *p;

    serving_plan();
    memset(&o, 0, sizeof(o));
    o.obj = OBJECTIVE_COST;
    o.nids = 1;
    snprintf(o.ids[0], CP_ID_MAX, "dgx-h100");
    o.budget_usd = 1; /* a dollar a day */
    ck_assert(size_run(&plan, cat, &o, res, &d) == CP_OK);
    ck_assert_uint_eq(res->nfront, 0);
    ck_assert_int_ge(res->nearest, 0);
    p = &res->pt[res->nearest];
    ck_assert_int_eq(p->why, SIZE_OVER_BUDGET);
    ck_assert(p->usd_day > 1);
    /* the cheapest option is the closest to a budget */
    ck_assert_int_eq(res->closest[SIZE_OVER_BUDGET], res->nearest);
    /* too few GPUs allowed: the smallest fleet is named */
    o.budget_usd = 0;
    o.gpus_max = 1;
    set(&plan, "serve.tokens_per_day=3e10");
    ck_assert(size_run(&plan, cat, &o, res, &d) == CP_OK);
    ck_assert_uint_eq(res->nfront, 0);
    ck_assert_int_eq(res->pt[res->nearest].why, SIZE_OVER_GPUS);
    /* a first token faster than any prefill */
    o.gpus_max = 0;
    set(&plan, "serve.ttft_ms=0.5");
    ck_assert(size_run(&plan, cat, &o, res, &d) == CP_OK);
    ck_assert_uint_eq(res->nfront, 0);
    ck_assert_int_eq(res->pt[res->nearest].why, SIZE_MISSES_TTFT);
    ck_assert(res->pt[res->nearest].ttft_ms > 0.5);
    /* a deadline: a usage error naming it */
    o.deadline_days = 30;
    ck_assert(size_run(&plan, cat, &o, res, &d) == CP_ERR_USAGE);
    ck_assert_str_eq(d.where, "--deadline");
    /* no demand: a usage error naming the key */
    plan_init(&plan, NULL);
    set(&plan, "model.preset=llama3-8b");
    set(&plan, "workload.kind=serve");
    o.deadline_days = 0;
    ck_assert(size_run(&plan, cat, &o, res, &d) != CP_OK);
    ck_assert_str_eq(d.where, "serve.tokens_per_day");
}
END_TEST

/* ---- issue 18: what can be bought, whole units, cash, every row -------- */

/* Import CSV text into the test catalog. */
static void import(enum catalog_kind k, const char *csv)
{
    struct diag d;

    ck_assert_msg(
        catalog_import_buffer(cat, k, "t.csv", csv, strlen(csv), &d) == CP_OK,
        "%s: %s", d.where, d.msg);
}

/* A rent-only system (TPU pods) is never offered owned, and the quote of
 * it has no build side: no capex, no cash, verdict cloud. */
START_TEST(test_only_what_is_sold)
{
    struct size_opts o;
    struct diag d;
    struct system_spec sy;
    size_t i, rented = 0;

    ck_assert(catalog_get_system(cat, "tpu-v5p-pod", &sy, NULL, &d) == CP_OK);
    ck_assert_int_eq(sy.sale, SALE_RENT);
    ck_assert(catalog_get_system(cat, "trn2-16", &sy, NULL, &d) == CP_OK);
    ck_assert_int_eq(sy.sale, SALE_RENT);
    ck_assert(catalog_get_system(cat, "gb200-nvl72", &sy, NULL, &d) == CP_OK);
    ck_assert_int_eq(sy.sale, SALE_BOTH);
    ck_assert_uint_eq(sy.unit_gpus, 72);
    set(&plan, "model.preset=llama3-70b");
    set(&plan, "train.tokens=15T");
    memset(&o, 0, sizeof(o));
    o.obj = OBJECTIVE_COST;
    o.deadline_days = 60;
    o.nids = 4;
    snprintf(o.ids[0], CP_ID_MAX, "tpu-v5p");
    snprintf(o.ids[1], CP_ID_MAX, "tpu-v6e");
    snprintf(o.ids[2], CP_ID_MAX, "trainium2");
    snprintf(o.ids[3], CP_ID_MAX, "gb200");
    ck_assert_msg(size_run(&plan, cat, &o, res, &d) == CP_OK, "%s: %s", d.where,
                  d.msg);
    ck_assert_uint_gt(res->nfront, 0);
    for (i = 0; i < res->n; i++) {
        const struct size_point *p = &res->pt[i];

        if (strncmp(p->accel, "tpu-", 4) == 0 ||
            strcmp(p->accel, "trainium2") == 0) {
            ck_assert_msg(p->rented, "%s x %llu owned", p->system,
                          (unsigned long long)p->gpus);
            rented++;
        }
        /* whole units: servers, racks, instances */
        ck_assert_uint_gt(p->units, 0);
        ck_assert_uint_ge(p->units * p->unit_gpus, p->gpus);
        ck_assert_uint_lt((p->units - 1) * p->unit_gpus, p->gpus);
        if (!p->rented && strcmp(p->system, "gb200-nvl72") == 0)
            ck_assert_uint_eq(p->unit_gpus, 72);
    }
    ck_assert_uint_gt(rented, 0);
}
END_TEST

/* --budget bounds the cash committed, --budget-run the run cost; the
 * objective cash ranks by cash. */
START_TEST(test_budget_is_cash)
{
    struct size_opts o;
    struct diag d;
    size_t i, owned = 0;

    set(&plan, "model.preset=llama3-70b");
    set(&plan, "train.tokens=15T");
    memset(&o, 0, sizeof(o));
    o.obj = OBJECTIVE_COST;
    o.deadline_days = 60;
    o.budget_usd = 20e6;
    ck_assert(size_run(&plan, cat, &o, res, &d) == CP_OK);
    ck_assert_uint_gt(res->nfront, 0);
    for (i = 0; i < res->nfront; i++)
        ck_assert_double_le(res->pt[res->front[i]].cash, 20e6);
    /* owning a fleet that meets 60 days commits far more than $20M */
    for (i = 0; i < res->n; i++)
        if (!res->pt[i].rented && res->pt[i].why == SIZE_OVER_BUDGET)
            owned++;
    ck_assert_uint_gt(owned, 0);
    o.budget_usd = 0;
    o.budget_run_usd = 8e6;
    o.obj = OBJECTIVE_CASH;
    ck_assert(size_run(&plan, cat, &o, res, &d) == CP_OK);
    ck_assert_uint_gt(res->nfront, 1);
    for (i = 0; i < res->nfront; i++) {
        ck_assert_double_le(res->pt[res->front[i]].usd, 8e6);
        if (i)
            ck_assert_double_le(res->pt[res->front[i - 1]].cash,
                                res->pt[res->front[i]].cash);
    }
}
END_TEST

/* Every frontier point quoted back (size_point_plan, plan_evaluate) gives
 * the same cash committed and run cost. */
START_TEST(test_round_trip_cash)
{
    struct size_opts o;
    struct diag d;
    struct plan *q = calloc(1, sizeof(*q));
    struct plan_outcome *oc = calloc(1, sizeof(*oc));
    size_t i, rented = 0, owned = 0;

    ck_assert_ptr_nonnull(q);
    ck_assert_ptr_nonnull(oc);
    set(&plan, "model.preset=llama3-8b");
    set(&plan, "train.tokens=300G");
    memset(&o, 0, sizeof(o));
    o.obj = OBJECTIVE_COST;
    o.gpus_max = 512;
    o.nids = 2;
    snprintf(o.ids[0], CP_ID_MAX, "h100-sxm");
    snprintf(o.ids[1], CP_ID_MAX, "gb200");
    ck_assert(size_run(&plan, cat, &o, res, &d) == CP_OK);
    ck_assert_uint_gt(res->nfront, 1);
    for (i = 0; i < res->nfront; i++) {
        const struct size_point *p = &res->pt[res->front[i]];
        const struct cost_result *c = &oc->result.cost;

        ck_assert(size_point_plan(&plan, p, q, &d) == CP_OK);
        ck_assert_msg(plan_evaluate(q, cat, OBJECTIVE_TIME, oc, &d) == CP_OK,
                      "%s: %s", d.where, d.msg);
        if (p->rented) {
            rented++;
            ck_assert_rel(c->cloud.cash_usd, p->cash, 1e-9);
            ck_assert_rel(c->cloud.run_usd, p->usd, 1e-9);
            ck_assert_uint_eq(c->cloud.instances, p->units);
        } else {
            owned++;
            ck_assert_rel(c->build.cash_usd, p->cash, 1e-9);
            ck_assert_rel(c->build.capex_usd, p->cash, 1e-9);
            ck_assert_rel(c->build.run_usd, p->usd, 1e-9);
            ck_assert_uint_eq(c->build.units, p->units);
        }
    }
    ck_assert_uint_gt(rented, 0);
    ck_assert_uint_gt(owned, 0);
    free(oc);
    free(q);
}
END_TEST

/* Every catalog row is considered: a cheap offer imported after 300
 * filler rows wins. */
START_TEST(test_every_offer)
{
    struct size_opts o;
    struct diag d;
    char *csv = malloc(1 << 20);
    size_t len, i;
    const struct size_point *best;

    ck_assert_ptr_nonnull(csv);
    len = (size_t)snprintf(csv, 1 << 20,
                           "id,term,provider,instance,accel_id,"
                           "gpus_per_instance,usd_per_gpu_hour,source,as_of\n");
    for (i = 0; i < 300; i++)
        len += (size_t)snprintf(csv + len, (1 << 20) - len,
                                "filler-%03zu,on_demand,Filler,f,h100-sxm,8,"
                                "%zu,test filler,2026\n",
                                i, 50 + i);
    snprintf(csv + len, (1 << 20) - len,
             "zz-cheap,on_demand,Cheap,c,h100-sxm,8,0.05,test row,2026\n");
    import(CATALOG_CLOUD, csv);
    set(&plan, "model.preset=llama3-8b");
    set(&plan, "train.tokens=300G");
    memset(&o, 0, sizeof(o));
    o.obj = OBJECTIVE_COST;
    o.gpus_max = 256;
    o.nids = 1;
    snprintf(o.ids[0], CP_ID_MAX, "dgx-h100");
    ck_assert(size_run(&plan, cat, &o, res, &d) == CP_OK);
    ck_assert_uint_gt(res->nfront, 0);
    best = &res->pt[res->front[0]];
    ck_assert(best->rented);
    ck_assert_str_eq(best->offer, "zz-cheap");
    free(csv);
}
END_TEST

/* A 150-system catalog (the 24 built in and copies of dgx-h100) is
 * searched whole, its last system can be asked for, and an unknown
 * --accel is an error naming it. */
START_TEST(test_every_system)
{
    struct size_opts o;
    struct diag d;
    char *csv = malloc(1 << 20);
    size_t len, i;

    ck_assert_ptr_nonnull(csv);
    set(&plan, "model.preset=llama3-8b");
    set(&plan, "train.tokens=300G");
    len = (size_t)snprintf(csv, 1 << 20,
                           "id,name,accel_id,fabric_id,gpus_per_node,"
                           "scaleup_domain,host_power_w,node_price_usd,"
                           "source,as_of,price_source,price_as_of\n");
    for (i = 0; i < 130; i++)
        len += (size_t)snprintf(csv + len, (1 << 20) - len,
                                "copy-%03zu,Copy %zu,h100-sxm,ib-ndr,8,8,4600,"
                                "270000,test copy,2026,test copy,2026\n",
                                i, i);
    import(CATALOG_SYSTEMS, csv);
    memset(&o, 0, sizeof(o));
    o.obj = OBJECTIVE_COST;
    o.gpus_max = 64;
    o.no_refine = true;
    ck_assert(size_run(&plan, cat, &o, res, &d) == CP_OK);
    ck_assert_uint_ge(res->systems, 150);
    ck_assert(!res->stopped_early);
    o.nids = 1;
    snprintf(o.ids[0], CP_ID_MAX, "copy-129");
    ck_assert(size_run(&plan, cat, &o, res, &d) == CP_OK);
    ck_assert_uint_eq(res->systems, 1);
    ck_assert_uint_gt(res->nfront, 0);
    ck_assert_str_eq(res->pt[res->front[0]].system, "copy-129");
    o.nids = 2;
    snprintf(o.ids[1], CP_ID_MAX, "no-such-gpu");
    ck_assert(size_run(&plan, cat, &o, res, &d) == CP_ERR_NOT_FOUND);
    ck_assert_str_eq(d.where, "--accel");
    ck_assert_ptr_nonnull(strstr(d.msg, "no-such-gpu"));
    free(csv);
}
END_TEST

/* An offer's published capacity excludes larger options (counted); an
 * offer without one is marked unknown on every point. */
START_TEST(test_capacity)
{
    static const char csv[] =
        "id,term,provider,instance,accel_id,gpus_per_instance,"
        "usd_per_gpu_hour,source,as_of,capacity_gpus,capacity_source\n"
        "capped,on_demand,Capped,c,h100-sxm,8,0.05,test row,2026,64,"
        "test quota\n";
    struct size_opts o;
    struct diag d;
    size_t i, capped_ok = 0;

    import(CATALOG_CLOUD, csv);
    set(&plan, "model.preset=llama3-8b");
    set(&plan, "train.tokens=300G");
    memset(&o, 0, sizeof(o));
    o.obj = OBJECTIVE_COST;
    o.gpus_max = 512;
    o.nids = 1;
    snprintf(o.ids[0], CP_ID_MAX, "dgx-h100");
    ck_assert(size_run(&plan, cat, &o, res, &d) == CP_OK);
    ck_assert_uint_gt(res->why_count[SIZE_CAPACITY], 0);
    for (i = 0; i < res->n; i++) {
        const struct size_point *p = &res->pt[i];

        if (!p->rented)
            continue;
        if (strcmp(p->offer, "capped") == 0) {
            ck_assert_uint_eq(p->capacity_gpus, 64);
            if (p->units * p->unit_gpus > 64)
                ck_assert_int_eq(p->why, SIZE_CAPACITY);
            else
                capped_ok += p->why == SIZE_OK;
        } else if (strncmp(p->offer, "aws-p5.", 7) == 0 ||
                   strncmp(p->offer, "gcp-a3-highgpu-8g", 17) == 0) {
            /* the default catalog's published cluster sizes */
            ck_assert_uint_ge(p->capacity_gpus, 20000);
        } else {
            ck_assert_uint_eq(p->capacity_gpus, 0); /* unknown */
        }
    }
    ck_assert_uint_gt(capped_ok, 0);
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
    tcase_add_test(tc, test_serve_frontier_brute);
    tcase_add_test(tc, test_serve_pools_round_trip);
    tcase_add_test(tc, test_serve_nothing_meets);
    tcase_add_test(tc, test_only_what_is_sold);
    tcase_add_test(tc, test_budget_is_cash);
    tcase_add_test(tc, test_round_trip_cash);
    tcase_add_test(tc, test_every_offer);
    tcase_add_test(tc, test_every_system);
    tcase_add_test(tc, test_capacity);
    suite_add_tcase(s, tc);
    return s;
}
