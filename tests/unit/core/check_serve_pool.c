/*
 * check_serve_pool.c - wide expert parallelism and disaggregated pools
 * (serve_pool.h): the EP all-to-all, experts spread over attention-DP
 * ranks, a pool measured alone, DeepSeek-V3's EP32 prefill / EP144 decode
 * deployment, and the new keys' errors.
 */
#include <math.h>
#include <string.h>

#include "check_helpers.h"
#include "core/model.h"
#include "core/scenario.h"
#include "core/serve.h"
#include "core/serve_pool.h"
#include "fixture.h"

/* DeepSeek's inference system (DeepSeek-AI 2025, "Day 6: inference
 * system overview") on the fixture's wide-EP engine: a prefill pool of 4
 * nodes, EP 32 with attention DP 32, and a decode pool of 18, EP 144 with
 * attention DP 144. */
static void deepseek_day6(struct scenario *sc)
{
    fixture_wide_ep(sc);
    sc->gpus = 176;
    sc->serve.disaggregated = DISAGG_YES;
    sc->serve.prefill.gpus = 32;
    sc->serve.prefill.ep = 32;
    sc->serve.prefill.attention_dp = 32;
    sc->serve.decode.gpus = 144;
    sc->serve.decode.ep = 144;
    sc->serve.decode.attention_dp = 144;
}

static enum cp_status check(const struct scenario *sc, struct diag *d)
{
    diag_clear(d);
    return scenario_validate(sc, d);
}

/* The dispatcher by hand: per MoE layer and GPU, T/tp k h bytes per
 * element each way, the domain's share over NVLink, the rest over the
 * NIC, two latencies; 61 MoE layers (model.moe_every=1).  H100 fixture:
 * NVLink 450e9 x 0.8, NIC 400 Gbit/s x 0.85 = 42.5e9 B/s. */
START_TEST(test_a2a_by_hand)
{
    struct scenario sc;
    struct model_shape m;
    struct serve_a2a a;
    double el, in, out, want;

    fixture_wide_ep(&sc);
    model_shape_derive(&sc.model, 1, &m);
    ck_assert_double_eq_tol(m.moe_layers, 61, 1e-9); /* moe_every 1 */
    /* no EP: nothing to send */
    serve_a2a_init(&sc, &m, 1, 1, &a);
    ck_assert_double_eq(serve_a2a_s(&a, 256), 0);
    /* EP 8 inside one node: NVLink only */
    serve_a2a_init(&sc, &m, 1, 8, &a);
    el = 256 * 7168 * (1 + 4.0 / 128 + 2); /* fp8 dispatch, bf16 combine */
    want = 61 * (el * 8 * 7 / 8 / (450e9 * 0.8) + 2 * 10e-6);
    ck_assert_double_eq_tol(serve_a2a_s(&a, 256), want, want * 1e-9);
    /* EP 32 over 4 nodes, decode (token by token): 7/32 of the copies on
     * NVLink, 24/32 across the fabric at its latency */
    serve_a2a_init(&sc, &m, 1, 32, &a);
    in = el * 8 * 7 / 32 / (450e9 * 0.8);
    out = el * 8 * 24 / 32 / (400e9 / 8 * 0.85);
    want = 61 * (in + out + 2 * 10e-6); /* alpha: the larger latency */
    ck_assert_double_eq_tol(serve_a2a_s(&a, 256), want, want * 1e-9);
    /* prefill (DeepEP normal): once per remote node the 8 experts touch,
     * 4 (1 - (3/4)^8) 3/4 = 2.70 copies instead of 6 */
    out = el * 4 * (1 - pow(0.75, 8)) * 0.75 / (400e9 / 8 * 0.85);
    want = 61 * (in + out + 2 * 10e-6);
    ck_assert_double_eq_tol(serve_a2a_prefill_s(&a, 256), want, want * 1e-9);
    /* a stack overlapping two micro-batches hides its share */
    sc.stack.ep_overlap = 0.5;
    serve_a2a_init(&sc, &m, 1, 32, &a);
    ck_assert_double_eq_tol(serve_a2a_prefill_s(&a, 256), want / 2,
                            want * 1e-9);
}
END_TEST

/* serve.comm (issue 22 item 3): the dispatch precision set apart from the
 * weights.  Case table {comm, weights, fp8 dispatch, bytes per element},
 * source: DeepEP (deepseek-ai/DeepEP README: dispatch fp8 or bf16,
 * combine bf16) and DeepSeek-V3 tech report 3.3.2 (fp8 activations with
 * one fp32 scale per 1x128 tile). */
