/*
 * check_fields.c - the field table (core/fields.h) is complete and
 * scenario_validate() checks every numeric field against its row's
 * bounds, so a bound is written once.
 */
#include <check.h>
#include <stdlib.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "check_helpers.h"
#include "core/fields.h"
#include "core/scenario.h"
#include "fixture.h"

/* A valid scenario of the workload a field belongs to. */
static void base_for(const struct field_info *fi, struct scenario *sc)
{
    struct diag d;

    fixture_scenario(sc, "h100-sxm");
    if (strcmp(fi->section, "serve") == 0) {
        sc->workload = WORKLOAD_SERVE;
        sc->stack.mbu = 0.8;
        sc->stack.kv_mem_frac = 0.9;
        sc->stack.max_seqs = 256;
        sc->stack.allreduce_s = 5e-6;
        sc->stack.decode_overlap = 0.3;
    }
    diag_clear(&d);
    ck_assert_msg(scenario_validate(sc, &d) == CP_OK, "base for %s: %s: %s",
                  fi->name, d.where, d.msg);
}

/* Write v into the scenario member field f lands in. */
static void set_field(struct scenario *sc, enum field_id f, double v)
{
    const struct field_info *fi = field_info(f);
    char *at = (char *)sc + fi->offset;
    uint64_t u = (uint64_t)v;
    int e = (int)v;

    if (fi->store == PS_U64)
        memcpy(at, &u, sizeof(u));
    else if (fi->store == PS_F64)
        memcpy(at, &v, sizeof(v));
    else if (fi->store == PS_INT)
        memcpy(at, &e, sizeof(e));
}

static size_t store_size(enum field_store s)
{
    switch (s) {
    case PS_U64:
        return sizeof(uint64_t);
    case PS_F64:
        return sizeof(double);
    case PS_BOOL:
        return sizeof(bool);
    case PS_INT:
        return sizeof(int);
    case PS_NONE:
        break;
    }
    return 0;
}

START_TEST(test_rows_complete)
{
    size_t f, s = 0;
    char name[96];
    enum field_id found;

    for (f = 0; f < FIELD_COUNT; f++) {
        const struct field_info *fi = field_info((enum field_id)f);

        ck_assert_ptr_nonnull(fi);
        snprintf(name, sizeof(name), "%s.%s", fi->section, fi->key);
        ck_assert_str_eq(fi->name, name);
        ck_assert_int_eq(field_find(fi->name, &found), CP_OK);
        ck_assert_int_eq(found, (int)f);
        ck_assert_msg(fi->help && fi->help[0], "%s: no help", fi->name);
        ck_assert_msg(fi->def && fi->def[0], "%s: no default", fi->name);
        ck_assert_ptr_nonnull(fi->unit);
        /* sections are contiguous and in field_sections order */
        while (field_sections[s] && strcmp(field_sections[s], fi->section))
            s++;
        ck_assert_msg(field_sections[s] != NULL, "%s out of section order",
                      fi->name);
        switch (fi->type) {
        case PT_COUNT:
        case PT_NUMBER:
            ck_assert_msg(fi->min <= fi->max, "%s: min > max", fi->name);
            ck_assert_msg(fi->store == PS_U64 || fi->store == PS_F64 ||
                              fi->store == PS_INT,
                          "%s: a number stored as nothing", fi->name);
            break;
        case PT_ENUM:
            ck_assert_uint_ge(field_enum_count(fi), 2);
            ck_assert_int_eq(fi->store, PS_INT);
            break;
        case PT_BOOL:
            ck_assert_int_eq(fi->store, PS_BOOL);
            break;
        case PT_ID:
            ck_assert_int_ne(fi->ref, FIELD_REF_NONE);
            ck_assert_int_eq(fi->store, PS_NONE);
            break;
        }
        if (fi->type != PT_ID)
            ck_assert_int_eq(fi->ref, FIELD_REF_NONE);
        if (fi->store != PS_NONE)
            ck_assert_msg(fi->offset + store_size(fi->store) <=
                              sizeof(struct scenario),
                          "%s lands outside struct scenario", fi->name);
    }
    ck_assert_ptr_null(field_info(FIELD_COUNT));
    ck_assert_int_eq(field_find("model.nope", &found), CP_ERR_NOT_FOUND);
}
END_TEST

/* Every numeric field: a value above its max (and below its min, where
 * that is not the "not given" 0) is refused by scenario_validate, naming
 * the field. */
