/*
 * check_safety.c - issue 14 ("what a newcomer and an attacker hit"), the
 * parts with a C API; the rest is in tests/shell/test_hardening.sh:
 *   - C-c quits in every view whatever a keys file says;
 *   - plan INI lines of any length, indented lines are ordinary lines;
 *   - K M G T in either case and B (billions) as count suffixes;
 *   - control characters shown as ^X for terminals;
 *   - February 29 only in leap years; a NUL byte in a CSV field refused;
 *   - a plan value longer than any value of the schema is refused, not cut.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "plan/plan.h"
#include "ui/keymap.h"
#include "util/ini.h"
#include "util/number.h"
#include "util/strbuf.h"
#include "util/termsafe.h"

START_TEST(test_ctrl_c_always_quits)
{
    struct keymap km;
    struct strbuf err = STRBUF_INIT;

    keymap_init(&km);
    ck_assert_int_ne(keymap_parse(&km, "keys",
                                  "bind global q none\n"
                                  "bind global F10 none\n"
                                  "bind global C-c none\n"
                                  "bind plan C-c help\n",
                                  &err),
                     CP_OK);
    ck_assert_ptr_nonnull(strstr(err.buf, "keys:3: C-c always quits"));
    ck_assert_ptr_nonnull(strstr(err.buf, "keys:4: C-c always quits"));
    ck_assert_int_eq(keymap_lookup(&km, VIEW_PLAN, 'q'), ACT_NONE);
    ck_assert_int_eq(keymap_lookup(&km, VIEW_PLAN, UK_CTRL('c')), ACT_QUIT);
    ck_assert_int_eq(keymap_lookup(&km, VIEW_CATALOG, UK_CTRL('c')),
                     ACT_QUIT);
    /* even a binding made without the parser cannot take it */
    keymap_bind(&km, VIEW_SEARCH, UK_CTRL('c'), ACT_HELP);
    ck_assert_int_eq(keymap_lookup(&km, VIEW_SEARCH, UK_CTRL('c')), ACT_QUIT);
    keymap_release(&km);
    strbuf_release(&err);
}
END_TEST

struct kv {
    char text[4096];
    int n;
};

static enum cp_status collect_kv(void *ctx, const char *section,
                                 const char *key, const char *value, int line,
                                 struct diag *d)
{
    struct kv *kv = ctx;
    size_t len = strlen(kv->text);

    (void)d;
    snprintf(kv->text + len, sizeof(kv->text) - len, "%d:%s.%s=%s|", line,
             section, key, value);
    kv->n++;
    return CP_OK;
}

START_TEST(test_ini_long_and_indented_lines)
{
    struct kv kv = {{0}, 0};
    struct diag d;
    char text[2048];

    snprintf(text, sizeof(text),
             "[model]\n; %0300d\npreset = llama3-8b%250s; why\n"
             "[parallel]\ntp = 2\n  pp = 4\n\tdp = 8 ; tabbed\n",
             0, "");
    diag_clear(&d);
    ck_assert_int_eq(ini_parse_text("p.ini", text, collect_kv, &kv, &d),
                     CP_OK);
    ck_assert_str_eq(kv.text, "3:model.preset=llama3-8b|5:parallel.tp=2|"
                              "6:parallel.pp=4|7:parallel.dp=8|");
    memset(&kv, 0, sizeof(kv));
    ck_assert_int_eq(
        ini_parse_text("p.ini", "[model]\nno equals sign\n", collect_kv, &kv,
                       &d),
        CP_ERR_PARSE);
    ck_assert_str_eq(d.where, "p.ini:2");
}
END_TEST

START_TEST(test_suffixes)
{
    double x;
    uint64_t u;

    ck_assert_int_eq(number_parse("15t", 1, &x), CP_OK);
    ck_assert_double_eq(x, 15e12);
    ck_assert_int_eq(number_parse("30B", 1, &x), CP_OK);
    ck_assert_double_eq(x, 30e9);
    ck_assert_int_eq(number_parse("70b", 1, &x), CP_OK);
    ck_assert_double_eq(x, 70e9);
    ck_assert_int_eq(number_parse("2m", 1, &x), CP_OK);
    ck_assert_double_eq(x, 2e6);
    ck_assert_int_eq(number_parse("1.5g", 1, &x), CP_OK);
    ck_assert_double_eq(x, 1.5e9);
    ck_assert_int_eq(number_parse_count("8B", &u), CP_OK);
    ck_assert_uint_eq(u, 8000000000u);
    /* no suffix where none is allowed, and nothing else */
    ck_assert_int_eq(number_parse("30B", 0, &x), CP_ERR_PARSE);
    ck_assert_int_eq(number_parse("30P", 1, &x), CP_ERR_PARSE);
    ck_assert_int_eq(number_parse("30BB", 1, &x), CP_ERR_PARSE);
}
END_TEST

