/* check_comm.c - the collectives of core/comm.c: a case table per formula
 * and the invariants they share. */
#include <check.h>
#include <math.h>

#include "check_helpers.h"
#include "core/comm.h"

enum coll { AR, AR_CALL, RS, AG, A2A, P2P };

/* {collective, bytes, n, beta, alpha (or call latency), expected, source} */
static const struct {
    enum coll c;
    double bytes, n, beta, alpha, want;
    const char *source;
} cases[] = {
    /* 1 GB on 8 ranks at 100 GB/s, no latency: the bytes terms */
    {AR, 1e9, 8, 1e11, 0, 2 * 7.0 / 8 * 1e-2, "NCCL ring 2(n-1)/n S/B"},
    {RS, 1e9, 8, 1e11, 0, 7.0 / 8 * 1e-2, "Thakur et al. 2005"},
    {AG, 1e9, 8, 1e11, 0, 7.0 / 8 * 1e-2, "Thakur et al. 2005"},
    {A2A, 1e9, 8, 1e11, 0, 7.0 / 8 * 1e-2, "Thakur et al. 2005"},
    {AR_CALL, 1e9, 8, 1e11, 0, 2 * 7.0 / 8 * 1e-2, "same ring bytes"},
    /* latency: a ring's 2(n-1) steps, bounded by a tree's 2 log2 n */
    {AR, 1, 4, 1e30, 1e-5, 2 * 3 * 1e-5, "NCCL ring 2(n-1) alpha"},
    {AR, 1, 1024, 1e30, 1e-5, 2 * 20 * 1e-5, "NCCL tree 2 log2(n) alpha"},
    {RS, 1, 8, 1e30, 1e-5, 7 * 1e-5, "NCCL: RS/AG rings only"},
    /* a custom all-reduce's measured call latency, whatever n
     * (stacks.csv tensorrt-llm allreduce_us 5) */
    {AR_CALL, 1, 8, 1e30, 5e-6, 5e-6, "TensorRT-LLM custom all-reduce"},
    {AR_CALL, 1, 2, 1e30, 5e-6, 5e-6, "TensorRT-LLM custom all-reduce"},
    /* one send: 1 MB at 50 GB/s plus 5 us */
    {P2P, 1e6, 2, 5e10, 5e-6, 2e-5 + 5e-6, "alpha-beta send"},
    /* one rank or nothing to send costs nothing */
    {AR, 1e9, 1, 1e11, 1e-5, 0, "n = 1"},
    {AR_CALL, 1e9, 1, 1e11, 1e-5, 0, "n = 1"},
    {A2A, 0, 8, 1e11, 1e-5, 0, "bytes = 0"},
    {P2P, 0, 2, 1e11, 1e-5, 0, "bytes = 0"},
};

static double run(int i)
{
    double b = cases[i].bytes, n = cases[i].n, B = cases[i].beta;
    double a = cases[i].alpha;

    switch (cases[i].c) {
    case AR:
        return comm_allreduce_s(b, n, B, a);
    case AR_CALL:
        return comm_allreduce_call_s(b, n, B, a);
    case RS:
        return comm_reduce_scatter_s(b, n, B, a);
    case AG:
        return comm_all_gather_s(b, n, B, a);
    case A2A:
        return comm_all_to_all_s(b, n, B, a);
    case P2P:
        return comm_p2p_s(b, B, a);
    }
    return NAN;
}

START_TEST(test_cases)
{
    double got = run(_i);

    if (cases[_i].want == 0)
        ck_assert_msg(got == 0, "case %d (%s): %g", _i, cases[_i].source, got);
    else
        ck_assert_msg(fabs(got / cases[_i].want - 1) < 1e-9,
                      "case %d (%s): %g, want %g", _i, cases[_i].source, got,
                      cases[_i].want);
}
END_TEST

/* Copies of a token that cross the fabric: 64 ranks, 8 per domain, 8
 * experts: token by token k (n - g)/n = 7; forwarded once per remote
 * domain, 7 (1 - (7/8)^8) = 4.7517 (DeepSeek-V3 report 3.2.2). */
START_TEST(test_remote_copies)
{
    ck_assert_rel(comm_remote_copies(64, 8, 8, false), 7.0, 1e-12);
    ck_assert_rel(comm_remote_copies(64, 8, 8, true), 7 * (1 - pow(7.0 / 8, 8)),
                  1e-12);
    /* one domain: nothing crosses */
    ck_assert_double_eq(comm_remote_copies(8, 8, 8, true), 0);
    ck_assert_double_eq(comm_remote_copies(8, 8, 8, false), 0);
    /* forwarding never sends more than token by token (Bernoulli), and
     * one expert per token sends the same */
    for (double k = 1; k <= 16; k++)
        for (double D = 2; D <= 64; D *= 2)
            ck_assert(comm_remote_copies(8 * D, 8, k, true) <=
                      comm_remote_copies(8 * D, 8, k, false) * (1 + 1e-12));
    ck_assert_rel(comm_remote_copies(32, 8, 1, true),
                  comm_remote_copies(32, 8, 1, false), 1e-12);
}
END_TEST

