/*
 * check_serve_chunked_pp.c - one long prompt on a prefill pool of pp
 * pipeline stages in chunks (chunked pipeline parallelism, the SGLang
 * GB300 long-context blog's 128K prompts): the stages work on successive
 * chunks at once, and causal chunks grow, chunk i attending to the i
 * before it.  The prompt's first token comes after all passes over pp
 * plus pp - 1 stage times of the last, longest, pass.
 */
#include <math.h>
#include <string.h>

#include "check_helpers.h"
#include "core/model.h"
#include "core/scenario.h"
#include "core/serve.h"
#include "fixture.h"

/* Llama 3 70B shape (Meta model card) on fixture H100s, fp8, an engine
 * like the TensorRT-LLM row; one long prompt at a time on a prefill pool
 * of one tp1 x pp replica. */
static void long_prompt(struct scenario *sc, uint64_t pp, double in,
                        double hit_frac, double chunk)
{
    fixture_serving(sc, 1);
    sc->layout.pp = pp;
    sc->gpus = pp;
    sc->stack.prefill_chunk = chunk;
    sc->serve.input_tokens = (uint64_t)in;
    sc->serve.output_tokens = 16;
    sc->serve.prefix_hit_frac = hit_frac;
    sc->serve.mode = SERVE_ONLINE;
    sc->serve.concurrency = 1;
    sc->serve.pool = POOL_PREFILL;
}

static double prefill_ms(const struct scenario *sc)
{
    struct result r;
    struct diag d;

    diag_clear(&d);
    ck_assert_msg(scenario_validate(sc, &d) == CP_OK, "%s: %s", d.where, d.msg);
    scenario_eval(sc, &r);
    ck_assert(r.serve.fits);
    return r.serve.prefill_ms;
}

/* A prompt of `in` tokens in chunks of `chunk` on pp stages.  Every pass
 * is measured on its own as a one-pass prompt whose earlier tokens come
 * from the prefix cache: the mean pass attends to in / 2 tokens (a
 * prompt of in / 2 + chunk / 2 tokens, in / 2 - chunk / 2 cached), the
 * last to all in (in tokens, in - chunk cached).  Expected: n passes x
 * mean / pp + (pp - 1) x last / pp. */
/* clang-format off */
static const struct chunk_case {
    uint64_t pp;
    double in, chunk; /* inputs */
    double n;         /* expected passes */
    const char *source;
} cases[] = {
    {4, 131072, 32768, 4, "SGLang GB300 blog: 128K prompt, PP4, 32K chunks"},
    {2, 65536, 8192, 8, "8 chunks over 2 stages"},
    {4, 16384, 16384, 1, "one pass: no pipelining, the pass itself"},
    {1, 32768, 8192, 4, "one stage: the passes back to back"},
};
/* clang-format on */

START_TEST(test_chunked_pp_table)
{
    const struct chunk_case *c = &cases[_i];
    struct scenario sc;
    double pp = (double)c->pp, got, mean, last, want;

    long_prompt(&sc, c->pp, c->in, 0, c->chunk);
    got = prefill_ms(&sc);
    long_prompt(&sc, c->pp, c->in / 2 + c->chunk / 2,
                (c->in / 2 - c->chunk / 2) / (c->in / 2 + c->chunk / 2),
                c->chunk);
    mean = prefill_ms(&sc);
    long_prompt(&sc, c->pp, c->in, (c->in - c->chunk) / c->in, c->chunk);
    last = prefill_ms(&sc);
    want = c->n > 1 ? (c->n * mean + (pp - 1) * last) / pp : last;
    ck_assert_msg(fabs(got - want) <= 1e-9 * want, "%s: %.6f ms, want %.6f",
                  c->source, got, want);
    /* the last pass attends to the most: never shorter than the mean */
    ck_assert(last >= mean * (1 - 1e-12));
    /* at least the equal-pass pipeline's (n + pp - 1) stage times */
    ck_assert(got >= (c->n + pp - 1) * mean / pp * (1 - 1e-12));
}
END_TEST

Suite *suite_serve_chunked_pp(void); /* listed by the Makefile */

Suite *suite_serve_chunked_pp(void)
{
    Suite *s = suite_create("serve_chunked_pp");
    TCase *core = tcase_create("core");

    tcase_add_loop_test(core, test_chunked_pp_table, 0,
                        (int)(sizeof(cases) / sizeof(cases[0])));
    suite_add_tcase(s, core);
    return s;
}
