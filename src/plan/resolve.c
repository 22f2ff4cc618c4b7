/*
 * resolve.c - plan -> scenario: required keys, catalog rows, explicit
 * overrides and the auto layout; evaluate.c runs it, echo.c prints its
 * values back.  See resolve.h.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "plan/resolve.h"

#include "core/model.h"

/* When the catalog names no default stack for the accelerator's vendor
 * (software.stack's help in core/fields.h says which it names). */
#define DEFAULT_STACK "megatron-core"
#define DEFAULT_SERVE_STACK "vllm"

/* The id key k names: the plan's, else the default its row shows in
 * --help (hardware.storage, site.id). */
static const char *id_or_default(const struct plan *p, enum plan_key k)
{
    return p->v[k].set ? p->v[k].id : plan_key_info(k)->def;
}

static const char *where_of(const struct plan *p, enum plan_key k)
{
    const struct plan_value *v = &p->v[k];

    return v->origin ? v->origin : plan_key_info(k)->name;
}

/* A catalog getter's NOT_FOUND becomes "<key>: unknown <kind> 'id'"; other
 * failures (the database) pass through. */
static enum cp_status lookup_failed(enum cp_status st, const struct plan *p,
                                    enum plan_key k, const char *id,
                                    struct diag *d)
{
    const struct field_info *ki = plan_key_info(k);

    static const char *const singular[CATALOG_KIND_COUNT] = {
        [CATALOG_ACCELERATORS] = "accelerator",
        [CATALOG_SYSTEMS] = "system",
        [CATALOG_FABRICS] = "fabric",
        [CATALOG_STORAGE] = "storage",
        [CATALOG_SITES] = "site",
        [CATALOG_CLOUD] = "cloud offer",
        [CATALOG_MODELS] = "model",
        [CATALOG_STACKS] = "stack",
    };

    if (st != CP_ERR_NOT_FOUND)
        return st;
    return diag_set(d, CP_ERR_NOT_FOUND, where_of(p, k),
                    "unknown %s '%s' (see 'llmplan catalog list %s')",
                    singular[plan_key_kind(ki)], id,
                    catalog_kind_name(plan_key_kind(ki)));
}

static void add_source(struct plan_resolved *out, enum plan_key k,
                       const char *id, const struct catalog_meta *meta)
{
    struct plan_source *s;

    if (out->nsources >= PLAN_SOURCES_MAX)
        return;
    s = &out->sources[out->nsources++];
    s->kind = plan_key_kind(plan_key_info(k));
    s->key = plan_key_info(k)->name;
    snprintf(s->id, sizeof(s->id), "%s", id);
    s->meta = *meta;
}

