/*
 * search.c - layout enumeration for "auto"; see search.h.
 */
#include <string.h>
#include <time.h>

#include "core/model.h"
#include "plan/search.h"

#define LIST_MAX 512
#define MICROBATCH_MAX 1000000000
#define CP_MAX 16
#define CP_MIN_SEQ 16384

enum cp_status objective_parse(const char *s, enum objective *out)
{
    if (strcmp(s, "time") == 0)
        *out = OBJECTIVE_TIME;
    else if (strcmp(s, "cost") == 0)
        *out = OBJECTIVE_COST;
    else if (strcmp(s, "energy") == 0)
        *out = OBJECTIVE_ENERGY;
    else if (strcmp(s, "cash") == 0)
        *out = OBJECTIVE_CASH;
    else
        return CP_ERR_USAGE;
    return CP_OK;
}

const char *objective_name(enum objective o)
{
    switch (o) {
    case OBJECTIVE_COST:
        return "cost";
    case OBJECTIVE_ENERGY:
        return "energy";
    case OBJECTIVE_CASH:
        return "cash";
    default:
        return "time";
    }
}

void search_space_auto(struct search_space *sp)
{
    memset(sp, 0, sizeof(*sp));
    sp->recompute = -1;
    sp->attention = -1;
    sp->sequence_parallel = -1;
    sp->zero = -1;
}

/* Divisors of n that are <= cap, ascending, into out (at most LIST_MAX). */
static size_t divisors(uint64_t n, uint64_t cap, uint64_t *out)
{
    size_t k = 0;
    uint64_t i;

    for (i = 1; i <= n && i <= cap && k < LIST_MAX; i++)
        if (n % i == 0)
            out[k++] = i;
    return k;
}

/* Powers of two up to cap (when the dimension is unknown). */
static size_t powers_of_two(uint64_t cap, uint64_t *out)
{
    size_t k = 0;
    uint64_t v;

    for (v = 1; v <= cap && k < LIST_MAX; v *= 2)
        out[k++] = v;
    return k;
}

static size_t one(uint64_t v, uint64_t *out)
{
    out[0] = v;
    return 1;
}

static double score_of(const struct result *r, enum objective obj)
{
    switch (obj) {
    case OBJECTIVE_COST:
        return r->cost.build.run_usd;
    case OBJECTIVE_ENERGY:
        return r->energy.facility_mwh;
    case OBJECTIVE_CASH:
        return r->cost.build.cash_usd;
    default:
        return r->time.step_s;
    }
}

static int better(const struct search_hit *a, const struct search_hit *b)
{
    if (a->score != b->score)
        return a->score < b->score;
    if (a->step_s != b->step_s)
        return a->step_s < b->step_s;
    return a->total_bytes < b->total_bytes;
}

/* Insert h into the sorted top list of at most cap entries. */
static void keep(struct search_result *out, size_t cap,
                 const struct search_hit *h)
{
    size_t i;

    if (out->n == cap && !better(h, &out->hits[cap - 1]))
        return;
    i = out->n < cap ? out->n++ : cap - 1;
    while (i > 0 && better(h, &out->hits[i - 1])) {
        out->hits[i] = out->hits[i - 1];
        i--;
    }
    out->hits[i] = *h;
}

static double now_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

struct walk {
    struct scenario sc; /* base with the candidate layout */
    struct result r;
    enum objective obj;
    size_t cap;
    struct search_result *out;
    bool have_reject;
    struct search_hit least; /* least memory so far, for "nothing fits" */
    bool have_least;
    uint64_t tried;
    search_progress_fn progress;
    void *ctx;
    const volatile int *cancel;
    bool cancelled;
    bool halt;        /* cancelled or the work cap reached: unwind the loops */
    bool fixed_batch; /* serving: the plan fixed serve.max_batch */
    bool pools;       /* serving: trying the pools' wide EP */
    /* training: the model's shape at train.seq_len, derived once (the
     * layouts do not change it); NULL when the model does not validate */
    struct model_shape shape;
    const struct model_shape *shape_p;
    /* training: the checks a layout cannot change (scenario_validate_part
     * HEAD and MONEY), done once for the attention kernel they saw */
    bool fixed_checked;
    enum attention fixed_attention;
    enum cp_status head_st, money_st;
    struct diag head_d, money_d;
};