START_TEST(test_comm_precision)
{
    static const struct {
        enum serve_comm_prec comm;
        enum serve_dtype weights;
        bool fp8;
        double bytes_el;
    } cases[] = {
        {SCOMM_AUTO, SD_FP8, true, 1 + 4.0 / 128 + 2},
        {SCOMM_AUTO, SD_FP4, true, 1 + 4.0 / 128 + 2},
        {SCOMM_AUTO, SD_BF16, false, 2 + 2},
        {SCOMM_BF16, SD_FP8, false, 2 + 2},
        {SCOMM_FP8, SD_BF16, true, 1 + 4.0 / 128 + 2},
    };
    struct scenario sc;
    struct model_shape m;
    struct serve_a2a a;
    struct diag d;
    double t_auto, t_bf16, wire;
    size_t i;

    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        bool fp8 = serve_dispatch_fp8(cases[i].comm, cases[i].weights);

        ck_assert_msg(fp8 == cases[i].fp8, "case %zu", i);
        ck_assert_double_eq_tol(serve_a2a_bytes_el(fp8), cases[i].bytes_el,
                                1e-12);
    }
    /* invariant: the same EP 32 all-to-all in bf16 moves 4 / 3.03 of the
     * bytes of fp8 (the latencies alike), never less time */
    fixture_wide_ep(&sc);
    model_shape_derive(&sc.model, 1, &m);
    serve_a2a_init(&sc, &m, 1, 32, &a);
    t_auto = serve_a2a_s(&a, 256);
    sc.serve.comm = SCOMM_BF16;
    ck_assert_int_eq(check(&sc, &d), CP_OK);
    serve_a2a_init(&sc, &m, 1, 32, &a);
    t_bf16 = serve_a2a_s(&a, 256);
    wire = t_auto - 61 * 2 * 10e-6;
    ck_assert_double_eq_tol(t_bf16 - 61 * 2 * 10e-6,
                            wire * 4 / (3 + 4.0 / 128), wire * 1e-9);
    /* fp8 on a chip without fp8: refused naming the key */
    fixture_wide_ep(&sc);
    sc.accel.peak_flops[PREC_FP8] = 0;
    sc.serve.weights = SD_BF16;
    sc.serve.comm = SCOMM_FP8;
    ck_assert_int_ne(check(&sc, &d), CP_OK);
    ck_assert_str_eq(d.where, "serve.comm");
}
END_TEST

/* Wide EP spreads the experts: EP 32 over 32 attention ranks holds 8 of
 * the 256 experts per GPU; EP 144 holds ceil(256 / 144) = 2 slots (the
 * spare ones redundant experts, DeepSeek EPLB).  The dense part stays
 * whole on each rank (tp 1). */
START_TEST(test_expert_weights_spread)
{
    struct scenario sc;
    struct result r8, r32, r144;
    struct model_shape m;
    double expert, dense;

    fixture_wide_ep(&sc);
    model_shape_derive(&sc.model, 1, &m);
    expert = m.moe_layers * m.expert_params; /* one expert, all layers */
    sc.serve.mode = SERVE_OFFLINE;
    sc.serve.pool = POOL_DECODE;
    sc.gpus = 32;
    sc.layout.ep = 32;
    sc.serve.attention_dp = 32;
    fixture_eval_ok(&sc, &r32);
    sc.gpus = 144;
    sc.layout.ep = 144;
    sc.serve.attention_dp = 144;
    fixture_eval_ok(&sc, &r144);
    dense = r32.serve.weights_bytes - 8 * expert;
    ck_assert_double_eq_tol(r144.serve.weights_bytes, dense + 2 * expert, 1e3);
    ck_assert(dense > 0 && dense < 0.1 * 256 * expert);
    /* one node of 8 does not hold DeepSeek-V3 at fp8 on H100 */
    sc.gpus = 8;
    sc.layout.ep = 8;
    sc.serve.attention_dp = 8;
    fixture_eval_ok(&sc, &r8);
    ck_assert(!r8.serve.fits);
    ck_assert(r8.serve.reason[0]);
}
END_TEST

/* DeepSeek-V3 on one pool of 32 GPUs measured alone, offline: EP 32 with
 * attention data parallel over the 32 ranks. */