START_TEST(test_every_field_validated)
{
    const struct field_info *fi = field_info((enum field_id)_i);
    struct scenario sc;
    struct diag d;
    double below;

    if (fi->type != PT_COUNT && fi->type != PT_NUMBER)
        return;
    base_for(fi, &sc);
    set_field(&sc, (enum field_id)_i, fi->max * 2 + 1);
    diag_clear(&d);
    ck_assert_msg(scenario_validate(&sc, &d) == CP_ERR_RANGE,
                  "%s above its max passes validation", fi->name);
    ck_assert_str_eq(d.where, fi->name);

    below = fi->type == PT_COUNT ? fi->min - 1 : fi->min / 2;
    if (!(fi->min > 0) || below <= 0)
        return;
    base_for(fi, &sc);
    set_field(&sc, (enum field_id)_i, below);
    diag_clear(&d);
    ck_assert_msg(scenario_validate(&sc, &d) == CP_ERR_RANGE,
                  "%s = %g below its min passes validation", fi->name, below);
    ck_assert_str_eq(d.where, fi->name);
}
END_TEST

/* Every enum field: a value past its last choice is refused by
 * scenario_validate, naming the field and its choices (the field's row,
 * not a second list of words in the validator). */
START_TEST(test_every_enum_validated)
{
    const struct field_info *fi = field_info((enum field_id)_i);
    struct scenario sc;
    struct diag d;
    char last[64], want[96];

    if (fi->type != PT_ENUM || fi->store != PS_INT)
        return;
    base_for(fi, &sc);
    /* one past the last choice; -1 where the choices map to C values */
    set_field(&sc, (enum field_id)_i,
              fi->enum_values ? -1 : (double)field_enum_count(fi));
    diag_clear(&d);
    ck_assert_msg(scenario_validate(&sc, &d) == CP_ERR_RANGE,
                  "%s past its last choice passes validation", fi->name);
    ck_assert_str_eq(d.where, fi->name);
    field_enum_choice(fi, field_enum_count(fi) - 1, last, sizeof(last));
    snprintf(want, sizeof(want), " or %s", last);
    ck_assert_msg(strstr(d.msg, want) != NULL, "%s: \"%s\" does not name %s",
                  fi->name, d.msg, last);
}
END_TEST

/* Bounds where plan, catalog and core disagreed before the one table
 * (issue 21 item 1); the row's bound is what all three check now. */
static const struct bound_case {
    enum field_id f;
    double v;
    enum cp_status want;
    const char *source;
} bound_cases[] = {
    {FLD_REL_NODE_MTBF_H, 5e7, CP_OK,
     "issue 21: a system imported at 5e7 h quotes, so --set takes it"},
    {FLD_REL_NODE_MTBF_H, 0.5, CP_ERR_RANGE,
     "bounds.h B_NODE_MTBF_H_MIN: core took [0, 1e9], plan [1, 1e9]"},
    {FLD_MODEL_PARAMS, 999, CP_ERR_RANGE,
     "bounds.h B_MODEL_PARAMS_MIN: core took >= 1e3, plan >= 1"},
    {FLD_MODEL_SHARED_EXPERTS, 2048, CP_OK,
     "bounds.h B_MODEL_HEADS_MAX: plan and catalog took 65536, core 1024"},
    {FLD_MODEL_EXPERTS, 100000, CP_ERR_RANGE,
     "bounds.h B_MODEL_HEADS_MAX: plan and catalog 65536, core 1e6"},
    {FLD_PAR_INTERLEAVE, 2048, CP_ERR_RANGE,
     "plan 1024; core took up to 1e5"},
    {FLD_SERVE_PREFIX_HIT, 0.9995, CP_ERR_RANGE, "plan 0.999; core < 1"},
    {FLD_FIN_DEPRECIATION_YEARS, 0.1, CP_ERR_RANGE,
     "plan [0.25, 30]; core [0.01, 100]"},
    {FLD_FIN_FACILITY_YEARS, 0.5, CP_ERR_RANGE, "plan [1, 100]; core [0, 100]"},
    {FLD_REL_RESTART_MIN, 20000, CP_ERR_RANGE,
     "plan 10080 (a week); core 1e6"},
    {FLD_SERVE_INPUT_TOKENS, 2e7, CP_ERR_RANGE,
     "bounds.h B_COUNT_MAX 2^24; core took 1e9"},
};

START_TEST(test_bound_cases)
{
    const struct bound_case *c = &bound_cases[_i];
    const struct field_info *fi = field_info(c->f);
    struct scenario sc;
    struct diag d;
    enum cp_status st;

    base_for(fi, &sc);
    if (c->f == FLD_MODEL_SHARED_EXPERTS) {
        /* shared experts need a mixture-of-experts model */
        sc.model.experts = 8;
        sc.model.experts_active = 2;
    }
    set_field(&sc, c->f, c->v);
    diag_clear(&d);
    st = scenario_validate(&sc, &d);
    ck_assert_msg(st == c->want, "%s = %g: %s (%s: %s); want %s (%s)",
                  fi->name, c->v, cp_status_str(st), d.where, d.msg,
                  cp_status_str(c->want), c->source);
    if (st)
        ck_assert_str_eq(d.where, fi->name);
}
END_TEST

