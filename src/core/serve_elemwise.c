/*
 * serve_elemwise.c - the activation traffic of the routed experts behind
 * an all-to-all dispatcher (wide EP: attention DP ranks beside EP).
 *
 * There the routed path is a chain of kernels, each streaming the routed
 * copies of the rank's tokens through HBM (the SGLang large-scale EP blog,
 * 2025-05-05, "DeepGEMM Integration": DeepEP dispatch into the grouped
 * GEMM's masked layout in decode, into its contiguous layout after an
 * extra permutation kernel in prefill; vLLM wide-EP and TensorRT-LLM
 * WideEP run the same chain): the grouped GEMM 1 reads the dispatched
 * token (h, in the dispatch format) and writes gate and up (2 f, 16 bits;
 * f without a gate), the activation reads them and writes f (8 bits with
 * 8- or 4-bit weights, the next GEMM's input, else 16), the grouped GEMM 2
 * reads that and writes h in 16 bits for the combine to send; a prefill
 * pass first permutes the received tokens (read and write h).  Per copy
 * and MoE layer that is ~42 KB for DeepSeek-V3 (h 7168, f 2048, fp8
 * dispatch); at a thousand tokens a rank the decode step moves ~21 GB
 * through them.  The weights and the KV are counted by the step; these
 * activations are what a large batch adds, in kernels of their own
 * between the GEMMs: a pass adds their HBM time.  Without the dispatcher
 * (TP or EP inside one replica of one batch) the engines fuse the gather
 * and the finalize into the grouped GEMMs, and the fitted engine knobs
 * carry what is left.
 */
#include "core/serve.h"
#include "core/serve_int.h"

/* 16-bit activations between the kernels */
#define ACT_BYTES 2.0

void serve_elemwise_init(const struct scenario *sc, const struct model_shape *m,
                         struct engine *e)
{
    double ep = (double)sc->layout.ep, gate, act_out, copies, per;

    e->ew_tok = 0;
    e->ew_permute = 0;
    if (!(m->experts >= 2 && ep > 1 && e->moe_group > 1))
        return;
    gate = m->gated ? 2 : 1;
    act_out = serve_dispatch_fp8(sc->serve.comm, sc->serve.weights)
                  ? 1 + 4.0 / 128
                  : ACT_BYTES;
    /* a rank's tokens' copies spread over the ep GPUs of the replica */
    copies = m->top_k * e->moe_group / ep;
    per = m->h * (e->a2a.bytes_el - ACT_BYTES) /* GEMM 1 reads the token */
          + 2 * gate * m->f_expert * ACT_BYTES /* gate-up out and in */
          + 2 * m->f_expert * act_out          /* activation out, GEMM 2 in */
          + m->h * ACT_BYTES;                  /* GEMM 2 out */
    e->ew_tok = copies * m->moe_layers * per / e->pp;
    /* prefill: the permutation reads and writes each received token */
    e->ew_permute = copies * m->moe_layers * 2 * m->h *
                    (e->a2a.bytes_el - ACT_BYTES) / e->pp;
}

double serve_elemwise_s(const struct engine *e, double tokens, bool prefill)
{
    double bytes = e->ew_tok + (prefill ? e->ew_permute : 0);

    return tokens > 0 && e->bw > 0 ? tokens * bytes / e->bw * e->pp : 0;
}

double serve_routed_act_bytes(const struct scenario *sc,
                              const struct model_shape *m, bool prefill)
{
    struct engine e;

    serve_engine_init(sc, m, &e);
    return e.ew_tok + (prefill ? e.ew_permute : 0);
}
