/*
 * check_export.c - the exporters on a real evaluation: JSON keys present
 * and in README "Output" order, every number finite, CSV that parses with
 * more than 30 rows and one column per plan, text with the better values
 * marked.
 */
#include <check.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "check_helpers.h"
#include "export/export.h"
#include "export/metrics.h"
#include "plan/resolve.h"
#include "util/csvio.h"
#include "util/xalloc.h"

Suite *suite_export(void);

static struct catalog *cat;
static struct plan plans[2];
static struct plan_outcome *oc;
static struct export_item items[2];

static void evaluate(int i, const char *accel, const char *gpus)
{
    static const char *const common[] = {"model.preset=llama3-70b",
                                         "train.tokens=15T"};
    char a[64], g[64];
    struct diag d;
    size_t k;

    plan_init(&plans[i], i ? "second" : "first");
    for (k = 0; k < 2; k++)
        ck_assert_int_eq(plan_set_assignment(&plans[i], common[k], &d), CP_OK);
    snprintf(a, sizeof(a), "hardware.accelerator=%s", accel);
    snprintf(g, sizeof(g), "hardware.gpus=%s", gpus);
    ck_assert_int_eq(plan_set_assignment(&plans[i], a, &d), CP_OK);
    ck_assert_int_eq(plan_set_assignment(&plans[i], g, &d), CP_OK);
    ck_assert_msg(plan_evaluate(&plans[i], cat, OBJECTIVE_TIME, &oc[i], &d) ==
                      CP_OK,
                  "%s: %s", d.where, d.msg);
    items[i].name = plans[i].name;
    items[i].sc = &oc[i].res.sc;
    items[i].r = &oc[i].result;
    items[i].res = &oc[i].res;
}

static void setup(void)
{
    struct diag d;

    ck_assert_int_eq(catalog_open(":memory:", 0, &cat, &d), CP_OK);
    oc = calloc(2, sizeof(*oc));
    evaluate(0, "h100-sxm", "1024");
    evaluate(1, "b200", "512");
}

static void teardown(void)
{
    catalog_close(cat);
    free(oc);
}

/* Run an exporter into a string (caller frees). */
#define CAPTURE(buf, len, call)                                                \
    do {                                                                       \
        FILE *fp_ = open_memstream(&(buf), &(len));                            \
        ck_assert_ptr_nonnull(fp_);                                            \
        ck_assert_int_eq((call), CP_OK);                                       \
        fclose(fp_);                                                           \
    } while (0)
#define OUT fp_

static int all_finite(json_t *v)
{
    const char *k;
    json_t *x;
    size_t i;

    if (json_is_real(v))
        return isfinite(json_real_value(v));
    if (json_is_object(v)) {
        json_object_foreach(v, k, x)
        {
            if (!all_finite(x))
                return 0;
        }
    }
    if (json_is_array(v)) {
        json_array_foreach(v, i, x)
        {
            if (!all_finite(x))
                return 0;
        }
    }
    return 1;
}

START_TEST(test_json_keys_in_order)
{
    static const char *const top[] = {
        "plan",        "model",   "layout", "memory", "time",
        "reliability", "storage", "energy", "cost",   "warnings"};
    static const char *const required[] = {
        "memory.weights_gib",
        "memory.total_gib",
        "memory.fits",
        "time.step_s",
        "time.mfu",
        "time.gpu_hours",
        "layout.microbatches",
        "reliability.goodput",
        "storage.checkpoint_gib",
        "energy.cooling",
        "cost.build.capex_usd",
        "cost.cloud.offer",
        "cost.cloud.run_usd",
        "cost.cheaper",
        "plan.hardware.gpus",
        "plan.parallel.tp",
        "plan.train.attention",
        "model.flops_per_token",
    };
    char *buf = NULL;
    size_t len = 0, i, pos = 0;
    json_error_t err;
    json_t *doc;
    const char *key;
    json_t *v;

    CAPTURE(buf, len, export_json_quote(OUT, &items[0], NULL));
    doc = json_loads(buf, 0, &err);
    ck_assert_msg(doc != NULL, "%s", err.text);
    ck_assert(json_is_object(doc));
    /* required top-level keys appear in this order */
    json_object_foreach(doc, key, v)
    {
        if (pos < sizeof(top) / sizeof(top[0]) && strcmp(key, top[pos]) == 0)
            pos++;
    }
    ck_assert_uint_eq(pos, sizeof(top) / sizeof(top[0]));
    for (i = 0; i < sizeof(required) / sizeof(required[0]); i++) {
        char path[96], *part, *save = NULL;
        json_t *cur = doc;

        snprintf(path, sizeof(path), "%s", required[i]);
        for (part = strtok_r(path, ".", &save); part && cur;
             part = strtok_r(NULL, ".", &save))
            cur = json_object_get(cur, part);
        ck_assert_msg(cur != NULL, "missing %s", required[i]);
    }
    ck_assert(
        json_is_true(json_object_get(json_object_get(doc, "memory"), "fits")));
    ck_assert_int_eq(
        json_integer_value(json_object_get(
            json_object_get(json_object_get(doc, "plan"), "hardware"), "gpus")),
        1024);
    ck_assert(all_finite(doc));
    json_decref(doc);
    free(buf);
}
END_TEST

