/*
 * check_serve_rocm.c - two kernels vLLM 0.6 has on NVIDIA and not on
 * ROCm (stacks custom_ar_on, fp8_row_fused_on; issue 22, x22b).
 *
 * The TP all-reduce: vLLM 0.6's config.py disables its custom all-reduce
 * on AMD GPUs ("Disabled the custom all-reduce kernel because it is not
 * supported on AMD GPUs."), so every all-reduce of a decode step or a
 * prefill pass goes to RCCL at the accelerator's measured latency and
 * bus bandwidth (serve.c tp_allreduce_s).
 *
 * Row-scaled FP8 GEMMs (software.fp8_scaling = row: Meta's FP8
 * checkpoints): without CUTLASS, vLLM 0.6 writes each GEMM's output in
 * fp32 and dequantises it in two multiplies and a cast
 * (w8a8_utils.apply_fp8_linear), 24 bytes an output element more than a
 * fused epilogue, plus one more 2-byte read of each input for the
 * per-token scale (serve_dequant.c).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check_helpers.h"
#include "core/model.h"
#include "core/scenario.h"
#include "core/serve.h"
#include "core/serve_pool.h"
#include "fixture.h"

/* The fixture's Llama 3 70B at tp on an accelerator of `vendor` under a
 * stack whose kernels run on `kernels_on` (empty: everywhere). */
static void rocm_serving(struct scenario *sc, uint64_t tp, const char *vendor,
                         const char *kernels_on)
{
    fixture_serving(sc, tp);
    snprintf(sc->accel.vendor, sizeof(sc->accel.vendor), "%s", vendor);
    snprintf(sc->stack.custom_ar_on, sizeof(sc->stack.custom_ar_on), "%s",
             kernels_on);
    snprintf(sc->stack.fp8_row_fused_on, sizeof(sc->stack.fp8_row_fused_on),
             "%s", kernels_on);
    /* Azure ND MI300X v5 rccl-tests, 1 MiB to 1 GiB (ceilings.csv) */
    sc->accel.nccl_ar_s = 76e-6;
    sc->accel.nccl_ar_bps = 322e9;
    sc->stack.ar_oneshot_bytes = 4e6;
}

/* 2 (tp - 1) / tp x bytes over the bus bandwidth, plus the call */
static double ar_rccl_s(double bytes, double tp)
{
    return 76e-6 + 2 * (tp - 1) / tp * bytes / 322e9;
}

/* the fixture's custom kernel: 450 GB/s x scaleup_frac 0.8, 5 us */
static double ar_custom_s(double bytes, double tp)
{
    return 5e-6 + 2 * (tp - 1) / tp * bytes / (450e9 * 0.8);
}

/* A decode step of b tokens on Llama 3 70B (h 8192, 80 layers) carries
 * 160 all-reduces of b x 8192 x 2 bytes. */
/* clang-format off */
static const struct ar_case {
    const char *vendor, *kernels_on;
    double tp, batch;
    bool rccl;
    const char *source;
} ar_cases[] = {
    {"AMD", "NVIDIA", 8, 1, true,
     "16 kB at tp 8: RCCL although the custom kernel would take it "
     "(config.py: is_hip() disables custom all-reduce)"},
    {"AMD", "NVIDIA", 8, 16, true, "256 kB x 8 < 4 MB: RCCL on ROCm"},
    {"AMD", "NVIDIA", 8, 256, true, "4 MiB: RCCL either way"},
    {"AMD", "NVIDIA", 4, 32, true, "tp 4, 512 kB: RCCL on ROCm"},
    {"NVIDIA", "NVIDIA", 8, 16, false,
     "on NVIDIA the custom kernel below the one-shot limit"},
    {"AMD", "", 8, 16, false,
     "a stack that does not say: its custom kernel everywhere"},
    {"AMD", "NVIDIA AMD", 8, 16, false,
     "a stack with the kernel on AMD (vLLM >= PR 14125, 2025-03)"},
};
/* clang-format on */

START_TEST(test_rocm_allreduce_table)
{
    const struct ar_case *c = &ar_cases[_i];
    struct scenario sc, base;
    struct model_shape m;
    double bytes = c->batch * 8192 * 2, with, without, want;

    rocm_serving(&sc, (uint64_t)c->tp, c->vendor, c->kernels_on);
    rocm_serving(&base, (uint64_t)c->tp, c->vendor, "");
    /* no NCCL curve: the custom kernel at every size */
    base.accel.nccl_ar_bps = 0;
    model_shape_derive(&sc.model, 1, &m);
    with = serve_rank_step_s(&sc, &m, c->batch);
    without = serve_rank_step_s(&base, &m, c->batch);
    want = c->rccl ? 160 * (ar_rccl_s(bytes, c->tp) - ar_custom_s(bytes, c->tp))
                   : 0;
    ck_assert_msg(fabs((with - without) - want) <= 1e-9 + 1e-9 * with,
                  "%s: %g s more, want %g", c->source, with - without, want);
    ck_assert_double_finite(with);
}
END_TEST

/* By hand, Llama 3 70B (a 64, kv 8, d 128, h 8192, f 28672, gated, 80
 * layers): per layer and GPU the linear outputs are QKV (a + 2 kv) d / tp,
 * O h, gate-up 2 f / tp, down h; the inputs h, a d / tp, h, f / tp.
 * 24 B an output element, 2 B an input element.
 *   tp 8: outputs 1,024 + 256 + 8,192 + 7,168 + 8,192 = 24,832; inputs
 *         8,192 + 1,024 + 8,192 + 3,584 = 20,992; 24 x 24,832 + 2 x
 *         20,992 = 637,952 B a layer, x 80 = 51,036,160.
 *   tp 4: outputs 2,048 + 512 + 8,192 + 14,336 + 8,192 = 33,280; inputs
 *         8,192 + 2,048 + 8,192 + 7,168 = 25,600; 849,920 a layer, x 80 =
 *         67,993,600. */