static void ep32_pool(struct scenario *sc, enum serve_pool pool)
{
    fixture_wide_ep(sc);
    sc->serve.mode = SERVE_OFFLINE;
    sc->gpus = 32;
    sc->layout.ep = 32;
    sc->serve.attention_dp = 32;
    sc->serve.pool = pool;
}

/* A pool measured alone: the prefill pool's prompts/s are its ranks over
 * one prompt's amortised prefill; the decode pool's tokens/s are
 * ranks x batch / step. */
START_TEST(test_pool_alone)
{
    struct scenario sc;
    struct result pf, dc;

    ep32_pool(&sc, POOL_PREFILL);
    fixture_eval_ok(&sc, &pf);
    ck_assert(pf.serve.fits);
    ck_assert_double_eq_tol(pf.serve.input_tokens_per_s,
                            pf.serve.requests_per_s * 2000, 1e-6);
    ck_assert_double_eq_tol(pf.serve.gpus, 32, 1e-9);
    /* per GPU below the compute roof: 2 x 37B active x tokens at fp8 */
    ck_assert(pf.serve.input_tokens_per_s / 32 < 989e12 * 2 / (2 * 37e9));
    /* a prefill pool generates no tokens after the first: its TPOT (and
     * end to end) is not a zero but unknown, as an unfitting quote's */
    ck_assert(pf.serve.latency_known);
    ck_assert(!serve_tpot_known(&pf.serve));
    ck_assert(pf.serve.tpot_ms == 0);
    ck_assert(serve_tpot_at_ms(&pf.serve, SERVE_PCT_P99) == 0);
    ck_assert(serve_ttft_at_ms(&pf.serve, SERVE_PCT_P99) > 0);
    sc.serve.pool = POOL_DECODE;
    fixture_eval_ok(&sc, &dc);
    ck_assert(dc.serve.fits);
    ck_assert_double_eq_tol(dc.serve.output_tokens_per_s,
                            dc.serve.batch / (dc.serve.decode_step_ms / 1e3),
                            1e-6 * dc.serve.output_tokens_per_s);
    ck_assert_double_eq_tol(dc.serve.batch, dc.serve.max_batch, 1e-9);
    /* online, N users: the batch is N spread over the ranks */
    sc.serve.mode = SERVE_ONLINE;
    sc.serve.concurrency = 32 * 64;
    fixture_eval_ok(&sc, &dc);
    ck_assert_double_eq_tol(dc.serve.batch, 32 * 64, 1e-9);
    ck_assert(dc.serve.tpot_ms > 0);
    ck_assert(serve_tpot_known(&dc.serve));
}
END_TEST

/* serve.percentile names a statistic (enum serve_pct), not a number: the
 * pools' TTFT at the prefill pool's load is the M/M/1 wait around the bulk
 * prefill at 0.5, 0.9 and 0.99 (serve_wait_at) and its mean rho s / (1 -
 * rho), after the prefill alone and the KV transfer; open loop at half
 * the prefill pool's capacity the p99 lies well above the median.  The
 * targets hold at the named statistic. */
static double mm1_wait(double rho, double s, double p)
{
    /* P(W > t) = rho exp(-(1 - rho) t / s) (Kleinrock 1975, vol. 1) */
    return 1 - p >= rho ? 0 : s / (1 - rho) * log(rho / (1 - p));
}