static void add_note(struct plan_resolved *out, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void add_note(struct plan_resolved *out, const char *fmt, ...)
{
    va_list ap;

    if (out->nnotes >= PLAN_NOTES_MAX)
        return;
    va_start(ap, fmt);
    vsnprintf(out->notes[out->nnotes++], RESULT_WARNING_MAX, fmt, ap);
    va_end(ap);
}

/* Write the value of key k into the scenario field it lands in. */
static void store(struct scenario *sc, enum plan_key k,
                  const struct plan_value *v)
{
    const struct field_info *ki = plan_key_info(k);
    char *field = (char *)sc + ki->offset;
    uint64_t u = v->u;
    double x = ki->type == PT_NUMBER ? v->d : (double)v->u;
    bool b = v->u != 0;
    int e = ki->enum_values ? ki->enum_values[v->u] : (int)v->u;

    switch (ki->store) {
    case PS_NONE:
        break;
    case PS_U64:
        memcpy(field, &u, sizeof(u));
        break;
    case PS_F64:
        memcpy(field, &x, sizeof(x));
        break;
    case PS_BOOL:
        memcpy(field, &b, sizeof(b));
        break;
    case PS_INT:
        memcpy(field, &e, sizeof(e));
        break;
    }
}

static bool fixed(const struct plan *p, enum plan_key k)
{
    return p->v[k].set && !p->v[k].is_auto;
}

/* Layout: fixed values into sc->layout and the search space. */
static void resolve_layout(const struct plan *p, struct plan_resolved *out)
{
    struct search_space *sp = &out->space;
    struct layout *lay = &out->sc.layout;
    static const enum plan_key searched[] = {
        PK_PAR_TP, PK_PAR_PP,         PK_PAR_DP,        PK_PAR_CP,
        PK_PAR_EP, PK_PAR_MICROBATCH, PK_PAR_RECOMPUTE, PK_PAR_ZERO,
    };
    size_t i;

    search_space_auto(sp);
    sp->tp = fixed(p, PK_PAR_TP) ? lay->tp : 0;
    sp->pp = fixed(p, PK_PAR_PP) ? lay->pp : 0;
    sp->dp = fixed(p, PK_PAR_DP) ? lay->dp : 0;
    sp->cp = fixed(p, PK_PAR_CP) ? lay->cp : 0;
    sp->ep = fixed(p, PK_PAR_EP) ? lay->ep : 0;
    sp->microbatch = fixed(p, PK_PAR_MICROBATCH) ? lay->microbatch : 0;
    sp->interleave = fixed(p, PK_PAR_INTERLEAVE) ? lay->interleave : 0;
    /* unset or auto: the search tries every interleave that fits */
    sp->interleave_auto = !fixed(p, PK_PAR_INTERLEAVE);
    sp->recompute = fixed(p, PK_PAR_RECOMPUTE) ? (int)lay->recompute : -1;
    /* auto (given or not): the search chooses the kernel per layout */
    sp->attention = out->sc.train.attention == ATTN_AUTO
                        ? -1
                        : (int)out->sc.train.attention;
    sp->zero = fixed(p, PK_PAR_ZERO) ? lay->zero : -1;
    sp->sequence_parallel =
        fixed(p, PK_PAR_SEQUENCE_PARALLEL) ? (int)lay->sequence_parallel : -1;
    /* A dense model has nothing to spread over experts. */
    if (!sp->ep && out->sc.model.experts < 2) {
        sp->ep = 1;
        lay->ep = 1;
    }
    if (!sp->interleave)
        lay->interleave = 1;
    if (sp->sequence_parallel < 0)
        lay->sequence_parallel = lay->tp > 1;
    out->needs_search = false;
    for (i = 0; i < sizeof(searched) / sizeof(searched[0]); i++)
        if (!fixed(p, searched[i]) && !(searched[i] == PK_PAR_EP && sp->ep))
            out->needs_search = true;
}

/* train.global_batch = auto: the high end of the tokens-per-step band of
 * published runs of this model size (model_auto_global_batch).  A model
 * that does not validate keeps the default; validation names it later. */
static void resolve_auto_batch(struct plan_resolved *out)
{
    struct scenario *sc = &out->sc;
    struct model_shape m;
    struct diag tmp;
    double lo, hi;

    sc->train.batch_auto = true;
    if (scenario_validate_model(sc, &tmp) != CP_OK)
        return;
    model_shape_derive(&sc->model, (double)sc->train.seq_len, &m);
    if (!(m.params > 0) || !isfinite(m.params))
        return;
    sc->train.global_batch =
        model_auto_global_batch(m.params, sc->train.seq_len, &lo, &hi);
    add_note(
        out,
        "train.global_batch=auto: %llu sequences of %llu (%.3gM "
        "tokens per step, the high end of the %.3g-%.3gM band of "
        "published runs of %.*fB-parameter models)",
        (unsigned long long)sc->train.global_batch,
        (unsigned long long)sc->train.seq_len,
        (double)sc->train.global_batch * (double)sc->train.seq_len / 1048576,
        lo / 1048576, hi / 1048576, m.params < 10e9 ? 1 : 0, m.params / 1e9);
}

/* A serving plan: one replica of tp x pp GPUs (ep inside it); replicas
 * = gpus / (tp x pp), or sized by serve.c when hardware.gpus = auto.
 * Unset tp is chosen by the serving search. */
static void resolve_serve(const struct plan *p, struct plan_resolved *out)
{
    struct scenario *sc = &out->sc;
    struct layout *lay = &sc->layout;

    search_space_auto(&out->space);
    if (!fixed(p, PK_PAR_TP))
        lay->tp = 1;
    if (!fixed(p, PK_PAR_PP))
        lay->pp = 1;
    if (!fixed(p, PK_PAR_EP))
        lay->ep = 1;
    lay->cp = 1;
    lay->microbatch = 1;
    lay->interleave = 1;
    lay->zero = 0;
    lay->recompute = RECOMPUTE_NONE;
    lay->sequence_parallel = false;
    sc->serve.gpus_auto = p->v[PK_HW_GPUS].is_auto;
    sc->serve.window_stated = p->v[PK_SERVE_WINDOW_REQUESTS].set;
    if (sc->serve.gpus_auto)
        sc->gpus = lay->tp * lay->pp;
    lay->dp =
        sc->gpus / (lay->tp * lay->pp) ? sc->gpus / (lay->tp * lay->pp) : 1;
    out->space.tp = fixed(p, PK_PAR_TP) ? lay->tp : 0;
    out->space.pp = fixed(p, PK_PAR_PP) ? lay->pp : 0;
    out->space.ep = fixed(p, PK_PAR_EP) ? lay->ep : 0;
    out->needs_search = !fixed(p, PK_PAR_TP);
}

/* Whether a stack runs on an accelerator vendor: its runs_on lists the
 * vendor, or says nothing (a row imported without it). */
static bool stack_runs_on(const struct stack_spec *st, const char *vendor)
{
    return spec_vendor_listed(st->runs_on, vendor);
}

/* The software stack: the plan's, which must run on the accelerator
 * (issue 18 item 6), else the accelerator's own (the catalog stack whose
 * default_on names its vendor: TPU -> maxtext, NVIDIA and AMD ->
 * megatron-core, Gaudi -> megatron-deepspeed, serving -> vllm), else the
 * built-in default with a note. */
static enum cp_status resolve_stack(const struct plan *p, struct catalog *cat,
                                    struct plan_resolved *out,
                                    struct catalog_meta *meta, struct diag *d)
{
    struct scenario *sc = &out->sc;
    const char *vendor = sc->accel.vendor;
    bool explicit = p->v[PK_SOFTWARE_STACK].set;
    char id[CP_ID_MAX];
    struct diag tmp;
    enum cp_status st = CP_OK;

    if (explicit)
        snprintf(id, sizeof(id), "%s", p->v[PK_SOFTWARE_STACK].id);
    else
        st = catalog_default_stack(cat, vendor, sc->workload, id, &tmp);
    if (st == CP_ERR_NOT_FOUND)
        snprintf(id, sizeof(id), "%s",
                 sc->workload == WORKLOAD_SERVE ? DEFAULT_SERVE_STACK
                                                : DEFAULT_STACK);
    else if (st) {
        if (d)
            *d = tmp;
        return st;
    }
    st = catalog_get_stack(cat, id, &sc->stack, meta, d);
    if (st)
        return lookup_failed(st, p, PK_SOFTWARE_STACK, id, d);
    if (stack_runs_on(&sc->stack, vendor))
        return CP_OK;
    if (explicit)
        return diag_set(d, CP_ERR_USAGE, where_of(p, PK_SOFTWARE_STACK),
                        "'%s' does not run on %s (%s); it runs on %s",
                        sc->stack.id, sc->accel.id, vendor, sc->stack.runs_on);
    add_note(out,
             "no %s stack in the catalog runs on %s (%s): %s's calibration "
             "stands in",
             workload_name(sc->workload), sc->accel.id, vendor, sc->stack.id);
    return CP_OK;
}

/* The keys a plan cannot do without, checked before any catalog lookup so
 * the message names what is missing; sets sc->workload on the way. */
static enum cp_status check_required_keys(const struct plan *p, unsigned flags,
                                          struct scenario *sc, struct diag *d)
{
    if (!p->v[PK_HW_ACCELERATOR].set)
        return diag_set(d, CP_ERR_USAGE, "hardware.accelerator",
                        "missing: which accelerator (e.g. --accel h100-sxm)");
    if (p->v[PK_WORKLOAD_KIND].set)
        sc->workload = (enum workload_kind)p->v[PK_WORKLOAD_KIND].u;
    if (!p->v[PK_HW_GPUS].set)
        return diag_set(d, CP_ERR_USAGE, "hardware.gpus",
                        sc->workload == WORKLOAD_SERVE
                            ? "missing: how many accelerators, or auto to "
                              "size the fleet for the demand"
                            : "missing: how many accelerators (e.g. --gpus "
                              "1024)");
    if (p->v[PK_HW_GPUS].is_auto && sc->workload != WORKLOAD_SERVE)
        return diag_set(d, CP_ERR_USAGE, where_of(p, PK_HW_GPUS),
                        "auto sizes serving fleets (workload.kind=serve); "
                        "a training plan needs a count");
    if ((flags & PLAN_NEED_TOKENS) && sc->workload == WORKLOAD_TRAIN &&
        !p->v[PK_TRAIN_TOKENS].set)
        return diag_set(d, CP_ERR_USAGE, "train.tokens",
                        "missing: how many training tokens (e.g. --tokens "
                        "15T)");
    if (!p->v[PK_MODEL_PRESET].set && !p->v[PK_MODEL_PARAMS].set &&
        !p->v[PK_MODEL_LAYERS].set)
        return diag_set(d, CP_ERR_USAGE, "model.preset",
                        "missing: a catalog model (e.g. --model llama3-70b) "
                        "or model.params / model.layers");

    return CP_OK;
}

/* The system (given or the accelerator's default), its fabric, the storage
 * and the site, each with its source. */
static enum cp_status resolve_site_rows(const struct plan *p,
                                        struct catalog *cat,
                                        struct plan_resolved *out,
                                        struct diag *d)
{
    struct scenario *sc = &out->sc;
    struct catalog_meta meta;
    char id[CP_ID_MAX];
    enum cp_status st;

    if (p->v[PK_HW_SYSTEM].set) {
        snprintf(id, sizeof(id), "%s", p->v[PK_HW_SYSTEM].id);
    } else {
        st = catalog_default_system(cat, sc->accel.id, id, d);
        if (st == CP_ERR_NOT_FOUND)
            return diag_set(d, CP_ERR_USAGE, "hardware.system",
                            "missing: no system in the catalog is built "
                            "from '%s'",
                            sc->accel.id);
        if (st)
            return st;
    }
    st = catalog_get_system(cat, id, &sc->system, &meta, d);
    if (st)
        return lookup_failed(st, p, PK_HW_SYSTEM, id, d);
    add_source(out, PK_HW_SYSTEM, id, &meta);
    if (sc->system.accel_id[0] && strcmp(sc->system.accel_id, sc->accel.id))
        add_note(out, "system '%s' is built from %s, not %s", sc->system.id,
                 sc->system.accel_id, sc->accel.id);

    if (p->v[PK_HW_FABRIC].set)
        snprintf(id, sizeof(id), "%s", p->v[PK_HW_FABRIC].id);
    else if (sc->system.fabric_id[0])
        snprintf(id, sizeof(id), "%s", sc->system.fabric_id);
    else
        return diag_set(d, CP_ERR_USAGE, "hardware.fabric",
                        "missing: system '%s' names no fabric", sc->system.id);
    st = catalog_get_fabric(cat, id, &sc->fabric, &meta, d);
    if (st)
        return lookup_failed(st, p, PK_HW_FABRIC, id, d);
    add_source(out, PK_HW_FABRIC, id, &meta);

    snprintf(id, sizeof(id), "%s", id_or_default(p, PK_HW_STORAGE));
    st = catalog_get_storage(cat, id, &sc->storage, &meta, d);
    if (st)
        return lookup_failed(st, p, PK_HW_STORAGE, id, d);
    add_source(out, PK_HW_STORAGE, id, &meta);

    snprintf(id, sizeof(id), "%s", id_or_default(p, PK_SITE_ID));
    st = catalog_get_site(cat, id, &sc->site, &meta, d);
    if (st)
        return lookup_failed(st, p, PK_SITE_ID, id, d);
    add_source(out, PK_SITE_ID, id, &meta);
    return CP_OK;
}

/* The cloud offer (given or the cheapest for the accelerator and term) and
 * its hourly price; a missing offer or price is a note unless asked for. */
static enum cp_status resolve_cloud(const struct plan *p, struct catalog *cat,
                                    struct plan_resolved *out, struct diag *d)
{
    struct scenario *sc = &out->sc;
    struct catalog_meta meta;
    enum cloud_term term = TERM_ON_DEMAND;
    char id[CP_ID_MAX];
    enum cp_status st;

    if (p->v[PK_CLOUD_TERM].set)
        term = (enum cloud_term)p->v[PK_CLOUD_TERM].u;
    if (p->v[PK_CLOUD_OFFER].set) {
        snprintf(id, sizeof(id), "%s", p->v[PK_CLOUD_OFFER].id);
        st = CP_OK;
    } else {
        st = catalog_default_cloud_for(cat, sc->accel.id, term,
                                       p->v[PK_HW_GPUS].u, id, d);
        if (st && st != CP_ERR_NOT_FOUND)
            return st;
    }
    if (st == CP_OK) {
        st = catalog_get_cloud(cat, id, term, &sc->cloud, &meta, d);
        if (st)
            return lookup_failed(st, p, PK_CLOUD_OFFER, id, d);
        add_source(out, PK_CLOUD_OFFER, id, &meta);
        sc->cloud_usd_per_gpu_hour = sc->cloud.usd_per_gpu_hour[term];
        if (!(sc->cloud_usd_per_gpu_hour > 0) &&
            !p->v[PK_CLOUD_USD_PER_GPU_HOUR].set) {
            if (p->v[PK_CLOUD_OFFER].set)
                return diag_set(d, CP_ERR_NOT_FOUND, where_of(p, PK_CLOUD_TERM),
                                "cloud offer '%s' has no %s price", id,
                                term_name(term));
            add_note(out, "cloud offer '%s' has no %s price", id,
                     term_name(term));
        }
    } else if (!p->v[PK_CLOUD_USD_PER_GPU_HOUR].set) {
        add_note(out,
                 "no cloud offer for %s at %s in the catalog: no cloud cost "
                 "(set cloud.usd_per_gpu_hour)",
                 sc->accel.id, term_name(term));
    }
    return CP_OK;
}

/* An explicit parameter count over a preset is a different model: its
 * shape is derived from the count (the preset's depth and vocabulary
 * kept), never the preset's width with another count, which would
 * time one model and count the FLOPs of another (issue 14, item 5).
 * A mixture of experts cannot be resized by a count alone. */
static enum cp_status resize_preset_by_count(const struct plan *p,
                                             struct plan_resolved *out,
                                             struct diag *d)
{
    struct scenario *sc = &out->sc;

    if (p->v[PK_MODEL_PRESET].set && p->v[PK_MODEL_PARAMS].set &&
        !p->v[PK_MODEL_HIDDEN].set) {
        if (sc->model.experts > 1 && !p->v[PK_MODEL_EXPERTS].set)
            return diag_set(d, CP_ERR_USAGE, where_of(p, PK_MODEL_PARAMS),
                            "cannot resize the mixture-of-experts preset "
                            "'%s' by a count; give its shape keys instead",
                            sc->model.id);
        sc->model.hidden = sc->model.heads = sc->model.kv_heads = 0;
        sc->model.ffn = sc->model.head_dim = 0;
        sc->model.gated_ffn = false;
        sc->model.attention = MATTN_MHA;
        sc->model.kv_lora_rank = sc->model.q_lora_rank = 0;
        sc->model.rope_head_dim = 0;
        add_note(out,
                 "model.params replaces the shape of '%s': width, heads and "
                 "FFN are derived from the count (its depth and vocabulary "
                 "kept)",
                 sc->model.id);
    }
    return CP_OK;
}

enum cp_status plan_resolve(const struct plan *p, struct catalog *cat,
                            unsigned flags, struct plan_resolved *out,
                            struct diag *d)
{
    struct scenario *sc = &out->sc;
    struct catalog_meta meta, ameta;
    enum cp_status st;
    size_t i;

    memset(out, 0, sizeof(*out));
    scenario_defaults(sc);

    st = check_required_keys(p, flags, sc, d);
    if (st)
        return st;

    /* Catalog rows. */
    if (catalog_defaults_outdated(cat))
        add_note(out, "the catalog predates this version's built-in prices "
                      "and calibration: `llmplan catalog reset` updates it "
                      "(plans are kept; re-import your own rows)");
    if (p->v[PK_MODEL_PRESET].set) {
        const char *mid = p->v[PK_MODEL_PRESET].id;

        st = catalog_get_model(cat, mid, &sc->model, &meta, d);
        if (st)
            return lookup_failed(st, p, PK_MODEL_PRESET, mid, d);
        add_source(out, PK_MODEL_PRESET, mid, &meta);
    }
    st = catalog_get_accel(cat, p->v[PK_HW_ACCELERATOR].id, &sc->accel, &ameta,
                           d);
    if (st)
        return lookup_failed(st, p, PK_HW_ACCELERATOR,
                             p->v[PK_HW_ACCELERATOR].id, d);
    st = resolve_stack(p, cat, out, &meta, d);
    if (st)
        return st;
    add_source(out, PK_SOFTWARE_STACK, sc->stack.id, &meta);
    add_source(out, PK_HW_ACCELERATOR, sc->accel.id, &ameta);
    /* bf16 is the default only where the accelerator has it (V100: fp16). */
    if (!p->v[PK_TRAIN_PRECISION].set &&
        !(sc->accel.peak_flops[PREC_BF16] > 0)) {
        sc->train.precision =
            sc->accel.peak_flops[PREC_FP16] > 0 ? PREC_FP16 : PREC_FP32;
        add_note(out, "%s has no bf16: train.precision is %s", sc->accel.id,
                 precision_name(sc->train.precision));
    }

    st = resolve_site_rows(p, cat, out, d);
    if (st)
        return st;
    st = resolve_cloud(p, cat, out, d);
    if (st)
        return st;
    sc->reliability.node_mtbf_h = sc->system.node_mtbf_h;

    st = resize_preset_by_count(p, out, d);
    if (st)
        return st;
    /* Explicit keys override the catalog and the defaults. */
    for (i = 0; i < PLAN_KEY_COUNT; i++)
        if (p->v[i].set && !p->v[i].is_auto)
            store(sc, (enum plan_key)i, &p->v[i]);
    if (p->v[PK_MODEL_PARAMS].set || p->v[PK_MODEL_LAYERS].set ||
        p->v[PK_MODEL_HIDDEN].set || p->v[PK_MODEL_HEADS].set) {
        if (!p->v[PK_MODEL_PRESET].set)
            sc->model.id[0] = '\0';
    }
    if (sc->workload == WORKLOAD_TRAIN && p->v[PK_TRAIN_GLOBAL_BATCH].is_auto)
        resolve_auto_batch(out);
    if (sc->workload == WORKLOAD_SERVE) {
        resolve_serve(p, out);
        if (sc->stack.kind != WORKLOAD_SERVE)
            add_note(out,
                     "software.stack '%s' is a training framework; "
                     "serving with its defaults",
                     sc->stack.id);
        return CP_OK;
    }
    resolve_layout(p, out);
    return CP_OK;
}
