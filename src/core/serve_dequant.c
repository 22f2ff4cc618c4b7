/*
 * serve_dequant.c - FP8 GEMMs whose scales the engine cannot fuse.
 *
 * An FP8 checkpoint scaled per output channel, with activations scaled
 * per token as they arrive (software.fp8_scaling = row: Meta's
 * Llama-3.1-*-FP8, quant_method fbgemm_fp8), needs a GEMM that applies
 * both scale vectors in its epilogue.  vLLM has one on NVIDIA (CUTLASS
 * scaled_mm); on ROCm vLLM 0.6 does not (torch._scaled_mm took one scale
 * per tensor until torch 2.7), so w8a8_utils.apply_fp8_linear takes its
 * "Fallback for channelwise case, where we use unfused DQ":
 *
 *     output = torch._scaled_mm(qinput, weight, out_dtype=torch.float32)
 *     output = output * x_scale * weight_scale.t()
 *     return output.to(dtype=input.dtype)
 *
 * Per output element that is 4 bytes written by the GEMM, read and
 * written in fp32 by each of the two multiplies (16) and read by the cast,
 * which writes 2: 26 bytes through HBM where the fused kernel writes 2,
 * 24 more.  The per-token scales cost one more read of each GEMM input (2
 * bytes an element: the row maximum before the cast to FP8, which a
 * static per-tensor scale does not need).  Every linear layer of every
 * transformer layer pays them (the output layer stays in 16 bits); a pass
 * adds their HBM time, on top of the weights and the KV the step counts.
 * Where the stack fuses the scales (stacks fp8_row_fused_on lists the
 * vendor, or is empty) this is 0.
 */
#include "core/serve.h"
#include "core/serve_int.h"

/* fp32 GEMM output, two fp32 multiplies, the cast to 16 bits, less the
 * 16-bit write of a fused epilogue */
#define DQ_OUT_BYTES (4.0 + 2 * (4.0 + 4.0) + 4.0 + 2.0 - 2.0)
/* the per-token maximum reads the 16-bit input once more */
#define DQ_IN_BYTES 2.0

void serve_dequant_init(const struct scenario *sc, const struct model_shape *m,
                        struct engine *e)
{
    const struct serve_spec *sv = &sc->serve;
    double tp = e->tp >= 1 ? e->tp : 1, kv, gate, ffn_dense, ffn_moe;
    double out_attn, in_attn, out_dense, in_dense, out_moe, in_moe;

    e->dq_tok = 0;
    if (sv->weights != SD_FP8 || sc->recipe.fp8_scaling != FP8_SCALING_ROW ||
        !(sc->accel.peak_flops[PREC_FP8] > 0) ||
        spec_vendor_listed(sc->stack.fp8_row_fused_on, sc->accel.vendor))
        return;
    /* KV heads split while tp <= a_kv; beyond, each rank keeps one */
    kv = m->a_kv / tp < 1 ? 1 : m->a_kv / tp;
    gate = m->gated ? 2 : 1;
    /* Attention: QKV (h in, q + 2 kv heads out) and O (its heads in, the
     * whole h out before the all-reduce). */
    out_attn = (m->a / tp * m->d_qk + kv * (m->d_qk + m->d_v)) + m->h;
    in_attn = m->h + m->a / tp * m->d_v;
    /* FFN: gate-up (h in, gate x f out) and down (f in, h out); a MoE
     * layer runs them for each routed copy and shared expert. */
    ffn_dense = m->f / tp;
    ffn_moe = (m->top_k + m->shared) * m->f_expert / tp;
    out_dense = gate * ffn_dense + m->h;
    in_dense = m->h + ffn_dense;
    out_moe = (m->top_k + m->shared) * m->h + gate * ffn_moe;
    in_moe = (m->top_k + m->shared) * m->h + ffn_moe;
    e->dq_tok =
        (m->L * (DQ_OUT_BYTES * out_attn + DQ_IN_BYTES * in_attn) +
         m->dense_layers * (DQ_OUT_BYTES * out_dense + DQ_IN_BYTES * in_dense) +
         m->moe_layers * (DQ_OUT_BYTES * out_moe + DQ_IN_BYTES * in_moe)) /
        e->pp;
}

double serve_dequant_s(const struct engine *e, double tokens)
{
    return tokens > 0 && e->dq_tok > 0 && e->bw > 0
               ? tokens * e->dq_tok / e->bw * e->pp
               : 0;
}

double serve_dequant_bytes(const struct scenario *sc,
                           const struct model_shape *m)
{
    struct engine e;

    serve_engine_init(sc, m, &e);
    return e.dq_tok;
}
