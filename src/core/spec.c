/* spec.c - names of the enums in spec.h, as written in plan files. */
#include <stddef.h>
#include <math.h>
#include <string.h>

#include "core/spec.h"

static const char *const precision_names[PREC_COUNT] = {
#define PRECISION_STR(name, str) str,
    PRECISION_LIST(PRECISION_STR)
#undef PRECISION_STR
};

static const char *const term_names[TERM_COUNT] = {
#define TERM_STR(name, str) str,
    TERM_LIST(TERM_STR)
#undef TERM_STR
};

double precision_bytes(enum precision p)
{
    switch (p) {
    case PREC_FP32:
    case PREC_TF32:
        return 4;
    case PREC_BF16:
    case PREC_FP16:
        return 2;
    case PREC_FP4:
        return 0.5;
    default:
        return 1;
    }
}

const char *precision_name(enum precision p)
{
    return (unsigned)p < PREC_COUNT ? precision_names[p] : NULL;
}

const char *optimizer_name(enum optimizer o)
{
    static const char *const names[] = {"adam", "adam8bit", "sgd"};

    return (unsigned)o < OPT_COUNT ? names[o] : NULL;
}

const char *recompute_name(enum recompute r)
{
    static const char *const names[] = {"none", "selective", "full"};

    return (unsigned)r <= RECOMPUTE_FULL ? names[r] : NULL;
}

const char *attention_name(enum attention a)
{
    static const char *const names[] = {"auto", "flash", "standard"};

    return (unsigned)a <= ATTN_STANDARD ? names[a] : NULL;
}

const char *term_name(enum cloud_term t)
{
    return (unsigned)t < TERM_COUNT ? term_names[t] : NULL;
}

const char *cooling_name(enum cooling c)
{
    switch (c) {
    case COOLING_LIQUID:
        return "liquid";
    case COOLING_REAR_DOOR:
        return "rear_door";
    default:
        return "air";
    }
}

const char *model_attention_name(enum model_attention a)
{
    static const char *const names[] = {"mha", "gqa", "mla"};

    return (unsigned)a <= MATTN_MLA ? names[a] : NULL;
}

const char *workload_name(enum workload_kind w)
{
    return w == WORKLOAD_SERVE ? "serve" : "train";
}

double layout_expert_tp(const struct layout *lay)
{
    return (lay->dp * lay->cp) % lay->ep == 0 ? (double)lay->tp : 1;
}

double layout_expert_dp(const struct layout *lay)
{
    double ranks = (double)lay->tp * (double)lay->dp * (double)lay->cp;

    return ranks / (layout_expert_tp(lay) * (double)lay->ep);
}

bool attention_materialised(const struct scenario *sc)
{
    if (sc->train.attention == ATTN_AUTO)
        return strcmp(sc->stack.attn_kernel, "unfused") == 0;
    return sc->train.attention == ATTN_STANDARD;
}

bool spec_selective_saves_attention(const struct scenario *sc)
{
    const struct accel_spec *a = &sc->accel;
    bool blackwell =
        strcmp(a->vendor, "NVIDIA") == 0 && a->peak_flops[PREC_MXFP8] > 0;

    return sc->layout.recompute == RECOMPUTE_SELECTIVE &&
           sc->stack.per_op_sac > 0.5 && !blackwell &&
           !attention_materialised(sc) && spec_recompute_mask(&sc->recipe) == 0;
}

double spec_power_clock(const struct scenario *sc)
{
    double cap = sc->power_limit_w, tdp = sc->accel.tdp_w;

    if (!(cap > 0) || !(tdp > 0) || cap >= tdp)
        return 1;
    return cbrt(cap / tdp);
}

const char *serve_dtype_name(enum serve_dtype t)
{
    static const char *const names[] = {
#define SERVE_DTYPE_NAME(name, str) str,
        SERVE_DTYPE_LIST(SERVE_DTYPE_NAME)
#undef SERVE_DTYPE_NAME
    };

    return (unsigned)t < SD_COUNT ? names[t] : NULL;
}

const char *serve_mode_name(enum serve_mode m)
{
    return m == SERVE_OFFLINE ? "offline" : "online";
}

const char *serve_disagg_name(enum serve_disagg g)
{
    static const char *const names[] = {"no", "yes", "auto"};

    return (unsigned)g <= DISAGG_AUTO ? names[g] : NULL;
}

const char *recipe_switch_name(enum recipe_switch r)
{
    static const char *const names[] = {"stack", "yes", "no"};

    return (unsigned)r <= RECIPE_NO ? names[r] : NULL;
}

const char *cuda_graphs_name(enum cuda_graphs g)
{
    static const char *const names[] = {"stack", "none", "router", "attn",
                                        "full"};

    return (unsigned)g <= GRAPHS_FULL ? names[g] : NULL;
}

const char *moe_dispatcher_name(enum moe_dispatcher m)
{
    static const char *const names[] = {"stack", "alltoall", "deepep",
                                        "hybridep"};

    return (unsigned)m <= DISPATCH_HYBRIDEP ? names[m] : NULL;
}

const char *pp_schedule_name(enum pp_schedule s)
{
    static const char *const names[] = {"stack", "1f1b", "dualpipe"};

    return (unsigned)s <= SCHED_DUALPIPE ? names[s] : NULL;
}

const char *fp8_scaling_name(enum fp8_scaling f)
{
    static const char *const names[] = {"stack", "tensor", "row"};

    return (unsigned)f <= FP8_SCALING_ROW ? names[f] : NULL;
}

bool spec_vendor_listed(const char *list, const char *vendor)
{
    size_t n = strlen(vendor);
    const char *p = list;

    if (!list[0])
        return true;
    /* word by word, no copies: the serving engine asks on every
     * evaluation of a search */
    while (*p) {
        size_t w;

        while (*p == ' ')
            p++;
        w = strcspn(p, " ");
        if (w == n && w > 0 && strncmp(p, vendor, n) == 0)
            return true;
        p += w;
    }
    return false;
}

const char *offload_name(enum offload o)
{
    static const char *const names[] = {"stack", "none", "optimizer",
                                        "optimizer_activations"};

    return (unsigned)o <= OFFLOAD_OPTIMIZER_ACTIVATIONS ? names[o] : NULL;
}

const char *recompute_modules_name(enum recompute_modules r)
{
    static const char *const names[] = {
        "stack",       "core_attn",       "moe_act",
        "mla_up_proj", "mla_up_proj+mlp", "mla_up_proj+mlp+moe_act"};

    return (unsigned)r <= RECMOD_MLA_UP_MLP_MOE_ACT ? names[r] : NULL;
}

const char *serve_pct_name(enum serve_pct p)
{
    static const char *const names[] = {"mean", "p50", "p90", "p99"};

    return (unsigned)p <= SERVE_PCT_P99 ? names[p] : NULL;
}

const char *serve_pool_name(enum serve_pool p)
{
    static const char *const names[] = {"both", "prefill", "decode"};

    return (unsigned)p <= POOL_DECODE ? names[p] : NULL;
}

const char *serve_offload_name(enum serve_offload o)
{
    static const char *const names[] = {"none", "weights"};

    return (unsigned)o <= SOFF_WEIGHTS ? names[o] : NULL;
}