/* Whether st (the validation of the layout in w->sc, its reason in *d)
 * passes; the first reason one does not is kept as the search's reject.
 * A valid layout counts as a candidate. */
static bool valid_as(struct walk *w, enum cp_status st, const struct diag *d)
{
    if (st != CP_OK) {
        if (!w->have_reject) {
            w->out->reject = *d;
            w->have_reject = true;
        }
        return false;
    }
    w->out->candidates++;
    return true;
}

static bool valid(struct walk *w)
{
    struct diag d;
    enum cp_status st;

    st =
        scenario_validate_shape(&w->sc, w->shape_p, w->have_reject ? NULL : &d);
    return valid_as(w, st, &d);
}

/* valid() for a training layout: scenario_validate_shape's verdict and
 * reason, with the parts a layout cannot change checked once (the search
 * validates every candidate; those parts were most of its work). */
static bool valid_train(struct walk *w)
{
    struct diag d;
    enum cp_status st;

    if (!w->fixed_checked || w->fixed_attention != w->sc.train.attention) {
        w->head_st =
            scenario_validate_part(&w->sc, VALIDATE_HEAD, NULL, &w->head_d);
        w->money_st =
            scenario_validate_part(&w->sc, VALIDATE_MONEY, NULL, &w->money_d);
        w->fixed_attention = w->sc.train.attention;
        w->fixed_checked = true;
    }
    if (w->head_st)
        return valid_as(w, w->head_st, &w->head_d);
    st = scenario_validate_part(&w->sc, VALIDATE_LAYOUT, w->shape_p,
                                w->have_reject ? NULL : &d);
    if (st)
        return valid_as(w, st, &d);
    return valid_as(w, w->money_st, &w->money_d);
}

/* Validate, price memory, evaluate and rank the layout in w->sc. */
static void try_layout(struct walk *w)
{
    struct search_hit h;

    if (w->tried >= SEARCH_MAX_TRIED) {
        w->out->stopped_early = true;
        w->halt = true;
        return;
    }
    if (++w->tried % 4096 == 0) {
        if ((w->cancel && *w->cancel) ||
            (w->progress && !w->progress(w->ctx, w->tried)))
            w->cancelled = w->halt = true;
    }
    if (!valid_train(w))
        return;
    scenario_eval_shape(&w->sc, w->shape_p, EVAL_MEMORY_ONLY | EVAL_QUIET,
                        &w->r);
    h.layout = w->sc.layout;
    h.attention = w->sc.train.attention;
    h.total_bytes = w->r.memory.total_bytes;
    h.fits = w->r.memory.fits;
    if (!h.fits) {
        if (!w->have_least || h.total_bytes < w->least.total_bytes) {
            h.score = 0;
            h.step_s = 0;
            w->least = h;
            w->have_least = true;
        }
        return;
    }
    scenario_eval_shape(
        &w->sc, w->shape_p,
        EVAL_QUIET | (w->obj == OBJECTIVE_TIME ? EVAL_TIME_ONLY : 0), &w->r);
    w->out->evaluated++;
    h.score = score_of(&w->r, w->obj);
    h.step_s = w->r.time.step_s;
    keep(w->out, w->cap, &h);
}

/* Attention kernels worth timing with a recomputation mode: the plan's
 * train.attention when it names one; with auto, the stack's kernel
 * (software.stack: a fused kernel, or Megatron-LM 2022's unfused core),
 * which the layout cannot change. */
