/*
 * check_apply.c - a chosen layout written back into a plan's keys
 * (plan/apply.c): the keys each path writes, the serving replica's EP and
 * disaggregated pools (size's serving point did not write EP, the TUI's
 * apply did not write the pools), and the serving predicate.
 */
#include <check.h>
#include <string.h>

#include "check_helpers.h"
#include "plan/apply.h"

Suite *suite_apply(void);

static struct plan serve_plan(void)
{
    struct plan p;

    plan_init(&p, "t");
    ck_assert_int_eq(plan_set_key(&p, PK_WORKLOAD_KIND, "serve", NULL, NULL),
                     CP_OK);
    return p;
}

START_TEST(test_is_serve)
{
    struct plan p;

    plan_init(&p, "t");
    ck_assert(!plan_is_serve(&p));
    ck_assert_int_eq(plan_set_key(&p, PK_WORKLOAD_KIND, "train", NULL, NULL),
                     CP_OK);
    ck_assert(!plan_is_serve(&p));
    p = serve_plan();
    ck_assert(plan_is_serve(&p));
}
END_TEST

START_TEST(test_layout_keys)
{
    struct plan p;
    struct layout l = {0};

    plan_init(&p, "t");
    l.tp = 8, l.pp = 4, l.dp = 32, l.cp = 2, l.ep = 1, l.microbatch = 2;
    l.interleave = 5, l.zero = 1, l.recompute = RECOMPUTE_SELECTIVE;
    l.sequence_parallel = true;
    ck_assert_int_eq(plan_set_layout(&p, &l, ATTN_FLASH, NULL), CP_OK);
    ck_assert_uint_eq(p.v[PK_PAR_TP].u, 8);
    ck_assert_uint_eq(p.v[PK_PAR_PP].u, 4);
    ck_assert_uint_eq(p.v[PK_PAR_DP].u, 32);
    ck_assert_uint_eq(p.v[PK_PAR_CP].u, 2);
    ck_assert_uint_eq(p.v[PK_PAR_MICROBATCH].u, 2);
    ck_assert_uint_eq(p.v[PK_PAR_INTERLEAVE].u, 5);
    ck_assert_uint_eq(p.v[PK_PAR_ZERO].u, 1);
    ck_assert_uint_eq(p.v[PK_PAR_RECOMPUTE].u, RECOMPUTE_SELECTIVE);
    ck_assert_uint_eq(p.v[PK_PAR_SEQUENCE_PARALLEL].u, 1);
    ck_assert_uint_eq(p.v[PK_TRAIN_ATTENTION].u, ATTN_FLASH);
    ck_assert(!p.v[PK_SERVE_MAX_BATCH].set);
}
END_TEST

START_TEST(test_replica_keys)
{
    struct plan p = serve_plan();
    struct layout l = {0};
    struct serve_pool_spec pf = {0, 1, 32, 32, 0}, dc = {0, 1, 144, 144, 0};

    l.tp = 4, l.pp = 1, l.ep = 8;
    ck_assert_int_eq(plan_set_replica(&p, &l, 0, NULL, NULL, NULL), CP_OK);
    ck_assert_uint_eq(p.v[PK_PAR_TP].u, 4);
    ck_assert_uint_eq(p.v[PK_PAR_EP].u, 8);
    ck_assert(p.v[PK_SERVE_MAX_BATCH].is_auto);
    ck_assert(!p.v[PK_PAR_DP].set);
    ck_assert(!p.v[PK_SERVE_DISAGGREGATED].set);

    ck_assert_int_eq(plan_set_replica(&p, &l, 256, &pf, &dc, NULL), CP_OK);
    ck_assert_uint_eq(p.v[PK_SERVE_MAX_BATCH].u, 256);
    ck_assert(p.v[PK_SERVE_DISAGGREGATED].set);
    ck_assert_uint_eq(p.v[PK_SERVE_PREFILL_EP].u, 32);
    ck_assert_uint_eq(p.v[PK_SERVE_DECODE_EP].u, 144);
    ck_assert_uint_eq(p.v[PK_SERVE_DECODE_ATTENTION_DP].u, 144);
}
END_TEST

/* A hit is applied as what the plan is: a replica on a serving plan (no
 * dp written), a whole layout on a training plan. */
START_TEST(test_apply_hit)
{
    struct plan s = serve_plan(), t;
    struct search_hit h;

    memset(&h, 0, sizeof(h));
    h.layout.tp = 2, h.layout.pp = 1, h.layout.dp = 4, h.layout.ep = 2;
    h.layout.microbatch = 1, h.layout.interleave = 1, h.layout.cp = 1;
    h.max_batch = 64;
    plan_init(&t, "t");
    ck_assert_int_eq(plan_apply_hit(&s, &h, NULL), CP_OK);
    ck_assert_int_eq(plan_apply_hit(&t, &h, NULL), CP_OK);
    ck_assert_uint_eq(s.v[PK_PAR_EP].u, 2);
    ck_assert_uint_eq(s.v[PK_SERVE_MAX_BATCH].u, 64);
    ck_assert(!s.v[PK_PAR_DP].set);
    ck_assert_uint_eq(t.v[PK_PAR_DP].u, 4);
    ck_assert(!t.v[PK_SERVE_MAX_BATCH].set);
}
END_TEST

Suite *suite_apply(void)
{
    Suite *s = suite_create("apply");
    TCase *tc = tcase_create("core");

    tcase_add_test(tc, test_is_serve);
    tcase_add_test(tc, test_layout_keys);
    tcase_add_test(tc, test_replica_keys);
    tcase_add_test(tc, test_apply_hit);
    suite_add_tcase(s, tc);
    return s;
}
