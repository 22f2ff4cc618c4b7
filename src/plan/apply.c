/*
 * apply.c - a chosen layout written back into a plan's keys (apply.h).
 */
#include <stdio.h>

#include "plan/apply.h"

bool plan_is_serve(const struct plan *p)
{
    return p->v[PK_WORKLOAD_KIND].set &&
           p->v[PK_WORKLOAD_KIND].u == (uint64_t)WORKLOAD_SERVE;
}

static enum cp_status set_u(struct plan *p, enum plan_key k, uint64_t v,
                            struct diag *d)
{
    char buf[32];

    snprintf(buf, sizeof(buf), "%llu", (unsigned long long)v);
    return plan_set_key(p, k, buf, NULL, d);
}

enum cp_status plan_set_layout(struct plan *p, const struct layout *l,
                               enum attention attention, struct diag *d)
{
    const struct {
        enum plan_key k;
        uint64_t v;
    } kv[] = {
        {PK_PAR_TP, l->tp},
        {PK_PAR_PP, l->pp},
        {PK_PAR_DP, l->dp},
        {PK_PAR_CP, l->cp},
        {PK_PAR_EP, l->ep},
        {PK_PAR_MICROBATCH, l->microbatch},
        {PK_PAR_INTERLEAVE, l->interleave},
        {PK_PAR_ZERO, (uint64_t)l->zero},
    };
    enum cp_status st = CP_OK;
    size_t i;

    for (i = 0; !st && i < sizeof(kv) / sizeof(kv[0]); i++)
        st = set_u(p, kv[i].k, kv[i].v, d);
    if (!st)
        st = plan_set_key(p, PK_PAR_RECOMPUTE, recompute_name(l->recompute),
                          NULL, d);
    if (!st)
        st = plan_set_key(p, PK_PAR_SEQUENCE_PARALLEL,
                          l->sequence_parallel ? "yes" : "no", NULL, d);
    if (!st && attention_name(attention))
        st = plan_set_key(p, PK_TRAIN_ATTENTION, attention_name(attention),
                          NULL, d);
    return st;
}

enum cp_status plan_set_replica(struct plan *p, const struct layout *l,
                                uint64_t max_batch,
                                const struct serve_pool_spec *pf,
                                const struct serve_pool_spec *dc,
                                struct diag *d)
{
    enum cp_status st = set_u(p, PK_PAR_TP, l->tp, d);

    if (!st)
        st = set_u(p, PK_PAR_PP, l->pp, d);
    if (!st)
        st = set_u(p, PK_PAR_EP, l->ep >= 1 ? l->ep : 1, d);
    if (!st)
        st = max_batch ? set_u(p, PK_SERVE_MAX_BATCH, max_batch, d)
                       : plan_set_key(p, PK_SERVE_MAX_BATCH, "auto", NULL, d);
    if (!st && pf && dc && pf->ep) {
        const struct {
            enum plan_key k;
            uint64_t v;
        } kv[] = {
            {PK_SERVE_PREFILL_TP, pf->tp},
            {PK_SERVE_PREFILL_EP, pf->ep},
            {PK_SERVE_PREFILL_ATTENTION_DP, pf->attention_dp},
            {PK_SERVE_DECODE_TP, dc->tp},
            {PK_SERVE_DECODE_EP, dc->ep},
            {PK_SERVE_DECODE_ATTENTION_DP, dc->attention_dp},
        };
        size_t i;

        st = plan_set_key(p, PK_SERVE_DISAGGREGATED, "yes", NULL, d);
        for (i = 0; !st && i < sizeof(kv) / sizeof(kv[0]); i++)
            st = set_u(p, kv[i].k, kv[i].v, d);
    }
    return st;
}

enum cp_status plan_apply_hit(struct plan *p, const struct search_hit *h,
                              struct diag *d)
{
    if (plan_is_serve(p))
        return plan_set_replica(p, &h->layout, h->max_batch, &h->prefill,
                                &h->decode, d);
    return plan_set_layout(p, &h->layout, h->attention, d);
}