/* The first word of a default text when the rest is a remark (" (...)",
 * "; ...", ", ..."); "" when the text is prose ("yes when tp > 1"). */
static void default_word(const char *def, char *buf, size_t n)
{
    size_t len = strcspn(def, " ;,");
    const char *rest = def + len;

    buf[0] = '\0';
    if (*rest && strncmp(rest, " (", 2) != 0 && *rest != ';' && *rest != ',')
        return;
    snprintf(buf, n, "%.*s", (int)len, def);
}

/* The default --help shows for a field is what scenario_defaults() puts
 * in the scenario (0 stands for the shown default where the field says
 * 0 is "not given"). */
START_TEST(test_defaults_agree)
{
    struct scenario sc;
    size_t f, compared = 0;
    char word[64], choice[32];

    scenario_defaults(&sc);
    for (f = 0; f < FIELD_COUNT; f++) {
        const struct field_info *fi = field_info((enum field_id)f);
        const char *at = (const char *)&sc + fi->offset;
        char *end;
        double want, got = 0;
        uint64_t u;
        int e;
        bool b;

        default_word(fi->def, word, sizeof(word));
        if (!word[0] || fi->store == PS_NONE)
            continue;
        if (fi->store == PS_U64) {
            memcpy(&u, at, sizeof(u));
            got = (double)u;
        } else if (fi->store == PS_F64) {
            memcpy(&got, at, sizeof(got));
        } else if (fi->store == PS_BOOL) {
            memcpy(&b, at, sizeof(b));
            if (strcmp(word, "yes") == 0 || strcmp(word, "no") == 0) {
                ck_assert_msg(b == (word[0] == 'y'), "%s: default %s, got %d",
                              fi->name, word, b);
                compared++;
            }
            continue;
        } else {
            size_t i, n = field_enum_count(fi);

            memcpy(&e, at, sizeof(e));
            for (i = 0; i < n; i++) {
                int v = fi->enum_values ? fi->enum_values[i] : (int)i;

                if (v == e)
                    break;
            }
            if (fi->type == PT_ENUM) {
                size_t j;

                for (j = 0; j < n; j++)
                    if (strcmp(field_enum_choice(fi, j, choice,
                                                 sizeof(choice)),
                               word) == 0)
                        break;
                if (j == n)
                    continue; /* "preset's" */
                ck_assert_msg(i < n, "%s: default value %d is no choice",
                              fi->name, e);
                field_enum_choice(fi, i, choice, sizeof(choice));
                ck_assert_msg(strcmp(choice, word) == 0,
                              "%s: --help says %s, scenario_defaults %s",
                              fi->name, word, choice);
                compared++;
                continue;
            }
            got = e;
        }
        want = strtod(word, &end);
        if (*end)
            continue; /* "preset", "auto", "site's" */
        if (got == 0 && (fi->flags & PKF_ZERO_UNSET))
            got = want;
        ck_assert_msg(got == want, "%s: --help says %s, scenario_defaults %g",
                      fi->name, fi->def, got);
        compared++;
    }
    ck_assert_uint_ge(compared, 40);
}
END_TEST

START_TEST(test_check_helpers)
{
    struct diag d;

    diag_clear(&d);
    ck_assert_int_eq(field_check_real(FLD_SITE_PUE, 5.5, &d), CP_ERR_RANGE);
    ck_assert_str_eq(d.where, "site.pue");
    ck_assert_str_eq(d.msg, "5.5 is out of range [1, 5]");
    ck_assert_int_eq(field_check_real(FLD_SITE_PUE, 1.2, &d), CP_OK);
    ck_assert_int_eq(field_check_real(FLD_SITE_PUE, (double)NAN, &d),
                     CP_ERR_RANGE);
    /* 0 is "not given" for a PKF_ZERO_UNSET field only */
    ck_assert_int_eq(field_check_count(FLD_MODEL_LAYERS, 0, &d), CP_OK);
    ck_assert_int_eq(field_check_count(FLD_HW_GPUS, 0, &d), CP_ERR_RANGE);
    ck_assert_str_eq(d.msg, "0 is out of range [1, 1.67772e+07]");
}
END_TEST

Suite *suite_fields(void); /* listed by the Makefile */

Suite *suite_fields(void)
{
    Suite *s = suite_create("fields");
    TCase *tc = tcase_create("table");

    tcase_add_test(tc, test_rows_complete);
    tcase_add_test(tc, test_check_helpers);
    tcase_add_test(tc, test_defaults_agree);
    tcase_add_loop_test(tc, test_every_field_validated, 0, FIELD_COUNT);
    tcase_add_loop_test(tc, test_every_enum_validated, 0, FIELD_COUNT);
    tcase_add_loop_test(tc, test_bound_cases, 0,
                        (int)(sizeof(bound_cases) / sizeof(bound_cases[0])));
    suite_add_tcase(s, tc);
    return s;
}
