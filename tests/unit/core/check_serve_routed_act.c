/*
 * check_serve_routed_act.c - the routed experts' activations behind an
 * all-to-all dispatcher (serve_elemwise.c): per routed copy and MoE layer
 * the grouped GEMM 1 reads the dispatched token and writes gate and up,
 * the activation reads them and writes the GEMM 2 input, GEMM 2 reads it
 * and writes the token back for the combine; a prefill pass permutes the
 * received tokens first.  A decode step or prefill pass adds their HBM
 * time.
 */
#include <math.h>
#include <string.h>

#include "check_helpers.h"
#include "core/model.h"
#include "core/scenario.h"
#include "core/serve.h"
#include "fixture.h"

static void wide_ep(struct scenario *sc, uint64_t tp, uint64_t ep, uint64_t adp,
                    enum serve_dtype w)
{
    fixture_wide_ep(sc);
    sc->layout.tp = tp;
    sc->layout.ep = ep;
    sc->gpus = tp * adp;
    sc->serve.weights = w;
    sc->serve.output_tokens = 100;
    sc->serve.mode = SERVE_OFFLINE;
    sc->serve.attention_dp = adp;
    sc->serve.pool = POOL_DECODE;
}

/* By hand, h 7168, f 2048, gated, 61 MoE layers, k 8.  fp8 dispatch
 * (1 + 4/128 B an element): per copy 7168 x 1.03125 (GEMM 1 in) + 2 x 2
 * x 2048 x 2 (gate-up out and in) + 2 x 2048 x 1.03125 (activation out,
 * GEMM 2 in) + 7168 x 2 (GEMM 2 out) = 42,336 B; bf16: 14,336 + 16,384 +
 * 8,192 + 14,336 = 53,248 B.  Per token: copies x 61 x that, copies =
 * k x attention_dp / ep.  Prefill adds 2 x 7168 x dispatch bytes a copy. */
/* clang-format off */
static const struct act_case {
    uint64_t tp, ep, adp;
    enum serve_dtype w;         /* inputs */
    double decode_b, prefill_b; /* expected bytes per token */
    const char *source;
} cases[] = {
    {1, 32, 32, SD_FP8, 20659968, 27874560,
     "EP32 x ADP32 fp8: 8 x 61 x 42,336; + 8 x 61 x 14,784"},
    {1, 32, 32, SD_BF16, 25985024, 39976960,
     "EP32 x ADP32 bf16 dispatch: 8 x 61 x 53,248; + 8 x 61 x 28,672"},
    {2, 8, 4, SD_FP8, 10329984, 13937280,
     "TP2 x ADP4, EP8: 4 copies a GPU (8 x 4 / 8)"},
    {8, 8, 1, SD_FP8, 0, 0,
     "TP8 EP8, one batch: no dispatcher, the engine's fused MoE"},
};
/* clang-format on */

START_TEST(test_routed_act_table)
{
    const struct act_case *c = &cases[_i];
    struct scenario sc;
    struct model_shape m;

    wide_ep(&sc, c->tp, c->ep, c->adp, c->w);
    model_shape_derive(&sc.model, 2100, &m);
    ck_assert_msg(
        fabs(serve_routed_act_bytes(&sc, &m, false) - c->decode_b) < 1,
        "%s: %.0f", c->source, serve_routed_act_bytes(&sc, &m, false));
    ck_assert_msg(fabs(serve_routed_act_bytes(&sc, &m, true) - c->prefill_b) <
                      1,
                  "%s: %.0f", c->source, serve_routed_act_bytes(&sc, &m, true));
}
END_TEST

/* The decode step pays them: at a batch of b a rank the step lasts at
 * least b tokens' bytes over the HBM bandwidth the step reads at, and
 * the bytes grow with the tokens, so doubling the batch adds them. */
START_TEST(test_routed_act_in_step)
{
    struct scenario sc;
    struct model_shape m;
    struct result r;
    struct diag d;
    double bw = 3.35e12 * 0.85 * 0.75, per;

    wide_ep(&sc, 1, 32, 32, SD_FP8);
    model_shape_derive(&sc.model, 2100, &m);
    per = serve_routed_act_bytes(&sc, &m, false);
    diag_clear(&d);
    ck_assert_msg(scenario_validate(&sc, &d) == CP_OK, "%s: %s", d.where,
                  d.msg);
    scenario_eval(&sc, &r);
    ck_assert(r.serve.fits);
    ck_assert(r.serve.batch >= 32);
    ck_assert(r.serve.decode_step_ms / 1e3 > r.serve.batch / 32 * per / bw);
}
END_TEST

Suite *suite_serve_routed_act(void); /* listed by the Makefile */

Suite *suite_serve_routed_act(void)
{
    Suite *s = suite_create("serve_routed_act");
    TCase *core = tcase_create("core");

    tcase_add_loop_test(core, test_routed_act_table, 0,
                        (int)(sizeof(cases) / sizeof(cases[0])));
    tcase_add_test(core, test_routed_act_in_step);
    suite_add_tcase(s, core);
    return s;
}