static size_t attention_choices(const struct search_space *sp,
                                enum recompute rc, enum attention out[2])
{
    (void)rc;
    out[0] = sp->attention >= 0 ? (enum attention)sp->attention : ATTN_AUTO;
    return 1;
}

/* The inner loops over the per-layout choices for fixed tp, pp, cp, dp. */
static void walk_inner(struct walk *w, const struct search_space *sp,
                       const uint64_t *eps, size_t neps)
{
    const struct scenario *sc = &w->sc;
    uint64_t mbs[LIST_MAX], vs[LIST_MAX];
    size_t nmb, nv = 0, iv, ie, im, ir, iz;
    int rlo = sp->recompute >= 0 ? sp->recompute : RECOMPUTE_NONE;
    int rhi = sp->recompute >= 0 ? sp->recompute : RECOMPUTE_FULL;
    int zlo = sp->zero >= 0 ? sp->zero : 0;
    int zhi = sp->zero >= 0 ? sp->zero : 3;
    uint64_t dp = sc->layout.dp;
    /* SP: as given, else both ways when there is TP to split over */
    int splo = sp->sequence_parallel >= 0 ? sp->sequence_parallel != 0 : 0;
    int sphi = sp->sequence_parallel >= 0 ? sp->sequence_parallel != 0
                                          : sc->layout.tp > 1;
    int isp;

    if (sp->microbatch)
        nmb = one(sp->microbatch, mbs);
    else if (sc->train.global_batch % dp == 0)
        nmb = divisors(sc->train.global_batch / dp, MICROBATCH_MAX, mbs);
    else
        nmb = one(1, mbs); /* invalid: validate says why */
    if (sp->interleave) {
        nv = one(sp->interleave, vs);
    } else if (sp->interleave_auto && sc->layout.pp > 1 && sc->model.layers) {
        /* every v with at least one layer per virtual stage (uneven
         * virtual stages allowed), or the embedding and the output as
         * chunks of their own (Llama 3 405B: 126 layers + 2 on 16 x 8) */
        uint64_t v, vmax = (sc->model.layers + 2) / sc->layout.pp;

        for (v = 1; v <= vmax && nv < LIST_MAX; v++)
            if (!sp->interleave_coarse || (v & (v - 1)) == 0 || v == vmax)
                vs[nv++] = v;
    }
    if (!nv)
        nv = one(1, vs);
    for (iv = 0; iv < nv * neps; iv++) {
        w->sc.layout.interleave = vs[iv / neps];
        ie = iv % neps;
        w->sc.layout.ep = eps[ie];
        for (im = 0; im < nmb; im++) {
            w->sc.layout.microbatch = mbs[im];
            for (isp = splo; isp <= sphi; isp++) {
                w->sc.layout.sequence_parallel = isp != 0;
                for (ir = (size_t)rlo; ir <= (size_t)rhi; ir++) {
                    enum attention att[2];
                    size_t na = attention_choices(sp, (enum recompute)ir, att),
                           ia;

                    w->sc.layout.recompute = (enum recompute)ir;
                    for (ia = 0; ia < na; ia++) {
                        w->sc.train.attention = att[ia];
                        for (iz = (size_t)zlo; iz <= (size_t)zhi; iz++) {
                            w->sc.layout.zero = (int)iz;
                            if (w->halt)
                                return;
                            try_layout(w);
                        }
                    }
                }
            }
        }
    }
}

/* Serving: lower is better.  time = the most output tokens per second
 * per GPU at the targets (the smallest fleet), then per-user speed; cost
 * = the owned fleet's day per output token; energy = Wh per million. */
static double serve_score(const struct result *r, enum objective obj)
{
    const struct serve_result *s = &r->serve;

    switch (obj) {
    case OBJECTIVE_COST:
        /* The owned fleet's whole day over its output, prompts included. */
        if (s->usd_per_day_build > 0 && s->output_tokens_per_s > 0)
            return s->usd_per_day_build / s->output_tokens_per_s;
        break;
    case OBJECTIVE_ENERGY:
        if (s->wh_per_mtok > 0)
            return s->wh_per_mtok;
        break;
    case OBJECTIVE_CASH:
        if (s->cash_usd_build > 0)
            return s->cash_usd_build;
        break;
    default:
        break;
    }
    return s->output_tokens_per_s_per_gpu > 0
               ? 1 / s->output_tokens_per_s_per_gpu
               : 1e300;
}