START_TEST(test_pool_ttft_percentiles)
{
    struct scenario sc;
    struct result r, lo;
    double t0, pf, cap, rho, w50, w99, wm;

    deepseek_day6(&sc);
    sc.serve.mode = SERVE_ONLINE;
    sc.serve.percentile = SERVE_PCT_P99;
    sc.serve.output_tokens = 100; /* the prefill pool sets the pace */
    sc.serve.concurrency = 20000; /* past capacity: the prefill rate */
    fixture_eval_ok(&sc, &r);
    ck_assert(r.serve.fits);
    cap = r.serve.requests_per_s;
    sc.serve.concurrency = 0;
    sc.serve.requests_per_s = cap / 2;
    fixture_eval_ok(&sc, &r);
    ck_assert(r.serve.fits);
    sc.serve.requests_per_s = cap * 1e-6; /* no queue: prefill + transfer */
    fixture_eval_ok(&sc, &lo);
    t0 = lo.serve.ttft_ms;
    pf = 32 / cap; /* bulk prefill of one prompt on one of 32 ranks */
    rho = 0.5;
    w50 = mm1_wait(rho, pf, 0.5) * 1e3;
    w99 = mm1_wait(rho, pf, 0.99) * 1e3;
    wm = rho * pf / (1 - rho) * 1e3;
    /* cap is the closed loop's bisection to within 1% of 32 / pf */
    ck_assert_rel(r.serve.ttft_p99_ms, t0 + w99, 1e-2);
    ck_assert_rel(r.serve.ttft_p50_ms, t0 + w50, 1e-2);
    ck_assert_rel(r.serve.ttft_ms, t0 + wm, 1e-2);
    ck_assert(r.serve.ttft_p99_ms > r.serve.ttft_p90_ms);
    ck_assert(r.serve.ttft_p90_ms > r.serve.ttft_p50_ms);
    ck_assert(r.serve.ttft_p50_ms >= t0 * (1 - 1e-6));
    /* a TTFT target holds at the statistic it names */
    sc.serve.requests_per_s = cap / 2;
    sc.serve.ttft_ms = (r.serve.ttft_p50_ms + r.serve.ttft_p99_ms) / 2;
    fixture_eval_ok(&sc, &r);
    ck_assert(!r.serve.fits);
    sc.serve.percentile = SERVE_PCT_P50;
    fixture_eval_ok(&sc, &r);
    ck_assert_msg(r.serve.fits, "%s", r.serve.reason);
}
END_TEST

/* Closed loop of N users over both pools, think time 0: Little's law
 * with the mean TTFT (N = r (TTFT + (O - 1) TPOT)), so the throughput
 * is at most N over the unloaded latency; TTFT at least the prefill
 * alone; percentiles ordered.  From one user to past the capacity. */
static const double users[] = {1, 32, 180, 2000, 8000, 20000, 60000};

START_TEST(test_closed_loop_invariants)
{
    struct scenario sc;
    struct result r;
    double n = users[_i], d;

    deepseek_day6(&sc);
    sc.serve.window_requests = 0; /* the steady state: no first burst */
    sc.serve.concurrency = (uint64_t)n;
    fixture_eval_ok(&sc, &r);
    ck_assert_msg(r.serve.fits, "%s", r.serve.reason);
    d = 499 * r.serve.tpot_ms / 1e3;
    ck_assert_rel(r.serve.requests_per_s * (r.serve.ttft_ms / 1e3 + d), n,
                  1e-6);
    ck_assert(r.serve.requests_per_s * (r.serve.prefill_ms / 1e3 + d) <=
              n * (1 + 1e-9));
    ck_assert(r.serve.ttft_ms >= r.serve.prefill_ms);
    ck_assert(r.serve.ttft_p50_ms >= r.serve.prefill_ms * (1 - 1e-9));
    ck_assert(r.serve.ttft_p99_ms >= r.serve.ttft_p90_ms);
    ck_assert(r.serve.ttft_p90_ms >= r.serve.ttft_p50_ms);
    ck_assert(r.serve.tpot_p99_ms >= r.serve.tpot_p50_ms);
    ck_assert(r.serve.utilization <= 1 + 1e-9);
}
END_TEST

/* DeepSeek's inference system (DeepSeek-AI 2025, "Day 6: inference
 * system overview"): prefill 4 nodes, EP 32 with attention DP 32;
 * decode 18 nodes, EP 144 with attention DP 144.  Closed loop of N users:
 * N = r (TTFT + D) with D = (O - 1) decode steps (Little's law); the
 * tokens are r x O over all 176 GPUs. */
