/*
 * check_fields_row.c - a field needs one row (core/fields.h): every row is
 * parsed by --set and plan files at its bounds and refused beyond them,
 * written by the INI writer and read back, and echoed from where it lands
 * in struct scenario (the JSON/CSV/text "plan" echo).  --help and the man
 * page are tests/shell/test_fields.sh.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_helpers.h"
#include "core/scenario.h"
#include "plan/plan.h"
#include "plan/resolve.h"
#include "util/strbuf.h"

Suite *suite_fields_row(void);

/* Up to 16 values key k takes: its bounds and a middle value, each
 * choice, yes and no, or a catalog id. */
static size_t samples(const struct field_info *ki, char out[16][64])
{
    size_t i, n = 0;

    switch (ki->type) {
    case PT_COUNT:
        snprintf(out[n++], 64, "%.0f", ki->min);
        snprintf(out[n++], 64, "%.0f", ki->max);
        snprintf(out[n++], 64, "%.0f", ki->min + (ki->max > 8 ? 7 : 0));
        break;
    case PT_NUMBER:
        plan_format_number(ki->min, out[n++], 64);
        plan_format_number(ki->max, out[n++], 64);
        plan_format_number((ki->min + ki->max) / 2, out[n++], 64);
        break;
    case PT_BOOL:
        snprintf(out[n++], 64, "yes");
        snprintf(out[n++], 64, "no");
        break;
    case PT_ENUM:
        for (i = 0; i < plan_enum_count(ki) && n < 16; i++)
            plan_enum_choice(ki, i, out[n++], 64);
        break;
    case PT_ID:
        snprintf(out[n++], 64, "some-id.1");
        break;
    }
    return n;
}

/* Parsed, formatted back to the same text's value, and through the INI
 * writer and reader unchanged. */
START_TEST(test_parsed_and_written)
{
    const struct field_info *ki = plan_key_info((enum plan_key)_i);
    char vals[16][64], text[64], want[160];
    struct plan p, q;
    struct strbuf sb;
    struct diag d;
    size_t i, n = samples(ki, vals);

    ck_assert_uint_ge(n, 1);
    for (i = 0; i < n; i++) {
        plan_init(&p, NULL);
        ck_assert_msg(plan_set_key(&p, (enum plan_key)_i, vals[i], NULL, &d) ==
                          CP_OK,
                      "%s = %s: %s", ki->name, vals[i], d.msg);
        plan_format_value(&p, (enum plan_key)_i, text, sizeof(text));
        plan_init(&q, NULL);
        ck_assert_int_eq(plan_set_key(&q, (enum plan_key)_i, text, NULL, &d),
                         CP_OK);
        ck_assert_msg(plan_equal(&p, &q), "%s: %s formats as %s", ki->name,
                      vals[i], text);
        strbuf_init(&sb, 1 << 16);
        ck_assert_int_eq(plan_write_ini(&p, &sb), CP_OK);
        snprintf(want, sizeof(want), "[%s]\n%s = %s\n", ki->section, ki->key,
                 text);
        ck_assert_str_eq(sb.buf, want);
        plan_init(&q, NULL);
        ck_assert_msg(plan_parse_ini(&q, "t.ini", sb.buf, &d) == CP_OK,
                      "%s: %s", ki->name, d.msg);
        ck_assert(plan_equal(&p, &q));
        strbuf_release(&sb);
    }
}
END_TEST

/* Beyond its bounds: refused, naming the key, the plan unchanged. */
START_TEST(test_refused_beyond_bounds)
{
    const struct field_info *ki = plan_key_info((enum plan_key)_i);
    struct plan p;
    struct diag d;
    char text[64];

    if (ki->type != PT_COUNT && ki->type != PT_NUMBER)
        return;
    plan_init(&p, NULL);
    plan_format_number(ki->max * 2 + 1, text, sizeof(text));
    ck_assert_int_eq(plan_set_key(&p, (enum plan_key)_i, text, NULL, &d),
                     CP_ERR_RANGE);
    ck_assert_str_eq(d.where, ki->name);
    ck_assert(!p.v[_i].set);
    if (ki->min > 0) {
        plan_format_number(ki->min / 2, text, sizeof(text));
        ck_assert_int_ne(plan_set_key(&p, (enum plan_key)_i, text, NULL, &d),
                         CP_OK);
        ck_assert_str_eq(d.where, ki->name);
    }
}
END_TEST

/* What lands at the row's offset is what the echo reports. */
START_TEST(test_echoed_from_its_place)
{
    const struct field_info *ki = plan_key_info((enum plan_key)_i);
    struct scenario *sc = malloc(sizeof(*sc));
    char *at = (char *)sc + ki->offset;
    struct plan_echo e;
    size_t i;

    ck_assert_ptr_nonnull(sc);
    scenario_defaults(sc);
    switch (ki->store) {
    case PS_NONE:
        ck_assert_int_eq(ki->type, PT_ID);
        break;
    case PS_U64: {
        uint64_t u = (uint64_t)ki->min + 3;

        memcpy(at, &u, sizeof(u));
        plan_echo_value(sc, NULL, (enum plan_key)_i, &e);
        ck_assert_msg(e.u == u, "%s: echoes %llu, holds %llu", ki->name,
                      (unsigned long long)e.u, (unsigned long long)u);
        break;
    }
    case PS_F64: {
        double x = ki->min + (ki->max - ki->min) / 4;

        memcpy(at, &x, sizeof(x));
        plan_echo_value(sc, NULL, (enum plan_key)_i, &e);
        if (ki->type == PT_COUNT)
            ck_assert_uint_eq(e.u, (uint64_t)(x + 0.5));
        else
            ck_assert_msg(e.d == x, "%s: echoes %g, holds %g", ki->name, e.d,
                          x);
        break;
    }
    case PS_BOOL: {
        bool b = true;

        memcpy(at, &b, sizeof(b));
        plan_echo_value(sc, NULL, (enum plan_key)_i, &e);
        ck_assert_uint_eq(e.u, 1);
        break;
    }
    case PS_INT:
        for (i = 0; ki->type == PT_ENUM && i < plan_enum_count(ki); i++) {
            int v = ki->enum_values ? ki->enum_values[i] : (int)i;
            char word[32];

            memcpy(at, &v, sizeof(v));
            plan_echo_value(sc, NULL, (enum plan_key)_i, &e);
            plan_enum_choice(ki, i, word, sizeof(word));
            ck_assert_msg(e.s && strcmp(e.s, word) == 0,
                          "%s: value %d echoes %s, its choice is %s",
                          ki->name, v, e.s ? e.s : "(none)", word);
        }
        if (ki->type == PT_COUNT) {
            int v = (int)ki->max;

            memcpy(at, &v, sizeof(v));
            plan_echo_value(sc, NULL, (enum plan_key)_i, &e);
            ck_assert_uint_eq(e.u, (uint64_t)v);
        }
        break;
    }
    free(sc);
}
END_TEST

Suite *suite_fields_row(void)
{
    Suite *s = suite_create("fields_row");
    TCase *tc = tcase_create("row");

    tcase_add_loop_test(tc, test_parsed_and_written, 0, PLAN_KEY_COUNT);
    tcase_add_loop_test(tc, test_refused_beyond_bounds, 0, PLAN_KEY_COUNT);
    tcase_add_loop_test(tc, test_echoed_from_its_place, 0, PLAN_KEY_COUNT);
    suite_add_tcase(s, tc);
    return s;
}
