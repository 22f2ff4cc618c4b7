/*
 * echo.c - plan_echo_value: the value a plan key took in a scenario and
 * its result, as text (enum_text names the enum keys); see resolve.h.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "plan/resolve.h"

#include "core/model.h"

static const char *enum_text(enum plan_key k, int value)
{
    switch (k) {
    case PK_TRAIN_PRECISION:
    case PK_TRAIN_GRAD_DTYPE:
        return precision_name((enum precision)value);
    case PK_TRAIN_OPTIMIZER:
        return optimizer_name((enum optimizer)value);
    case PK_TRAIN_ATTENTION:
        return attention_name((enum attention)value);
    case PK_MODEL_ATTENTION:
        return model_attention_name((enum model_attention)value);
    case PK_PAR_RECOMPUTE:
        return recompute_name((enum recompute)value);
    case PK_CLOUD_TERM:
        return term_name((enum cloud_term)value);
    case PK_WORKLOAD_KIND:
        return workload_name((enum workload_kind)value);
    case PK_SERVE_MODE:
        return serve_mode_name((enum serve_mode)value);
    case PK_SERVE_WEIGHTS:
    case PK_SERVE_KV_CACHE:
        return serve_dtype_name((enum serve_dtype)value);
    case PK_SERVE_DISAGGREGATED:
        return serve_disagg_name((enum serve_disagg)value);
    case PK_SERVE_ASYNC_SCHEDULING:
        return value ? "yes" : "no";
    case PK_SOFTWARE_MOE_A2A_OVERLAP:
    case PK_SOFTWARE_TP_COMM_OVERLAP:
    case PK_SOFTWARE_MOE_FORCE_BALANCE:
    case PK_SOFTWARE_CHECKPOINT_EARLY_STOP:
        return recipe_switch_name((enum recipe_switch)value);
    case PK_SOFTWARE_CUDA_GRAPHS:
        return cuda_graphs_name((enum cuda_graphs)value);
    case PK_SOFTWARE_MOE_DISPATCHER:
        return moe_dispatcher_name((enum moe_dispatcher)value);
    case PK_SOFTWARE_PP_SCHEDULE:
        return pp_schedule_name((enum pp_schedule)value);
    case PK_SOFTWARE_FP8_SCALING:
        return fp8_scaling_name((enum fp8_scaling)value);
    case PK_SOFTWARE_OFFLOAD:
        return offload_name((enum offload)value);
    case PK_SOFTWARE_RECOMPUTE_MODULES:
        return recompute_modules_name((enum recompute_modules)value);
    case PK_SERVE_PERCENTILE:
        return serve_pct_name((enum serve_pct)value);
    case PK_SERVE_POOL:
        return serve_pool_name((enum serve_pool)value);
    case PK_SERVE_OFFLOAD:
        return serve_offload_name((enum serve_offload)value);
    case PK_SERVE_EXPERT_WEIGHTS:
        return value == 0 ? "same"
                          : serve_dtype_name((enum serve_dtype)(value - 1));
    case PK_SERVE_ATTENTION:
        return value == SATTN_FP8    ? "fp8"
               : value == SATTN_BF16 ? "bf16"
                                     : "auto";
    case PK_SERVE_COMM:
        return value == SCOMM_FP8    ? "fp8"
               : value == SCOMM_BF16 ? "bf16"
                                     : "auto";
    default:
        return NULL;
    }
}

void plan_echo_value(const struct scenario *sc, const struct result *r,
                     enum plan_key k, struct plan_echo *out)
{
    const struct field_info *ki = plan_key_info(k);
    const char *field = (const char *)sc + ki->offset;
    uint64_t u = 0;
    double x = 0;
    bool b = false;
    int e = 0;

    memset(out, 0, sizeof(*out));
    out->type = ki->type;
    switch (ki->store) {
    case PS_NONE:
        break;
    case PS_U64:
        memcpy(&u, field, sizeof(u));
        break;
    case PS_F64:
        memcpy(&x, field, sizeof(x));
        break;
    case PS_BOOL:
        memcpy(&b, field, sizeof(b));
        u = b;
        break;
    case PS_INT:
        memcpy(&e, field, sizeof(e));
        u = (uint64_t)(e < 0 ? 0 : e);
        break;
    }
    out->u = u;
    out->d = x;
    if (ki->type == PT_COUNT && ki->store == PS_F64)
        out->u = x > 0 ? (uint64_t)(x + 0.5) : 0;
    if (ki->type == PT_ENUM)
        out->s = enum_text(k, e);
    switch (k) {
    case PK_MODEL_PRESET:
        out->s = sc->model.id;
        break;
    case PK_MODEL_PARAMS:
        if (!out->u && r)
            out->u = (uint64_t)(r->model.params + 0.5);
        break;
    case PK_MODEL_LAYERS:
        if (!out->u && r)
            out->u = (uint64_t)(r->model.layers + 0.5);
        break;
    case PK_MODEL_VOCAB:
        if (!out->u && r)
            out->u = (uint64_t)(r->model.vocab + 0.5);
        break;
    case PK_MODEL_HIDDEN:
        if (!out->u && r)
            out->u = (uint64_t)(r->model.hidden + 0.5);
        break;
    case PK_MODEL_HEADS:
        if (!out->u && r)
            out->u = (uint64_t)(r->model.heads + 0.5);
        break;
    case PK_MODEL_KV_HEADS:
        if (!out->u)
            out->u = sc->model.heads ? sc->model.heads
                     : r             ? (uint64_t)(r->model.heads + 0.5)
                                     : 0;
        break;
    case PK_MODEL_FFN:
        if (!out->u && r)
            out->u = (uint64_t)(r->model.ffn + 0.5);
        break;
    case PK_HW_ACCELERATOR:
        out->s = sc->accel.id;
        break;
    case PK_HW_GPUS:
        if (sc->workload == WORKLOAD_SERVE && r && r->serve.gpus >= 1)
            out->u = (uint64_t)(r->serve.gpus + 0.5);
        break;
    case PK_SERVE_MAX_BATCH:
        if (!out->u && r)
            out->u = (uint64_t)(r->serve.max_batch + 0.5);
        break;
    case PK_SOFTWARE_STACK:
        out->s = sc->stack.id;
        break;
    case PK_MODEL_HEAD_DIM:
        if (!out->u && r && r->model.heads > 0)
            out->u = (uint64_t)(r->model.hidden / r->model.heads + 0.5);
        break;
    case PK_HW_SYSTEM:
        out->s = sc->system.id;
        break;
    case PK_HW_FABRIC:
        out->s = sc->fabric.id;
        break;
    case PK_HW_STORAGE:
        out->s = sc->storage.id;
        break;
    case PK_SITE_ID:
        out->s = sc->site.id;
        break;
    case PK_CLOUD_OFFER:
        out->s = sc->cloud.id;
        break;
    case PK_REL_NODE_MTBF_H:
        if (!(out->d > 0))
            out->d = sc->system.node_mtbf_h;
        break;
    default:
        break;
    }
    if ((ki->type == PT_ENUM || ki->type == PT_ID) && !out->s)
        out->s = "";
}