START_TEST(test_deepseek_ep32_ep144)
{
    struct scenario sc;
    struct result r, r2;
    double d;

    deepseek_day6(&sc);
    sc.serve.window_requests = 0; /* the steady state: no first burst */
    sc.serve.concurrency = 20000;
    fixture_eval_ok(&sc, &r);
    ck_assert_msg(r.serve.fits, "%s", r.serve.reason);
    ck_assert(r.serve.disaggregated);
    ck_assert_double_eq_tol(r.serve.prefill_gpus, 32, 1e-9);
    ck_assert_double_eq_tol(r.serve.decode_gpus, 144, 1e-9);
    ck_assert_double_eq_tol(r.serve.gpus, 176, 1e-9);
    /* Little's law holds with the mean TTFT, which lies between the
     * prefill alone and the reported percentile */
    d = 499 * r.serve.decode_step_ms / 1e3;
    ck_assert(r.serve.requests_per_s * (r.serve.prefill_ms / 1e3 + d) < 20000);
    ck_assert(r.serve.requests_per_s * (r.serve.ttft_ms / 1e3 + d) >=
              20000 * (1 - 1e-6));
    ck_assert_double_eq_tol(r.serve.output_tokens_per_s,
                            r.serve.requests_per_s * 500, 1e-6);
    ck_assert_double_eq_tol(r.serve.output_tokens_per_s_per_gpu,
                            r.serve.output_tokens_per_s / 176, 1e-6);
    /* 20000 users keep the pools at their capacity, not past it */
    ck_assert(r.serve.utilization > 0.9 && r.serve.utilization <= 1 + 1e-9);
    /* 2000-token prompts on 32 GPUs limit the rate, not 144 decoding */
    ck_assert_str_eq(r.bottleneck, "prefill");
    /* far more users than the pools serve: the rate saturates and the
     * users wait in the prefill queue, N = r (TTFT + D) exactly */
    sc.serve.concurrency = 200000;
    fixture_eval_ok(&sc, &r2);
    ck_assert(r2.serve.fits);
    ck_assert(r2.serve.requests_per_s <= r.serve.requests_per_s * 1.01);
    d = 499 * r2.serve.decode_step_ms / 1e3;
    ck_assert_double_eq_tol(r2.serve.requests_per_s *
                                (r2.serve.ttft_ms / 1e3 + d),
                            200000, 200000 * 2e-2);
    /* a fortieth of the users: a lighter load, a shorter wait */
    sc.serve.concurrency = 500;
    fixture_eval_ok(&sc, &r2);
    ck_assert(r2.serve.fits);
    ck_assert(r2.serve.utilization < 0.7);
    ck_assert(r2.serve.queue_ms < r.serve.queue_ms / 10);
    ck_assert(r2.serve.ttft_ms >= r2.serve.prefill_ms);
    /* sized: without the pools' GPUs the demand sizes both */
    sc.serve.gpus_auto = true;
    sc.serve.concurrency = 0;
    sc.serve.requests_per_s = 40;
    sc.serve.prefill.gpus = 0;
    sc.serve.decode.gpus = 0;
    fixture_eval_ok(&sc, &r);
    ck_assert_msg(r.serve.fits, "%s", r.serve.reason);
    ck_assert(fmod(r.serve.prefill_gpus, 32) == 0);
    ck_assert(fmod(r.serve.decode_gpus, 144) == 0);
    ck_assert(r.serve.utilization <= 1);
}
END_TEST

/* The attention of one decode step: what b sequences' 4000 more context
 * positions add, less the same with an attention kernel 1e6 times
 * faster (the KV read stays). */
static double decode_attention_s(struct scenario *sc, double b)
{
    struct model_shape m;
    double d[2];
    int i;

    for (i = 0; i < 2; i++) {
        sc->stack.attn_eff = i ? 1e6 : 1;
        sc->serve.input_tokens = 4000;
        model_shape_derive(&sc->model, 1, &m);
        d[i] = serve_rank_step_s(sc, &m, b);
        sc->serve.input_tokens = 8000;
        d[i] = serve_rank_step_s(sc, &m, b) - d[i];
    }
    sc->stack.attn_eff = 1;
    return d[0] - d[1];
}

/* MLA decode with the up-projections absorbed (DeepSeek-V2 2.1.2,
 * FlashMLA): each of the 128 heads attends over the 576-wide latent and
 * RoPE key and sums 512-wide values, (512 + 64) + 512 per head and context
 * position, not the expanded heads' (128 + 64) + 128; against multi-head
 * attention of 128 heads of 128 ((128 + 128)), at the same rate and both
 * steps bandwidth-bound, 1088 / 256. */
START_TEST(test_mla_decode_absorbed)
{
    struct scenario sc;
    double mla, mha, ratio;

    fixture_wide_ep(&sc);
    mla = decode_attention_s(&sc, 64);
    sc.model.attention = MATTN_MHA;
    sc.model.kv_lora_rank = 0;
    sc.model.rope_head_dim = 0;
    mha = decode_attention_s(&sc, 64);
    ck_assert(mla > 0 && mha > 0);
    ratio = mla / mha;
    ck_assert_double_eq_tol(ratio, 1088.0 / 256, 1e-6);
}
END_TEST