/* Two tiers: 8 MB per rank of k = 8 copies on 64 ranks, 8 per domain, at
 * 100 GB/s inside and 10 GB/s across: 7/64 of the bytes inside; across,
 * 7 copies of each token token by token (7/8 of the bytes), 4.75 when
 * forwarded once per remote domain. */
START_TEST(test_all_to_all_tiers)
{
    double in = 8e6 * 7 / 64 / 1e11;

    ck_assert_rel(comm_all_to_all_tiers_s(8e6, 64, 8, 8, false, 1e11, 1e10),
                  in + 8e6 * 7.0 / 8 / 1e10, 1e-12);
    ck_assert_rel(comm_all_to_all_tiers_s(8e6, 64, 8, 8, true, 1e11, 1e10),
                  in + 1e6 * 7 * (1 - pow(7.0 / 8, 8)) / 1e10, 1e-12);
    /* one domain: the bytes term of a one-tier all-to-all */
    ck_assert_rel(comm_all_to_all_tiers_s(8e6, 8, 8, 8, true, 1e11, 1e10),
                  comm_all_to_all_s(8e6, 8, 1e11, 0), 1e-12);
    ck_assert_double_eq(comm_all_to_all_tiers_s(0, 64, 8, 8, true, 1, 1), 0);
    ck_assert_double_eq(comm_all_to_all_tiers_s(1e6, 1, 1, 8, true, 1, 1), 0);
}
END_TEST

/* Group-limited routing: the same 8 MB of k = 8 copies on 64 ranks in 8
 * domains, a token's experts in at most `reach` domains (DeepSeek-V3
 * node-limited routing: 4 of 8 nodes, report section 2.1.2). */
struct reach_case {
    double reach, remote; /* remote domains reached per token */
    const char *source;
};

static const struct reach_case reach_cases[] = {
    {4, 4 * (1 - 0.75 * 0.75 * 0.75 * 0.75 * 0.75 * 0.75 * 0.75 * 0.75) *
            7 / 8,
     "4 of 8 nodes: 4 (1 - (3/4)^8) domains hit, 7/8 of them remote"},
    {1, 7.0 / 8, "one domain: all 8 copies in it, remote 7/8 of the time"},
    {8, 7 * (1 - 0.875 * 0.875 * 0.875 * 0.875 * 0.875 * 0.875 * 0.875 *
                     0.875),
     "every domain: the unlimited (D - 1)(1 - (1 - 1/D)^k)"},
    {16, 7 * (1 - 0.875 * 0.875 * 0.875 * 0.875 * 0.875 * 0.875 * 0.875 *
                      0.875),
     "more than D is every domain"},
};

START_TEST(test_all_to_all_reach)
{
    const struct reach_case *c = &reach_cases[_i];
    double in = 8e6 * 7 / 64 / 1e11;

    ck_assert_msg(fabs(comm_all_to_all_reach_s(8e6, 64, 8, 8, c->reach, 1e11,
                                               1e10) -
                       (in + 1e6 * c->remote / 1e10)) <
                      1e-12 * (in + 1e6 * c->remote / 1e10),
                  "%s", c->source);
    /* never more than the unlimited forwarding dispatcher */
    ck_assert(comm_all_to_all_reach_s(8e6, 64, 8, 8, c->reach, 1e11, 1e10) <=
              comm_all_to_all_tiers_s(8e6, 64, 8, 8, true, 1e11, 1e10) *
                  (1 + 1e-12));
}
END_TEST

/* Invariants: times grow with the bytes and the latency, shrink with the
 * bandwidth; all-reduce is reduce-scatter plus all-gather in bytes. */
START_TEST(test_invariants)
{
    for (double n = 2; n <= 1024; n *= 2) {
        double ar = comm_allreduce_s(1e9, n, 1e11, 0);

        ck_assert_rel(ar,
                      comm_reduce_scatter_s(1e9, n, 1e11, 0) +
                          comm_all_gather_s(1e9, n, 1e11, 0),
                      1e-12);
        ck_assert(comm_allreduce_s(2e9, n, 1e11, 1e-6) >
                  comm_allreduce_s(1e9, n, 1e11, 1e-6));
        ck_assert(comm_allreduce_s(1e9, n, 2e11, 1e-6) <
                  comm_allreduce_s(1e9, n, 1e11, 1e-6));
        ck_assert(comm_all_to_all_s(1e9, n, 1e11, 2e-6) >
                  comm_all_to_all_s(1e9, n, 1e11, 1e-6));
    }
}
END_TEST

Suite *suite_comm(void)
{
    Suite *s = suite_create("comm");
    TCase *tc = tcase_create("core");

    tcase_add_loop_test(tc, test_cases, 0,
                        (int)(sizeof(cases) / sizeof(cases[0])));
    tcase_add_test(tc, test_remote_copies);
    tcase_add_test(tc, test_all_to_all_tiers);
    tcase_add_loop_test(tc, test_all_to_all_reach, 0,
                        sizeof(reach_cases) / sizeof(reach_cases[0]));
    tcase_add_test(tc, test_invariants);
    suite_add_tcase(s, tc);
    return s;
}
