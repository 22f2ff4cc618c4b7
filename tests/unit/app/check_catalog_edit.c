/*
 * check_catalog_edit.c - editing one row while another process writes the
 * same catalog (issue 14, items 3 and 4): catalog_row_update changes only
 * the cells it is given, re-read in its transaction, refuses when an
 * expected cell changed, says when another writer holds the lock; and
 * catalog_row_delete_key removes one cloud term, not every term of the id.
 * Two handles on one file stand for the TUI and a CLI import.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "catalog/catalog_int.h"

Suite *suite_catalog_edit(void);

static char dir[64], path[128];
static struct catalog *tui, *cli;
static struct diag d;

static void setup(void)
{
    snprintf(dir, sizeof(dir), "/tmp/llmplan-edit-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(path, sizeof(path), "%s/catalog.db", dir);
    diag_clear(&d);
    ck_assert_int_eq(catalog_open(path, 0, &tui, &d), CP_OK);
    ck_assert_int_eq(catalog_open(path, 0, &cli, &d), CP_OK);
}

static void teardown(void)
{
    char cmd[128];

    catalog_close(tui);
    catalog_close(cli);
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
}

struct cell {
    size_t col;
    char text[256];
};

static enum cp_status get_cell(void *ctx, const char *const *v, size_t n)
{
    struct cell *c = ctx;

    ck_assert_uint_lt(c->col, n);
    snprintf(c->text, sizeof(c->text), "%s", v[c->col]);
    return CP_OK;
}

/* The text of column name of accelerator id as a fresh read sees it. */
static const char *cell(struct catalog *cat, const char *id, const char *name)
{
    static struct cell c;
    const struct kind_def *kd = catalog_kind_def(CATALOG_ACCELERATORS);

    c.col = (size_t)catalog_col_index(kd, name);
    c.text[0] = '\0';
    ck_assert_int_eq(catalog_foreach(cat, CATALOG_ACCELERATORS, id, get_cell,
                                     &c, NULL),
                     CP_OK);
    return c.text;
}

static size_t col(const char *name)
{
    return (size_t)catalog_col_index(catalog_kind_def(CATALOG_ACCELERATORS),
                                     name);
}

static const char *const h100[] = {"h100-sxm"};

struct row {
    size_t n;
    char cells[64][256];
};

static enum cp_status get_row(void *ctx, const char *const *v, size_t n)
{
    struct row *r = ctx;
    size_t i;

    r->n = n;
    for (i = 0; i < n && i < 64; i++)
        snprintf(r->cells[i], sizeof(r->cells[i]), "%s", v[i]);
    return CP_OK;
}

/* The TUI read the row, a CLI import changed tdp_w, then the TUI edits
 * price_usd: the import's tdp_w stays. */
START_TEST(test_update_keeps_concurrent_change)
{
    static struct row r;
    const char *vals[64];
    char old_price[256];
    struct catalog_cell_edit e;
    size_t i;

    snprintf(old_price, sizeof(old_price), "%s",
             cell(tui, "h100-sxm", "price_usd"));
    ck_assert_str_ne(cell(tui, "h100-sxm", "tdp_w"), "650");
    /* the import (catalog_import_* writes through the same row put) */
    ck_assert_int_eq(catalog_foreach(cli, CATALOG_ACCELERATORS, "h100-sxm",
                                     get_row, &r, &d),
                     CP_OK);
    snprintf(r.cells[col("tdp_w")], sizeof(r.cells[0]), "650");
    for (i = 0; i < r.n; i++)
        vals[i] = r.cells[i];
    ck_assert_int_eq(
        catalog_row_put(cli, CATALOG_ACCELERATORS, vals, r.n, &d), CP_OK);
    ck_assert_str_eq(cell(cli, "h100-sxm", "tdp_w"), "650");

    e.col = col("price_usd");
    e.expect = old_price;
    e.value = "31000";
    ck_assert_int_eq(catalog_row_update(tui, CATALOG_ACCELERATORS, h100, &e, 1,
                                        100, &d),
                     CP_OK);
    ck_assert_str_eq(cell(cli, "h100-sxm", "price_usd"), "31000");
    ck_assert_str_eq(cell(cli, "h100-sxm", "tdp_w"), "650");
}
END_TEST