/* serve.decode.max_batch: the sequences one attention rank of the decode
 * pool runs at most, as the engine was launched (TensorRT-LLM
 * max_batch_size per attention-DP rank; the InferenceX recipes'
 * "batchN", e.g. ctx1_gen1_dep32_batch4: 4 a rank).  A closed loop of
 * more users than the ranks hold fills every rank to the cap and the
 * rest wait for a slot: the tokens are the cap's, ranks x cap / TPOT
 * (x 500 / 499: the prefill gives each request its first token),
 * and N = r (TTFT + D) still holds with the wait in TTFT. */
START_TEST(test_decode_batch_cap)
{
    struct scenario sc;
    struct result open, capped;
    struct diag d;
    double d_s;

    deepseek_day6(&sc);
    sc.serve.concurrency = 2000;
    fixture_eval_ok(&sc, &open);
    ck_assert_msg(open.serve.fits, "%s", open.serve.reason);
    /* 2000 users on 144 ranks: more than 4 a rank decode without a cap */
    ck_assert(open.serve.batch > 144 * 4);
    sc.serve.decode.max_batch = 2;
    ck_assert_int_eq(check(&sc, &d), CP_OK);
    fixture_eval_ok(&sc, &capped);
    ck_assert_msg(capped.serve.fits, "%s", capped.serve.reason);
    ck_assert_rel(capped.serve.batch, 144 * 2, 1e-5);
    ck_assert_double_eq_tol(capped.serve.max_batch, 144 * 2, 1e-9);
    /* a smaller batch steps faster and serves fewer tokens */
    ck_assert(capped.serve.tpot_ms < open.serve.tpot_ms);
    ck_assert(capped.serve.output_tokens_per_s <
              open.serve.output_tokens_per_s);
    /* 499 steps a request after the prefill's first token */
    ck_assert_rel(capped.serve.output_tokens_per_s,
                  144 * 2 / (capped.serve.tpot_ms / 1e3) * 500 / 499, 1e-4);
    d_s = 499 * capped.serve.tpot_ms / 1e3;
    ck_assert_double_eq_tol(capped.serve.requests_per_s *
                                (capped.serve.ttft_ms / 1e3 + d_s),
                            2000, 2000 * 2e-2);
    ck_assert(capped.serve.ttft_ms > open.serve.ttft_ms);
    /* above what the KV cache holds, memory still bounds */
    sc.serve.decode.max_batch = 1000000;
    fixture_eval_ok(&sc, &capped);
    ck_assert(capped.serve.max_batch < 144.0 * 1000000);
    /* the decode pool measured alone takes it too */
    sc.serve.decode.max_batch = 4;
    memset(&sc.serve.prefill, 0, sizeof(sc.serve.prefill));
    sc.serve.disaggregated = DISAGG_NO;
    sc.serve.decode.gpus = 0;
    sc.serve.decode.ep = 0;
    sc.serve.decode.attention_dp = 0;
    sc.serve.pool = POOL_DECODE;
    sc.serve.mode = SERVE_OFFLINE;
    sc.gpus = 32;
    sc.layout.ep = 32;
    sc.serve.attention_dp = 32;
    ck_assert_int_eq(check(&sc, &d), CP_OK);
    fixture_eval_ok(&sc, &capped);
    ck_assert_rel(capped.serve.batch, 32 * 4, 1e-9);
}
END_TEST

/* MTP drafting (serve.spec_tokens g on a model with an MTP module,
 * model.mtp_layers): the drafter is the module, run g times in sequence
 * each step, one token a sequence each (TensorRT-LLM tech blog 2, "MTP
 * Eagle ... call the same MTP module forward K times"; DeepSeek-V3 report
 * 2.2: a module is one layer like the model's, a 2h -> h projection and
 * the shared output head).  A pass of one token a sequence reads the
 * output head again, V h 16-bit bytes (the head stays unquantised), so
 * each draft costs at least that read, and at most that plus the head's
 * GEMM and twice a layer's share of a plain step.  Serving runs the
 * model alone (the module's weights are not in its per-token FLOPs), so
 * at a fixed batch the step with the module is the step without it plus
 * g d, and without drafts the module changes nothing. */
static double mtp_step_ms(struct scenario *sc, unsigned g, unsigned mtp)
{
    struct result r;

    sc->serve.spec_tokens = g;
    sc->serve.spec_accept = g ? 0.8 : 0;
    sc->model.mtp_layers = mtp;
    fixture_eval_ok(sc, &r);
    ck_assert_msg(r.serve.fits, "%s", r.serve.reason);
    ck_assert_rel(r.serve.batch, 32 * 16, 1e-12);
    return r.serve.decode_step_ms;
}