START_TEST(test_term_safe)
{
    struct strbuf sb = STRBUF_INIT;
    char *buf = NULL;
    size_t len = 0;
    FILE *f;

    ck_assert_str_eq(term_safe_str("plain text", &sb, 0), "plain text");
    ck_assert_str_eq(term_safe_str("\033[31mred\a\r\b\x7f", &sb, 0),
                     "^[[31mred^G^M^H^?");
    ck_assert_str_eq(term_safe_str("a\nb\tc", &sb, 0), "a^Jb^Ic");
    ck_assert_str_eq(term_safe_str("csi \xc2\x9b x, \xc3\xa9", &sb, 0),
                     "csi <U+009B> x, \xc3\xa9");
    f = open_memstream(&buf, &len);
    ck_assert_int_eq(term_safe_write(f, "l1\n\033]0;t\a\tx\n", 12,
                                     TERM_SAFE_LINES),
                     0);
    fclose(f);
    ck_assert_str_eq(buf, "l1\n^[]0;t^G\tx\n");
    free(buf);
    strbuf_release(&sb);
}
END_TEST

static enum cp_status import_date(struct catalog *cat, const char *date)
{
    char csv[256];
    struct diag d;

    snprintf(csv, sizeof(csv),
             "id,name,hbm_gib,hbm_tb_s,source,as_of\nd-x,D,1,1,s,%s\n", date);
    return catalog_import_buffer(cat, CATALOG_ACCELERATORS, "d.csv", csv,
                                 strlen(csv), &d);
}

START_TEST(test_dates_and_nul)
{
    struct catalog *cat = NULL;
    struct diag d;
    static const char nul_csv[] = "id,name,hbm_gib,hbm_tb_s,source,as_of\n"
                                  "n-x,A\0B,1,1,s,2024\n";

    ck_assert_int_eq(catalog_open(":memory:", 0, &cat, &d), CP_OK);
    ck_assert_int_eq(import_date(cat, "2023-02-29"), CP_ERR_RANGE);
    ck_assert_int_eq(import_date(cat, "1900-02-29"), CP_ERR_RANGE);
    ck_assert_int_eq(import_date(cat, "2024-02-29"), CP_OK);
    ck_assert_int_eq(import_date(cat, "2000-02-29"), CP_OK);
    ck_assert_int_eq(import_date(cat, "2023-02-28"), CP_OK);
    ck_assert_int_eq(catalog_import_buffer(cat, CATALOG_ACCELERATORS, "n.csv",
                                           nul_csv, sizeof(nul_csv) - 1, &d),
                     CP_ERR_PARSE);
    ck_assert_str_eq(d.where, "n.csv:2");
    catalog_close(cat);
}
END_TEST

START_TEST(test_long_values_refused)
{
    struct plan p;
    struct diag d;
    char value[400];

    memset(&p, 0, sizeof(p));
    snprintf(value, sizeof(value), "8%300sjunk", "");
    diag_clear(&d);
    ck_assert_int_eq(plan_set_key(&p, PK_HW_GPUS, value, NULL, &d),
                     CP_ERR_RANGE);
    ck_assert_ptr_nonnull(strstr(d.msg, "longer than"));
    ck_assert_int_eq(plan_set_key(&p, PK_HW_GPUS, " 8 ", NULL, &d),
                     CP_OK);
}
END_TEST

Suite *suite_safety(void)
{
    Suite *s = suite_create("safety");
    TCase *tc = tcase_create("errors");

    tcase_add_test(tc, test_ctrl_c_always_quits);
    tcase_add_test(tc, test_ini_long_and_indented_lines);
    tcase_add_test(tc, test_suffixes);
    tcase_add_test(tc, test_term_safe);
    tcase_add_test(tc, test_dates_and_nul);
    tcase_add_test(tc, test_long_values_refused);
    suite_add_tcase(s, tc);
    return s;
}