static void serve_try(struct walk *w)
{
    struct search_hit h;

    w->tried++;
    if (!valid(w))
        return;
    memset(&h, 0, sizeof(h));
    scenario_eval_flags(&w->sc, EVAL_QUIET, &w->r);
    h.layout = w->sc.layout;
    h.attention = w->sc.train.attention;
    h.max_batch = w->sc.serve.max_batch;
    if (w->pools) {
        h.prefill = w->sc.serve.prefill;
        h.decode = w->sc.serve.decode;
    }
    h.total_bytes = w->r.serve.weights_bytes;
    h.fits = w->r.serve.fits;
    h.step_s = w->r.serve.tpot_ms;
    if (!h.fits) {
        if (!w->have_least || h.total_bytes < w->least.total_bytes) {
            w->least = h;
            w->have_least = true;
        }
        return;
    }
    /* A cap the search tries at or above what memory and the engine
     * allow is "auto" (a cap the plan fixed is the plan's). */
    if (h.max_batch && !w->fixed_batch &&
        (w->r.serve.max_batch < (double)h.max_batch ||
         w->r.serve.batch < (double)h.max_batch - 0.5))
        return;
    w->out->evaluated++;
    h.score = serve_score(&w->r, w->obj);
    keep(w->out, w->cap, &h);
}

/* Disaggregated MoE pools the plan leaves open (serve.disaggregated = yes
 * or auto,
 * hardware.gpus = auto, no serve.prefill.* / serve.decode.* parallelism):
 * wide EP over whole nodes (whole scale-up domains on rack-scale
 * systems), attention data-parallel over the same GPUs (tp 1), each pool
 * its own width; serve_pool.c sizes the pools for the demand.  Widths
 * from one node to the experts (DeepSeek-V3: EP 32 prefill and EP 144
 * decode on nodes of 8). */
static void search_pools(struct walk *w, const struct search_space *sp)
{
    static const uint64_t nodes[] = {1, 2, 4, 8, 12, 16, 18, 24, 32};
    const struct scenario *base = &w->sc;
    const struct serve_spec *sv = &base->serve;
    uint64_t node = base->system.scaleup_domain > base->system.gpus_per_node
                        ? base->system.scaleup_domain
                        : base->system.gpus_per_node;
    uint64_t widths[sizeof(nodes) / sizeof(nodes[0])];
    size_t nw = 0, i, j, k;
    struct layout keep_layout = w->sc.layout;
    uint64_t keep_batch = w->sc.serve.max_batch, keep_gpus = w->sc.gpus;
    uint64_t keep_decode_batch = w->sc.serve.decode.max_batch;
    enum serve_disagg sv_disagg = w->sc.serve.disaggregated;

    if (!sp->serve_pools || sv->disaggregated == DISAGG_NO || !sv->gpus_auto ||
        base->model.experts < 2 || sp->tp || sp->pp || sv->pool != POOL_BOTH ||
        sv->prefill.gpus || sv->prefill.tp || sv->prefill.ep ||
        sv->prefill.attention_dp || sv->decode.gpus || sv->decode.tp ||
        sv->decode.ep || sv->decode.attention_dp || sv->attention_dp > 1)
        return;
    if (node < 1)
        node = 1;
    for (k = 0; k < sizeof(nodes) / sizeof(nodes[0]); k++)
        if (nodes[k] * node <= base->model.experts)
            widths[nw++] = nodes[k] * node;
    w->pools = true;
    w->sc.serve.disaggregated = DISAGG_YES; /* auto: the pools compete */
    w->sc.layout.tp = 1;
    w->sc.layout.pp = 1;
    w->sc.layout.dp = 1;
    w->sc.layout.ep = 1;
    w->sc.gpus = 1;
    w->sc.serve.max_batch = w->fixed_batch ? keep_batch : 0;
    for (i = 0; i < nw && !w->halt; i++) {
        for (j = 0; j < nw && !w->halt; j++) {
            w->sc.serve.prefill.tp = 1;
            w->sc.serve.decode.tp = 1;
            w->sc.serve.prefill.ep = widths[i];
            w->sc.serve.prefill.attention_dp = widths[i];
            w->sc.serve.decode.ep = widths[j];
            w->sc.serve.decode.attention_dp = widths[j];
            if ((w->cancel && *w->cancel) ||
                (w->progress && !w->progress(w->ctx, w->tried)))
                w->cancelled = w->halt = true;
            else
                serve_try(w);
        }
    }
    memset(&w->sc.serve.prefill, 0, sizeof(w->sc.serve.prefill));
    memset(&w->sc.serve.decode, 0, sizeof(w->sc.serve.decode));
    w->sc.serve.decode.max_batch = keep_decode_batch;
    w->sc.serve.disaggregated = sv_disagg;
    w->sc.layout = keep_layout;
    w->sc.serve.max_batch = keep_batch;
    w->sc.gpus = keep_gpus;
    w->pools = false;
}