START_TEST(test_mtp_draft)
{
    struct scenario sc;
    double d[4], plain, head_ms, per, bw;
    unsigned g;

    ep32_pool(&sc, POOL_DECODE);
    sc.serve.decode.max_batch = 16;
    plain = mtp_step_ms(&sc, 0, 0);
    ck_assert_rel(mtp_step_ms(&sc, 0, 1), plain, 1e-12);
    for (g = 1; g <= 3; g++)
        d[g] = mtp_step_ms(&sc, g, 1) - mtp_step_ms(&sc, g, 0);
    per = d[1];
    ck_assert_rel(d[2], 2 * per, 1e-9);
    ck_assert_rel(d[3], 3 * per, 1e-9);
    bw = sc.accel.hbm_bps * sc.accel.hbm_frac * sc.stack.mbu;
    head_ms = 129280.0 * 7168 * 2 / bw * 1e3;
    ck_assert_msg(per >= head_ms, "%g < %g", per, head_ms);
    ck_assert_msg(per <= head_ms * 1.5 + 2 * plain / 61, "%g", per);
}
END_TEST

/* The drafting module's weights stay on every GPU beside the model's:
 * its MoE layer's attention, router and shared expert, the 2h -> h
 * projection and two norms in fp8 on each GPU, its 256 experts spread
 * over the 32 ranks like the model's (DeepSeek-V3 report 2.2). */
START_TEST(test_mtp_weights)
{
    struct scenario sc;
    struct model_shape ms;
    struct result with, without;
    double dense, want;

    ep32_pool(&sc, POOL_DECODE);
    sc.serve.spec_tokens = 1;
    sc.serve.spec_accept = 0.8;
    fixture_eval_ok(&sc, &without);
    sc.model.mtp_layers = 1;
    fixture_eval_ok(&sc, &with);
    model_shape_derive(&sc.model, 2500, &ms);
    dense = ms.moe_layer_params - 256 * ms.expert_params + 2 * 7168.0 * 7168 +
            2 * 7168;
    want = dense * 1 + 256 * ms.expert_params * 1 / 32;
    ck_assert_rel(with.serve.weights_bytes - without.serve.weights_bytes, want,
                  1e-9);
    ck_assert(with.serve.max_batch <= without.serve.max_batch);
    /* not drafting: the module is not loaded */
    sc.serve.spec_tokens = 0;
    fixture_eval_ok(&sc, &with);
    sc.model.mtp_layers = 0;
    fixture_eval_ok(&sc, &without);
    ck_assert_rel(with.serve.weights_bytes, without.serve.weights_bytes,
                  1e-12);
}
END_TEST

/* An NVFP4-MoE checkpoint (nvidia/DeepSeek-R1-FP4: the routed experts in
 * fp4, the rest fp8; serve.weights=fp8 serve.expert_weights=fp4): the
 * experts' GEMMs run at the fp4 rate, the rest at fp8.  A chip whose fp4
 * peak is twice its fp8 one at the same measured share, HBM so fast that
 * the weight read vanishes: one 2000-token prompt's pass is shorter by
 * the experts' 2 x (58 x 8 x 3 h f_expert) x 2000 FLOPs at half the
 * time, and all fp4 is shorter still. */
START_TEST(test_expert_gemm_rate)
{
    struct scenario sc;
    struct model_shape ms;
    struct result fp8, mixed, fp4;
    double r8, nx, want_ms;

    ep32_pool(&sc, POOL_PREFILL);
    sc.accel.hbm_bps = 1e18;
    sc.accel.peak_flops[PREC_FP4] = 2 * sc.accel.peak_flops[PREC_FP8];
    sc.accel.fp4_gemm_frac = sc.accel.fp8_gemm_frac > 0
                                 ? sc.accel.fp8_gemm_frac
                                 : sc.accel.gemm_frac;
    fixture_eval_ok(&sc, &fp8);
    sc.serve.expert_weights = SD_FP4 + 1;
    fixture_eval_ok(&sc, &mixed);
    sc.serve.expert_weights = 0;
    sc.serve.weights = SD_FP4;
    fixture_eval_ok(&sc, &fp4);
    model_shape_derive(&sc.model, 2001, &ms);
    nx = ms.moe_layers * ms.top_k * ms.expert_params * ms.param_scale;
    r8 = sc.accel.peak_flops[PREC_FP8] * sc.accel.fp4_gemm_frac *
         sc.stack.gemm_eff * sc.stack.fp8_eff;
    want_ms = 2 * nx * 2000 * (1 / r8 - 1 / (2 * r8)) * 1e3;
    ck_assert_rel(fp8.serve.prefill_ms - mixed.serve.prefill_ms, want_ms, 1e-6);
    ck_assert(fp4.serve.prefill_ms < mixed.serve.prefill_ms);
}
END_TEST

