/* check_facts.c - facts core returns so that the planner never recomputes
 * or parses them: the serving demand (peak ratio, peak request rate), a
 * hybrid's owned base, and validation without the training layout. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "check_helpers.h"
#include "core/diag.h"
#include "core/scenario.h"
#include "core/serve.h"
#include "fixture.h"

/* {requests_per_s, tokens_per_day, output_tokens, peak_to_avg, expected
 * peak req/s, source} */
static const struct {
    double rps, tpd;
    uint64_t out;
    double ratio, want;
    const char *source;
} demand[] = {
    {12, 1e9, 256, 3, 12, "a given rate is the peak rate"},
    /* 8.64e9 tok/day over 1000 tokens: 100 req/s mean, x2 at the peak */
    {0, 8.64e9, 1000, 2, 200, "daily tokens / output / 86400 x peak"},
    {0, 8.64e9, 1000, 1, 100, "a flat day"},
    {0, 8.64e9, 1000, 0.5, 100, "a ratio below 1 is a flat day"},
    {0, 8.64e9, 0, 2, 0, "no output length, no rate"},
    {0, 0, 1000, 2, 0, "no demand"},
};

START_TEST(test_peak_demand)
{
    struct serve_spec sv;

    memset(&sv, 0, sizeof(sv));
    sv.requests_per_s = demand[_i].rps;
    sv.tokens_per_day = demand[_i].tpd;
    sv.output_tokens = demand[_i].out;
    sv.peak_to_avg = demand[_i].ratio;
    ck_assert_msg(fabs(serve_peak_demand_rps(&sv) - demand[_i].want) <=
                      1e-9 * demand[_i].want,
                  "case %d (%s): %g, want %g", _i, demand[_i].source,
                  serve_peak_demand_rps(&sv), demand[_i].want);
    ck_assert(serve_peak_ratio(&sv) >= 1);
}
END_TEST

/* {fleet gpus, utilization at the peak, peak_to_avg, gpus per replica,
 * purchase unit, expected base, source} */
static const struct {
    double gpus, util, ratio, gpr, unit, want;
    const char *source;
} bases[] = {
    /* 64 GPUs 90% busy at a 3x peak: 19.2 GPUs at the mean -> 3 replicas
     * of 8 -> 24, one 8-GPU server each */
    {64, 0.9, 3, 8, 8, 24, "average load in whole replicas"},
    {64, 0.9, 3, 8, 72, 72, "then whole NVL72 racks"},
    {64, 0.9, 3, 2, 8, 24, "20 GPUs of 2-GPU replicas -> 3 servers"},
    {8, 0.1, 4, 8, 8, 8, "at least one replica"},
    {64, 0.9, 1, 8, 8, 0, "no peak: no hybrid base"},
    {64, 0.9, 0.5, 8, 8, 0, "a ratio below 1 is no peak"},
    {64, 0.9, 3, 0, 8, 0, "no replica"},
    /* 48 GPUs exactly at the mean: not rounded up by float noise */
    {96, 1, 2, 8, 8, 48, "whole replicas exactly"},
};

START_TEST(test_hybrid_base)
{
    struct serve_spec sv;
    struct serve_result s;
    double got;

    memset(&sv, 0, sizeof(sv));
    memset(&s, 0, sizeof(s));
    sv.peak_to_avg = bases[_i].ratio;
    s.gpus = bases[_i].gpus;
    s.utilization = bases[_i].util;
    got = serve_hybrid_base_gpus(&sv, &s, bases[_i].gpr, bases[_i].unit);
    ck_assert_msg(got == bases[_i].want, "case %d (%s): %g, want %g", _i,
                  bases[_i].source, got, bases[_i].want);
    /* invariants: whole replicas and units, never negative */
    ck_assert(got >= 0);
    if (got > 0) {
        ck_assert(fmod(got, bases[_i].unit) == 0);
        ck_assert(got >= bases[_i].gpr);
    }
}
END_TEST

/* A layout the model refuses is the search's business: inputs pass, the
 * full check names the layout field.  A bad input fails both alike. */
START_TEST(test_validate_inputs)
{
    struct scenario sc;
    struct diag d;

    fixture_scenario(&sc, "h100-sxm");
    ck_assert_int_eq(scenario_validate(&sc, NULL), CP_OK);
    ck_assert_int_eq(scenario_validate_inputs(&sc, NULL), CP_OK);

    sc.layout.tp = 3; /* does not divide the heads, nor the GPUs */
    ck_assert_int_eq(scenario_validate(&sc, &d), CP_ERR_LAYOUT);
    ck_assert_int_eq(scenario_validate_inputs(&sc, NULL), CP_OK);

    fixture_scenario(&sc, "h100-sxm");
    sc.layout.recompute = (enum recompute)9;
    ck_assert_int_eq(scenario_validate(&sc, &d), CP_ERR_RANGE);
    ck_assert_str_eq(d.where, "parallel.recompute");
    ck_assert_int_eq(scenario_validate_inputs(&sc, NULL), CP_OK);

    fixture_scenario(&sc, "h100-sxm");
    sc.train.tokens = -1;
    ck_assert_int_eq(scenario_validate(&sc, &d), CP_ERR_RANGE);
    ck_assert_str_eq(d.where, "train.tokens");
    diag_clear(&d);
    ck_assert_int_eq(scenario_validate_inputs(&sc, &d), CP_ERR_RANGE);
    ck_assert_str_eq(d.where, "train.tokens");
}
END_TEST

Suite *suite_facts(void)
{
    Suite *s = suite_create("facts");
    TCase *tc = tcase_create("core");

    tcase_add_loop_test(tc, test_peak_demand, 0,
                        (int)(sizeof(demand) / sizeof(demand[0])));
    tcase_add_loop_test(tc, test_hybrid_base, 0,
                        (int)(sizeof(bases) / sizeof(bases[0])));
    tcase_add_test(tc, test_validate_inputs);
    suite_add_tcase(s, tc);
    return s;
}