START_TEST(test_json_compare_and_search)
{
    struct export_search s = {10, 5, 0.25, "time"};
    char *buf = NULL;
    size_t len = 0;
    json_t *doc;

    CAPTURE(buf, len, export_json_compare(OUT, items, 2, NULL));
    doc = json_loads(buf, 0, NULL);
    ck_assert_ptr_nonnull(doc);
    ck_assert_uint_eq(json_array_size(json_object_get(doc, "plans")), 2);
    json_decref(doc);
    free(buf);
    buf = NULL;
    CAPTURE(buf, len, export_json_search(OUT, &s, items, 2, NULL));
    doc = json_loads(buf, 0, NULL);
    ck_assert_ptr_nonnull(doc);
    ck_assert_int_eq(json_integer_value(json_object_get(
                         json_object_get(doc, "search"), "evaluated")),
                     10);
    ck_assert_uint_eq(json_array_size(json_object_get(doc, "results")), 2);
    json_decref(doc);
    free(buf);
}
END_TEST

struct rows {
    size_t n;
    size_t width;
    int ragged;
    char header[4][32];
};

static enum cp_status count_row(void *ctx, size_t line,
                                const char *const *fields, size_t n)
{
    struct rows *r = ctx;
    size_t i;

    (void)line;
    if (r->n == 0) {
        r->width = n;
        for (i = 0; i < 4 && i < n; i++)
            snprintf(r->header[i], sizeof(r->header[i]), "%s", fields[i]);
    } else if (n != r->width) {
        r->ragged = 1;
    }
    r->n++;
    return CP_OK;
}

START_TEST(test_csv)
{
    struct rows r;
    char *buf = NULL;
    size_t len = 0;

    memset(&r, 0, sizeof(r));
    CAPTURE(buf, len, export_csv_metrics(OUT, items, 2, NULL));
    ck_assert_int_eq(csvio_parse("csv", buf, len, count_row, &r, NULL), CP_OK);
    ck_assert_uint_gt(r.n, 30);
    ck_assert_uint_eq(r.width, 5);
    ck_assert(!r.ragged);
    ck_assert_str_eq(r.header[0], "section");
    ck_assert_str_eq(r.header[1], "metric");
    ck_assert_str_eq(r.header[2], "unit");
    ck_assert_str_eq(r.header[3], "first");
    ck_assert_ptr_nonnull(strstr(buf, "\nmemory,total_gib,GiB,"));
    free(buf);
    buf = NULL;
    memset(&r, 0, sizeof(r));
    CAPTURE(buf, len, export_csv_search(OUT, items, 2, NULL));
    ck_assert_int_eq(csvio_parse("csv", buf, len, count_row, &r, NULL), CP_OK);
    ck_assert_uint_eq(r.n, 3);
    ck_assert(!r.ragged);
    ck_assert_str_eq(r.header[0], "rank");
    free(buf);
}
END_TEST

START_TEST(test_text)
{
    char *buf = NULL;
    size_t len = 0;

    CAPTURE(buf, len, export_text_metrics(OUT, items, 1, EXPORT_EXPLAIN, NULL));
    ck_assert_ptr_nonnull(strstr(buf, "\nmemory\n"));
    ck_assert_ptr_nonnull(strstr(buf, "\nsources\n"));
    ck_assert_ptr_null(strchr(buf, '*'));
    free(buf);
    buf = NULL;
    CAPTURE(buf, len, export_text_metrics(OUT, items, 2, 0, NULL));
    ck_assert_ptr_nonnull(strstr(buf, "* better value"));
    free(buf);
}
END_TEST

/* Every allocation failure inside the JSON exporter is CP_ERR_NOMEM, with
 * nothing leaked (ASan/valgrind), until there are enough to succeed. */
START_TEST(test_json_oom)
{
    long i;
    enum cp_status st = CP_ERR_NOMEM;

    for (i = 0; i < 100000 && st != CP_OK; i++) {
        char *buf = NULL;
        size_t len = 0;
        FILE *fp = open_memstream(&buf, &len);

        ck_assert_ptr_nonnull(fp);
        xalloc_fail_after = i;
        st = export_json_quote(fp, &items[0], NULL);
        xalloc_fail_after = -1;
        fclose(fp);
        free(buf);
        ck_assert_msg(st == CP_OK || st == CP_ERR_NOMEM, "%ld: %s", i,
                      cp_status_str(st));
    }
    ck_assert_int_eq(st, CP_OK);
    ck_assert_int_gt(i, 10);
}
END_TEST

START_TEST(test_metric_table)
{
    size_t n, i, j;
    const struct metric *m = metrics_table(&n);

    for (i = 0; i < n; i++) {
        ck_assert_ptr_nonnull(m[i].formula);
        ck_assert(m[i].kind != MK_TEXT || m[i].text != NULL);
        /* sections are contiguous */
        for (j = i + 1; j < n; j++)
            if (strcmp(m[j].section, m[i].section) == 0)
                ck_assert_str_eq(m[j - 1].section, m[i].section);
        for (j = 0; j < i; j++)
            ck_assert_msg(strcmp(m[i].section, m[j].section) ||
                              strcmp(m[i].key, m[j].key),
                          "%s.%s twice", m[i].section, m[i].key);
    }
}
END_TEST

START_TEST(test_human_number)
{
    char buf[32];

    ck_assert_str_eq(export_human_number(1234567, buf, sizeof(buf)),
                     "1,234,567");
    ck_assert_str_eq(export_human_number(0.41234, buf, sizeof(buf)), "0.4123");
    ck_assert_str_eq(export_human_number(0, buf, sizeof(buf)), "0");
}
END_TEST

Suite *suite_export(void)
{
    Suite *s = suite_create("export");
    TCase *core = tcase_create("core");

    tcase_add_checked_fixture(core, setup, teardown);
    tcase_set_timeout(core, 30);
    tcase_add_test(core, test_json_keys_in_order);
    tcase_add_test(core, test_json_compare_and_search);
    tcase_add_test(core, test_csv);
    tcase_add_test(core, test_text);
    tcase_add_test(core, test_json_oom);
    tcase_add_test(core, test_metric_table);
    tcase_add_test(core, test_human_number);
    suite_add_tcase(s, core);
    return s;
}
