/*
 * serve_offload.c - serving with part of the weights in host memory
 * (serve.offload=weights).
 *
 * A replica whose weights leave HBM too little room keeps the excess in
 * the host's memory and streams it to the GPU over the host link every
 * forward pass, a layer ahead of its use, into a staging buffer of one
 * layer (SGLang's layer-wise weight offload with prefetching, which the
 * LMSYS blog 2025-09-25, "GB200 part II", used for the 2-GPU DeepSeek
 * prefill instances; vLLM "weight offloading v2 with asynchronous
 * prefetching" on GB200 likewise).  The copy overlaps the layers' compute
 * and HBM reads, so a pass costs the longer of its own time and the link
 * time of the offloaded bytes, not their sum.
 */
#include <math.h>

#include "core/serve_int.h"

double serve_chunk_act_bytes(const struct engine *e,
                             const struct model_shape *m)
{
    /* A chunk's activations in 16 bits: residual, QKV, attention output
     * and the FFN intermediate (gated: two) live at once, per TP rank. */
    return e->chunk * 2 *
           (3 * m->h +
            (m->gated ? 2 : 1) * (m->f > 0 ? m->f : 4 * m->h) / e->tp);
}

/* The KV bytes per GPU that the requests of one prefill chunk hold over
 * their whole length (at least one request's): what the GPU must keep
 * room for to run at all. */
static double chunk_kv_bytes(const struct scenario *sc, const struct engine *e)
{
    double in = (double)sc->serve.input_tokens;
    double len = in + (double)sc->serve.output_tokens;
    double reqs = in > 0 ? floor(e->chunk / in) : 1;

    return (reqs >= 1 ? reqs : 1) * len * e->kv_tok;
}

void serve_offload_init(const struct scenario *sc, const struct model_shape *m,
                        struct engine *e)
{
    double frac = sc->stack.kv_mem_frac > 0 ? sc->stack.kv_mem_frac : 0.9;
    double layer, excess;

    e->w_host = 0;
    e->w_stage = 0;
    e->host_bps = sc->system.host_link_bps;
    if (sc->serve.offload != SOFF_WEIGHTS || !(e->host_bps > 0) || !(e->L > 0))
        return;
    /* the KV pool is kv_mem_frac of what is left: room for the chunk's KV
     * needs that over frac */
    excess = e->w_gpu + serve_chunk_act_bytes(e, m) +
             sc->stack.mem_reserve_bytes + chunk_kv_bytes(sc, e) / frac -
             sc->accel.hbm_bytes;
    if (!(excess > 0))
        return;
    /* every offloaded byte frees one, less the layer staged ahead */
    layer = e->w_gpu / e->L;
    e->w_stage = layer;
    e->w_host = fmin(excess + layer, e->w_gpu);
}

double serve_offload_link_s(const struct engine *e)
{
    return e->w_host > 0 && e->host_bps > 0 ? e->w_host / e->host_bps * e->pp
                                            : 0;
}

double serve_offload_pass_s(const struct engine *e, double pass_s)
{
    double link = serve_offload_link_s(e);

    return link > pass_s ? link : pass_s;
}

double serve_offload_host_share(const struct scenario *sc)
{
    double gpn =
        sc->system.gpus_per_node >= 1 ? (double)sc->system.gpus_per_node : 1;

    return sc->system.host_mem_bytes > 0 ? sc->system.host_mem_bytes / gpn : 0;
}