/* Serving layouts: tp within the scale-up domain, pp, and the engine's
 * batch cap (auto, then powers of two), each replica evaluated in full
 * (serve.c sizes the replicas).  A fixed fleet needs tp*pp to divide it. */
static enum cp_status
search_serve(struct walk *w, const struct search_space *sp, struct diag *d)
{
    const struct scenario *base = &w->sc;
    uint64_t tps[LIST_MAX], pps[LIST_MAX], bs[LIST_MAX];
    size_t ntp, npp, nb = 0, it, ip, ib;
    uint64_t domain = base->system.scaleup_domain ? base->system.scaleup_domain
                                                  : base->system.gpus_per_node;
    uint64_t heads = base->model.heads, layers = base->model.layers;
    uint64_t given = base->gpus, v;
    bool fleet = !base->serve.gpus_auto;
    uint64_t fixed_batch = base->serve.max_batch;

    if (domain < 1)
        domain = 1;
    if (sp->tp)
        ntp = one(sp->tp, tps);
    else if (heads)
        ntp = divisors(heads, domain, tps);
    else
        ntp = powers_of_two(domain, tps);
    if (sp->pp) {
        npp = one(sp->pp, pps);
    } else {
        npp = 0;
        for (v = 1; v <= 8 && (!layers || v <= layers); v *= 2)
            pps[npp++] = v;
    }
    w->fixed_batch = fixed_batch != 0;
    if (fixed_batch) {
        bs[nb++] = fixed_batch;
    } else if (w->cap == 1) {
        /* A cap below what memory allows only lowers a replica's
         * capacity: the single best is always auto. */
        bs[nb++] = 0;
    } else {
        bs[nb++] = 0;
        for (v = 1; v <= 1024 && nb < LIST_MAX; v *= 2)
            bs[nb++] = v;
    }
    for (it = 0; it < ntp && !w->halt; it++) {
        for (ip = 0; ip < npp && !w->halt; ip++) {
            uint64_t gpr = tps[it] * pps[ip];

            if (fleet && given % gpr != 0)
                continue;
            /* Pipeline stages only where a replica spans nodes' worth of
             * GPUs: tp first, then pp. */
            if (pps[ip] > 1 && !sp->pp && tps[it] < domain && !sp->tp)
                continue;
            w->sc.layout.tp = tps[it];
            w->sc.layout.pp = pps[ip];
            w->sc.layout.dp = fleet ? given / gpr : 1;
            if (!fleet)
                w->sc.gpus = gpr;
            for (ib = 0; ib < nb && !w->halt; ib++) {
                w->sc.serve.max_batch = bs[ib];
                if ((w->cancel && *w->cancel) ||
                    (w->progress && !w->progress(w->ctx, w->tried)))
                    w->cancelled = w->halt = true;
                else
                    serve_try(w);
            }
        }
    }
    if (!w->halt)
        search_pools(w, sp);
    if (w->cancelled)
        return diag_set(d, CP_ERR_CANCELLED, "search", "cancelled");
    w->out->feasible = w->out->evaluated;
    if (w->out->n > 0) {
        w->out->fits = true;
        return CP_OK;
    }
    if (w->have_least) {
        w->out->fits = false;
        w->out->hits[0] = w->least;
        w->out->n = 1;
        return CP_OK;
    }
    if (w->have_reject) {
        if (d)
            *d = w->out->reject;
        return CP_ERR_LAYOUT;
    }
    return diag_set(d, CP_ERR_LAYOUT, "parallel",
                    "no serving replica (tp x pp) divides hardware.gpus "
                    "(%llu)",
                    (unsigned long long)given);
}