/* clang-format off */
static const struct bad_case {
    const char *key;
    int field; /* which knob to break */
} bad[] = {
    {"serve.decode.ep", 0},      /* 512 EP ranks > 256 experts */
    {"serve.prefill.gpus", 1},   /* a pool without disaggregated=yes */
    {"serve.decode.gpus", 2},    /* pools not adding up to hardware.gpus */
    {"serve.prefill.gpus", 3},   /* not a multiple of tp*attention_dp */
    {"parallel.ep", 4},          /* 48 not dividing 256 without attention DP */
    {"serve.pool", 5},           /* online pool alone with no load */
    {"serve.decode.max_batch", 6}, /* a decode pool's cap, no pool */
};
/* clang-format on */

START_TEST(test_bad_keys)
{
    struct scenario sc;
    struct diag d;
    const struct bad_case *c = &bad[_i];

    deepseek_day6(&sc);
    sc.serve.concurrency = 100;
    ck_assert_int_eq(check(&sc, &d), CP_OK);
    switch (c->field) {
    case 0:
        sc.serve.decode.ep = 512;
        sc.serve.decode.attention_dp = 512;
        sc.serve.decode.gpus = 512;
        sc.gpus = 544;
        break;
    case 1:
        sc.serve.disaggregated = DISAGG_NO;
        break;
    case 2:
        sc.serve.decode.gpus = 72;
        sc.serve.decode.ep = 72;
        sc.serve.decode.attention_dp = 72;
        break;
    case 3:
        sc.serve.prefill.gpus = 20;
        sc.gpus = 164;
        break;
    case 4:
        memset(&sc.serve.prefill, 0, sizeof(sc.serve.prefill));
        memset(&sc.serve.decode, 0, sizeof(sc.serve.decode));
        sc.serve.disaggregated = DISAGG_NO;
        sc.gpus = 48;
        sc.layout.ep = 48;
        break;
    case 6:
        memset(&sc.serve.prefill, 0, sizeof(sc.serve.prefill));
        memset(&sc.serve.decode, 0, sizeof(sc.serve.decode));
        sc.serve.disaggregated = DISAGG_NO;
        sc.serve.decode.max_batch = 4;
        sc.gpus = 32;
        sc.layout.ep = 32;
        sc.serve.attention_dp = 32;
        break;
    default:
        memset(&sc.serve.prefill, 0, sizeof(sc.serve.prefill));
        memset(&sc.serve.decode, 0, sizeof(sc.serve.decode));
        sc.serve.disaggregated = DISAGG_NO;
        sc.serve.concurrency = 0;
        sc.serve.gpus_auto = false;
        sc.serve.pool = POOL_DECODE;
        sc.gpus = 8;
        break;
    }
    ck_assert_int_ne(check(&sc, &d), CP_OK);
    ck_assert_msg(strcmp(d.where, c->key) == 0, "%s: %s (want %s)", d.where,
                  d.msg, c->key);
}
END_TEST

Suite *suite_serve_pool(void); /* listed by the Makefile */

Suite *suite_serve_pool(void)
{
    Suite *s = suite_create("serve_pool");
    TCase *core = tcase_create("core");

    tcase_add_test(core, test_a2a_by_hand);
    tcase_add_test(core, test_comm_precision);
    tcase_add_test(core, test_expert_weights_spread);
    tcase_add_test(core, test_pool_alone);
    tcase_add_test(core, test_deepseek_ep32_ep144);
    tcase_add_test(core, test_pool_ttft_percentiles);
    tcase_add_loop_test(core, test_closed_loop_invariants, 0,
                        (int)(sizeof(users) / sizeof(users[0])));
    tcase_add_test(core, test_mla_decode_absorbed);
    tcase_add_test(core, test_decode_batch_cap);
    tcase_add_test(core, test_mtp_draft);
    tcase_add_test(core, test_mtp_weights);
    tcase_add_test(core, test_expert_gemm_rate);
    tcase_add_loop_test(core, test_bad_keys, 0,
                        (int)(sizeof(bad) / sizeof(bad[0])));
    suite_add_tcase(s, core);
    return s;
}
