/*
 * check_serve_offload.c - serve.offload=weights (serve_offload.c): the
 * weight bytes HBM cannot hold beside one prefill chunk's KV stay on the
 * host and stream over the host link every forward pass, a layer ahead;
 * a pass costs the longer of its own time and the link time, not the sum.
 */
#include <math.h>
#include <string.h>

#include "check_helpers.h"
#include "core/model.h"
#include "core/scenario.h"
#include "core/serve.h"
#include "fixture.h"

#define GIB 1073741824.0

/* Llama 3 70B (Meta model card: 80 layers, hidden 8192, 64 heads, 8 KV
 * heads, FFN 28672, vocabulary 128256) in fp8 with an fp8 KV cache on
 * one fixture H100, an engine like the TensorRT-LLM row. */
static void one_gpu_70b(struct scenario *sc)
{
    fixture_serving(sc, 1);
    sc->stack.mem_reserve_bytes = GIB;
    sc->stack.prefill_chunk = 8192;
    sc->serve.concurrency = 4;
    sc->system.host_link_bps = 50e9;
}

/* By hand, per GPU: weights w = 2 B x 2 x 128256 x 8192 (embedding and
 * output in 16 bits) + 1 B x 80 x (8192 x (8192 + 2 x 1024) + 8192 x 8192
 * + 3 x 8192 x 28672 + 2 x 8192) + 8192 = 72,655,052,800 B; a chunk's
 * activations 8192 x 2 x (3 x 8192 + 2 x 28672) = 1,342,177,280 B; the
 * reserve 1 GiB; the KV of the chunk's floor(8192 / 1000) = 8 requests of
 * 2000 tokens at 2 x 80 x 8 x 128 x 1 B = 163,840 B a token,
 * 2,621,440,000 B, over kv_mem_frac 0.9.  Host = w + act + reserve +
 * KV / 0.9 - HBM + one layer w / 80 (the staging buffer), 0 if that
 * excess is not positive.  Link time = host / link; the decode step at 4
 * sequences without offload reads w from HBM in ~33 ms. */
/* clang-format off */
static const struct offload_case {
    double hbm_gib, link_gb_s;  /* inputs */
    double host_gb;             /* expected: bytes left on the host, GB */
    double link_ms;             /* expected: link time of one pass, ms */
    const char *source;
} cases[] = {
    {80, 50, 0, 0,
     "fits: 72.66 + 1.34 + 1.07 + 2.91 = 77.98 GB < 85.90 GB of HBM"},
    {64, 50, 10.1724, 203.45,
     "77.98 - 68.72 + 0.908 GB; 10.172 GB / 50 GB/s (DGX H100 PCIe Gen5 row)"},
    {48, 50, 27.3523, 547.05,
     "77.98 - 51.54 + 0.908 GB; over 50 GB/s"},
    {64, 900, 10.1724, 11.30,
     "as the second, over NVLink-C2C's 900 GB/s (GH200-like): hidden"},
};
/* clang-format on */

START_TEST(test_offload_table)
{
    const struct offload_case *c = &cases[_i];
    struct scenario sc;
    struct result r;

    one_gpu_70b(&sc);
    sc.accel.hbm_bytes = c->hbm_gib * GIB;
    sc.system.host_link_bps = c->link_gb_s * 1e9;
    sc.serve.offload = SOFF_WEIGHTS;
    fixture_eval_ok(&sc, &r);
    ck_assert_msg(r.memory.fits, "%s", c->source);
    ck_assert_double_eq_tol(r.serve.weights_bytes, 72655052800.0, 1);
    ck_assert_msg(fabs(r.memory.host_weights_bytes / 1e9 - c->host_gb) < 1e-3,
                  "%s: host %.4f GB", c->source,
                  r.memory.host_weights_bytes / 1e9);
    ck_assert_msg(
        fabs(r.memory.host_weights_bytes / (c->link_gb_s * 1e9) * 1e3 -
             c->link_ms) < 0.01,
        "%s", c->source);
    /* the step streams the host bytes: never shorter than the link */
    ck_assert(r.serve.decode_step_ms >= r.memory.host_weights_bytes /
                                            (c->link_gb_s * 1e9) * 1e3 *
                                            (1 - 1e-12));
    /* what stays in HBM plus what is on the host is the weights and the
     * layer staged ahead */
    if (c->host_gb > 0)
        ck_assert_double_eq_tol(
            r.memory.weights_bytes + r.memory.host_weights_bytes,
            r.serve.weights_bytes + r.serve.weights_bytes / 80, 1);
    ck_assert(r.memory.total_bytes <= r.memory.capacity_bytes);
}
END_TEST

/* The copy overlaps the pass: max(pass, link), not the sum.  A fast link
 * leaves the decode step of a plan with room to spare; a slow one makes
 * the step exactly the link time. */