/* The degrees the plan fixes must fit the model and divide the GPUs. */
static enum cp_status check_given_degrees(const struct scenario *base,
                                          const struct search_space *sp,
                                          struct diag *d)
{
    const struct model_spec *m = &base->model;
    uint64_t gpus = base->gpus, fixed;
    double fx;

    if (sp->tp && m->heads && m->heads % sp->tp != 0)
        return diag_set(d, CP_ERR_LAYOUT, "parallel.tp",
                        "%llu does not divide model.heads (%llu)",
                        (unsigned long long)sp->tp,
                        (unsigned long long)m->heads);
    if (sp->pp && m->layers && sp->pp > m->layers)
        return diag_set(d, CP_ERR_LAYOUT, "parallel.pp",
                        "%llu pipeline stages exceed model.layers (%llu)",
                        (unsigned long long)sp->pp,
                        (unsigned long long)m->layers);
    fx = (double)(sp->tp ? sp->tp : 1) * (double)(sp->pp ? sp->pp : 1) *
         (double)(sp->dp ? sp->dp : 1) * (double)(sp->cp ? sp->cp : 1);
    fixed = fx <= (double)gpus ? (uint64_t)fx : 0;
    if (!fixed || gpus % fixed != 0 ||
        (sp->tp && sp->pp && sp->dp && sp->cp && fixed != gpus))
        return diag_set(d, CP_ERR_LAYOUT, "parallel",
                        "the product of the given degrees (%.0f) does not "
                        "divide hardware.gpus (%llu) into tp*pp*dp*cp",
                        fx, (unsigned long long)gpus);
    return CP_OK;
}

/* What the walk found: the best layouts, else the least bad one, else
 * the reason the last layout was refused. */
static enum cp_status search_outcome(const struct walk *w,
                                     const struct scenario *base,
                                     const struct search_space *sp,
                                     struct search_result *out, struct diag *d)
{
    uint64_t gpus = base->gpus;

    if (w->cancelled)
        return diag_set(d, CP_ERR_CANCELLED, "search", "cancelled");
    out->feasible = out->evaluated;
    if (out->n > 0) {
        out->fits = true;
        return CP_OK;
    }
    if (w->have_least) {
        out->fits = false;
        out->hits[0] = w->least;
        out->n = 1;
        return CP_OK;
    }
    /* dp is what hardware.gpus leaves after tp x pp x cp: when the user
     * did not choose it, the input to change is the GPU count or the
     * batch, not a layout of the search's making. */
    if (w->have_reject && !sp->dp &&
        strcmp(out->reject.where, "train.global_batch") == 0)
        return diag_set(
            d, CP_ERR_LAYOUT, "hardware.gpus",
            "no layout of %llu GPUs splits train.global_batch (%llu) evenly "
            "over its data-parallel replicas (dp x microbatch must divide "
            "it): change hardware.gpus or train.global_batch",
            (unsigned long long)gpus,
            (unsigned long long)base->train.global_batch);
    if (w->have_reject) {
        if (d)
            *d = out->reject;
        return CP_ERR_LAYOUT;
    }
    return diag_set(d, CP_ERR_LAYOUT, "parallel",
                    "no layout with the given degrees has tp*pp*dp*cp = "
                    "hardware.gpus (%llu)",
                    (unsigned long long)gpus);
}