/* clang-format off */
static const struct dq_case {
    const char *vendor;
    uint64_t tp;
    enum serve_dtype w;
    enum fp8_scaling scaling;
    double bytes;
    const char *source;
} dq_cases[] = {
    {"AMD", 8, SD_FP8, FP8_SCALING_ROW, 51036160,
     "Meta FP8 (fbgemm_fp8) on ROCm, tp 8: the unfused fallback"},
    {"AMD", 4, SD_FP8, FP8_SCALING_ROW, 67993600, "the same at tp 4"},
    {"NVIDIA", 8, SD_FP8, FP8_SCALING_ROW, 0,
     "NVIDIA: CUTLASS scaled_mm fuses both scale vectors"},
    {"AMD", 8, SD_FP8, FP8_SCALING_TENSOR, 0,
     "per-tensor scales (amd/...-FP8-KV): torch._scaled_mm fused"},
    {"AMD", 8, SD_FP8, FP8_SCALING_STACK, 0, "the stack's recipe: fused"},
    {"AMD", 8, SD_BF16, FP8_SCALING_ROW, 0, "16-bit weights: no FP8 GEMM"},
};
/* clang-format on */

START_TEST(test_dequant_table)
{
    const struct dq_case *c = &dq_cases[_i];
    struct scenario sc;
    struct model_shape m;
    double got;

    rocm_serving(&sc, c->tp, c->vendor, "NVIDIA");
    sc.serve.weights = c->w;
    sc.recipe.fp8_scaling = c->scaling;
    model_shape_derive(&sc.model, 1, &m);
    got = serve_dequant_bytes(&sc, &m);
    ck_assert_msg(fabs(got - c->bytes) <= 1e-6 * c->bytes + 1e-9,
                  "%s: %.0f B a token, want %.0f", c->source, got, c->bytes);
}
END_TEST

/* The fallback's bytes go through HBM in every decode step and prefill
 * pass: b tokens add b x bytes / the decode bandwidth to the step, and
 * the prompt's prefill gets slower; a stack that fuses the scales is
 * untouched. */
START_TEST(test_dequant_slows_passes)
{
    struct scenario row, fused;
    struct model_shape m;
    struct result rr, rf;
    double b = 256, bytes, bw;

    rocm_serving(&row, 8, "AMD", "NVIDIA");
    rocm_serving(&fused, 8, "AMD", "");
    row.recipe.fp8_scaling = FP8_SCALING_ROW;
    fused.recipe.fp8_scaling = FP8_SCALING_ROW;
    model_shape_derive(&row.model, 1, &m);
    bytes = serve_dequant_bytes(&row, &m);
    ck_assert_double_eq(serve_dequant_bytes(&fused, &m), 0);
    /* the decode bandwidth: HBM x hbm_frac x the stack's mbu */
    bw = row.accel.hbm_bps * row.accel.hbm_frac * row.stack.mbu;
    /* fused has the custom all-reduce; give row the same for the compare */
    snprintf(row.stack.custom_ar_on, sizeof(row.stack.custom_ar_on), "%s", "");
    ck_assert_double_eq_tol(serve_rank_step_s(&row, &m, b) -
                                serve_rank_step_s(&fused, &m, b),
                            b * bytes / bw, 1e-12);
    fixture_eval_ok(&row, &rr);
    fixture_eval_ok(&fused, &rf);
    ck_assert(rr.serve.prefill_ms > rf.serve.prefill_ms);
    ck_assert(rr.serve.decode_step_ms > rf.serve.decode_step_ms);
}
END_TEST

/* spec_vendor_listed: whole words of a space-separated list (stacks
 * runs_on, custom_ar_on, fp8_row_fused_on); an empty list names every
 * vendor. */
/* clang-format off */
static const struct vendor_case {
    const char *list, *vendor;
    bool listed;
} vendor_cases[] = {
    {"NVIDIA", "NVIDIA", true},
    {"NVIDIA AMD", "AMD", true},
    {"  NVIDIA   AMD ", "AMD", true},
    {"NVIDIA", "AMD", false},
    {"NVIDIA", "NV", false},
    {"NV", "NVIDIA", false},
    {"Google NVIDIA", "Google", true},
    {"", "AMD", true},
    {"NVIDIA", "", false},
};
/* clang-format on */

START_TEST(test_vendor_listed)
{
    const struct vendor_case *c = &vendor_cases[_i];

    ck_assert_msg(spec_vendor_listed(c->list, c->vendor) == c->listed,
                  "'%s' in '%s': want %d", c->vendor, c->list, c->listed);
}
END_TEST

Suite *suite_serve_rocm(void); /* listed by the Makefile */

Suite *suite_serve_rocm(void)
{
    Suite *s = suite_create("serve_rocm");
    TCase *core = tcase_create("core");

    tcase_add_loop_test(core, test_rocm_allreduce_table, 0,
                        (int)(sizeof(ar_cases) / sizeof(ar_cases[0])));
    tcase_add_loop_test(core, test_dequant_table, 0,
                        (int)(sizeof(dq_cases) / sizeof(dq_cases[0])));
    tcase_add_test(core, test_dequant_slows_passes);
    tcase_add_loop_test(core, test_vendor_listed, 0,
                        (int)(sizeof(vendor_cases) / sizeof(vendor_cases[0])));
    suite_add_tcase(s, core);
    return s;
}