START_TEST(test_offload_overlaps)
{
    struct scenario sc;
    struct result big, fast, slow;

    one_gpu_70b(&sc);
    sc.accel.hbm_bytes = 96 * GIB; /* fits: the reference step */
    fixture_eval_ok(&sc, &big);
    ck_assert(big.memory.host_weights_bytes == 0);
    sc.accel.hbm_bytes = 64 * GIB;
    sc.serve.offload = SOFF_WEIGHTS;
    sc.system.host_link_bps = 900e9;
    fixture_eval_ok(&sc, &fast);
    ck_assert(fast.serve.batch == big.serve.batch);
    ck_assert(fast.memory.host_weights_bytes / 900e9 <
              big.serve.decode_step_ms / 1e3);
    ck_assert_double_eq_tol(fast.serve.decode_step_ms, big.serve.decode_step_ms,
                            1e-9 * big.serve.decode_step_ms);
    ck_assert_double_eq_tol(fast.serve.prefill_ms, big.serve.prefill_ms,
                            1e-9 * big.serve.prefill_ms);
    sc.system.host_link_bps = 50e9;
    fixture_eval_ok(&sc, &slow);
    ck_assert_double_eq_tol(slow.serve.decode_step_ms,
                            slow.memory.host_weights_bytes / 50e9 * 1e3,
                            1e-9 * slow.serve.decode_step_ms);
    ck_assert(slow.serve.decode_step_ms > big.serve.decode_step_ms);
    ck_assert(slow.serve.output_tokens_per_s < fast.serve.output_tokens_per_s);
}
END_TEST

/* Off (the default), a plan that does not fit still does not; on, it
 * does; on, a plan that fits is unchanged. */
START_TEST(test_offload_only_when_needed)
{
    struct scenario sc;
    struct result off, on;

    one_gpu_70b(&sc);
    sc.accel.hbm_bytes = 64 * GIB;
    fixture_eval_ok(&sc, &off);
    ck_assert(!off.memory.fits);
    ck_assert(off.memory.host_weights_bytes == 0);
    sc.serve.offload = SOFF_WEIGHTS;
    fixture_eval_ok(&sc, &on);
    ck_assert(on.memory.fits);
    sc.accel.hbm_bytes = 80 * GIB;
    sc.serve.offload = SOFF_NONE;
    fixture_eval_ok(&sc, &off);
    sc.serve.offload = SOFF_WEIGHTS;
    fixture_eval_ok(&sc, &on);
    ck_assert(on.memory.host_weights_bytes == 0);
    ck_assert_double_eq(on.serve.output_tokens_per_s,
                        off.serve.output_tokens_per_s);
    ck_assert_double_eq(on.memory.total_bytes, off.memory.total_bytes);
}
END_TEST

/* A system with no stated host link cannot stream weights from the host. */
START_TEST(test_offload_needs_host_link)
{
    struct scenario sc;
    struct diag d;

    one_gpu_70b(&sc);
    sc.serve.offload = SOFF_WEIGHTS;
    sc.system.host_link_bps = 0;
    diag_clear(&d);
    ck_assert_int_eq(scenario_validate(&sc, &d), CP_ERR_RANGE);
    ck_assert_str_eq(d.where, "serve.offload");
    sc.serve.offload = (enum serve_offload)7;
    sc.system.host_link_bps = 50e9;
    diag_clear(&d);
    ck_assert_int_eq(scenario_validate(&sc, &d), CP_ERR_RANGE);
    ck_assert_str_eq(d.where, "serve.offload");
}
END_TEST

/* What stays on the host must fit the GPU's share of the node's host
 * memory when the system states it (systems.host_mem_gb): 64 GiB of HBM
 * leaves 10.17 GB on the host, more than 80 GB over 8 GPUs (10 GB), less
 * than 160 GB over 8 (20 GB); not stated: not checked. */
START_TEST(test_offload_host_memory)
{
    struct scenario sc;
    struct result r;

    one_gpu_70b(&sc);
    sc.accel.hbm_bytes = 64 * GIB;
    sc.serve.offload = SOFF_WEIGHTS;
    sc.system.gpus_per_node = 8;
    sc.system.host_mem_bytes = 80e9;
    fixture_eval_ok(&sc, &r);
    ck_assert(!r.memory.fits);
    ck_assert(!r.serve.fits);
    ck_assert_msg(strstr(r.serve.reason, "systems.host_mem_gb") != NULL, "%s",
                  r.serve.reason);
    sc.system.host_mem_bytes = 160e9;
    fixture_eval_ok(&sc, &r);
    ck_assert(r.memory.fits);
    ck_assert(r.serve.fits);
    sc.system.host_mem_bytes = 0;
    fixture_eval_ok(&sc, &r);
    ck_assert(r.serve.fits);
}
END_TEST

Suite *suite_serve_offload(void); /* listed by the Makefile */

Suite *suite_serve_offload(void)
{
    Suite *s = suite_create("serve_offload");
    TCase *core = tcase_create("core");

    tcase_add_loop_test(core, test_offload_table, 0,
                        (int)(sizeof(cases) / sizeof(cases[0])));
    tcase_add_test(core, test_offload_overlaps);
    tcase_add_test(core, test_offload_only_when_needed);
    tcase_add_test(core, test_offload_needs_host_link);
    tcase_add_test(core, test_offload_host_memory);
    suite_add_tcase(s, core);
    return s;
}