/* Both changed the same cell: the edit is refused and names the column. */
START_TEST(test_update_conflict)
{
    char old[256];
    struct catalog_cell_edit e = {0, NULL, "31000"};

    snprintf(old, sizeof(old), "%s", cell(tui, "h100-sxm", "price_usd"));
    e.col = col("price_usd");
    e.expect = "12345";
    ck_assert_int_eq(catalog_row_update(tui, CATALOG_ACCELERATORS, h100, &e, 1,
                                        100, &d),
                     CP_ERR_CONFLICT);
    ck_assert_str_eq(d.where, "price_usd");
    ck_assert_ptr_nonnull(strstr(d.msg, old));
    ck_assert_str_eq(cell(cli, "h100-sxm", "price_usd"), old);
}
END_TEST

START_TEST(test_update_validates_and_refuses_keys)
{
    struct catalog_cell_edit e = {0, NULL, "-5"};

    e.col = col("tdp_w");
    ck_assert_int_eq(catalog_row_update(tui, CATALOG_ACCELERATORS, h100, &e, 1,
                                        100, &d),
                     CP_ERR_RANGE);
    ck_assert_ptr_nonnull(strstr(d.where, "tdp_w"));
    e.col = 0;
    e.value = "h100-new";
    ck_assert_int_eq(catalog_row_update(tui, CATALOG_ACCELERATORS, h100, &e, 1,
                                        100, &d),
                     CP_ERR_USAGE);
    e.col = col("tdp_w");
    e.value = "700";
    {
        const char *const gone[] = {"no-such-gpu"};

        ck_assert_int_eq(catalog_row_update(tui, CATALOG_ACCELERATORS, gone,
                                            &e, 1, 100, &d),
                         CP_ERR_NOT_FOUND);
    }
}
END_TEST

/* Another writer holds the lock: CP_ERR_BUSY at once, saying so, and the
 * edit goes through once the lock is free. */
START_TEST(test_update_busy_says_so)
{
    struct catalog_cell_edit e = {0, NULL, "777"};
    struct timespec t0, t1;
    double s;

    e.col = col("tdp_w");
    ck_assert_int_eq(catalog_begin(cli, &d), CP_OK);
    clock_gettime(CLOCK_MONOTONIC, &t0);
    ck_assert_int_eq(catalog_row_update(tui, CATALOG_ACCELERATORS, h100, &e, 1,
                                        200, &d),
                     CP_ERR_BUSY);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    s = (double)(t1.tv_sec - t0.tv_sec) +
        (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    ck_assert_msg(s < 2.0, "waited %.1f s for the lock", s);
    ck_assert_ptr_nonnull(strstr(d.msg, "another process"));
    catalog_rollback(cli);
    ck_assert_int_eq(catalog_row_update(tui, CATALOG_ACCELERATORS, h100, &e, 1,
                                        200, &d),
                     CP_OK);
    ck_assert_str_eq(cell(cli, "h100-sxm", "tdp_w"), "777");
}
END_TEST

static enum cp_status count_row(void *ctx, const char *const *v, size_t n)
{
    (void)v;
    (void)n;
    ++*(size_t *)ctx;
    return CP_OK;
}

START_TEST(test_delete_one_cloud_term)
{
    const char *const key[] = {"aws-p5.48xlarge", "reserved_1y"};
    size_t before = 0, after = 0;

    catalog_foreach(cli, CATALOG_CLOUD, key[0], count_row, &before, NULL);
    ck_assert_uint_ge(before, 2);
    ck_assert_int_eq(catalog_row_delete_key(tui, CATALOG_CLOUD, key, 100, &d),
                     CP_OK);
    catalog_foreach(cli, CATALOG_CLOUD, key[0], count_row, &after, NULL);
    ck_assert_uint_eq(after, before - 1);
    ck_assert_int_eq(catalog_row_delete_key(tui, CATALOG_CLOUD, key, 100, &d),
                     CP_ERR_NOT_FOUND);
    /* an accelerator still in use is refused, as catalog_row_delete does */
    ck_assert_int_eq(catalog_row_delete_key(tui, CATALOG_ACCELERATORS, h100,
                                            100, &d),
                     CP_ERR_EXISTS);
}
END_TEST

Suite *suite_catalog_edit(void)
{
    Suite *s = suite_create("catalog_edit");
    TCase *tc = tcase_create("errors");

    tcase_set_timeout(tc, 30);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_update_keeps_concurrent_change);
    tcase_add_test(tc, test_update_conflict);
    tcase_add_test(tc, test_update_validates_and_refuses_keys);
    tcase_add_test(tc, test_update_busy_says_so);
    tcase_add_test(tc, test_delete_one_cloud_term);
    suite_add_tcase(s, tc);
    return s;
}