enum cp_status plan_search(const struct scenario *base,
                           const struct search_space *sp, enum objective obj,
                           size_t top_n, struct search_result *out,
                           search_progress_fn progress, void *ctx,
                           const volatile int *cancel, struct diag *d)
{
    struct walk w;
    uint64_t tps[LIST_MAX], pps[LIST_MAX], cps[LIST_MAX], eps[LIST_MAX];
    size_t ntp, npp, ncp, neps, it, ip, ic;
    uint64_t gpus = base->gpus, domain, v;
    enum cp_status st;
    double t0 = now_s();
    const struct model_spec *m = &base->model;

    memset(out, 0, sizeof(*out));
    memset(&w, 0, sizeof(w));
    w.sc = *base;
    w.obj = obj;
    w.cap = top_n < 1 ? 1 : top_n > SEARCH_TOP_MAX ? SEARCH_TOP_MAX : top_n;
    w.out = out;
    w.progress = progress;
    w.ctx = ctx;
    w.cancel = cancel;

    if (base->workload == WORKLOAD_SERVE) {
        st = search_serve(&w, sp, d);
        out->elapsed_s = now_s() - t0;
        return st;
    }
    st = check_given_degrees(base, sp, d);
    if (st)
        return st;
    if (scenario_validate_model(base, NULL) == CP_OK) {
        model_shape_derive(&base->model, (double)base->train.seq_len,
                           &w.shape);
        w.shape_p = &w.shape;
    }
    domain = base->system.scaleup_domain ? base->system.scaleup_domain
                                         : base->system.gpus_per_node;
    if (domain < 1)
        domain = 1;
    if (domain > gpus)
        domain = gpus;
    if (sp->tp)
        ntp = one(sp->tp, tps);
    else if (m->heads)
        ntp = divisors(m->heads, domain, tps);
    else
        ntp = powers_of_two(domain, tps);
    if (sp->pp)
        npp = one(sp->pp, pps);
    else if (m->layers)
        npp = divisors(gpus, m->layers, pps); /* uneven stages allowed */
    else
        npp = powers_of_two(gpus < 128 ? gpus : 128, pps);
    if (sp->cp) {
        ncp = one(sp->cp, cps);
    } else {
        ncp = one(1, cps);
        for (v = 2; v <= CP_MAX && base->train.seq_len >= CP_MIN_SEQ; v *= 2)
            cps[ncp++] = v;
    }

    for (it = 0; it < ntp && !w.halt; it++) {
        w.sc.layout.tp = tps[it];
        for (ip = 0; ip < npp && !w.halt; ip++) {
            w.sc.layout.pp = pps[ip];
            for (ic = 0; ic < ncp && !w.halt; ic++) {
                uint64_t tpc = tps[it] * pps[ip] * cps[ic];

                w.sc.layout.cp = cps[ic];
                if (gpus % tpc != 0)
                    continue;
                w.sc.layout.dp = gpus / tpc;
                if (sp->dp && sp->dp != w.sc.layout.dp)
                    continue;
                if (sp->ep)
                    neps = one(sp->ep, eps);
                else if (m->experts >= 2)
                    neps = divisors(
                        m->experts,
                        w.sc.layout.tp * w.sc.layout.dp * w.sc.layout.cp, eps);
                else
                    neps = one(1, eps);
                walk_inner(&w, sp, eps, neps);
            }
        }
    }
    out->elapsed_s = now_s() - t0;
    return search_outcome(&w, base, sp, out, d);
}
