/*
 * fuzz_csv_import.c - `catalog import`: the first byte picks the kind, the
 * rest is the CSV.  On a seeded in-memory catalog: a refused import is
 * invalid input (exit class 2) and leaves the kind's rows exactly as they
 * were; an accepted one exports as CSV that imports again and exports
 * byte-identically.  The catalog is put back from a pristine copy (SQLite
 * backup API) after every accepted import, so inputs do not interact.
 */
#include <sqlite3.h>

#include "catalog/catalog_int.h"
#include "fuzz.h"

static struct catalog *cat;
static sqlite3 *pristine;
static char *before[CATALOG_KIND_COUNT];
static size_t before_len[CATALOG_KIND_COUNT];

static void copy_db(sqlite3 *to, sqlite3 *from)
{
    sqlite3_backup *b = sqlite3_backup_init(to, "main", from, "main");

    FUZZ_CHECK(b != NULL, "backup: %s", sqlite3_errmsg(to));
    FUZZ_CHECK(sqlite3_backup_step(b, -1) == SQLITE_DONE, "backup step");
    FUZZ_CHECK(sqlite3_backup_finish(b) == SQLITE_OK, "backup finish");
}

/* Every row of kind k as CSV, malloc'd. */
static char *export_kind(enum catalog_kind k, size_t *len)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    struct diag d;

    FUZZ_CHECK(f != NULL, "open_memstream");
    FUZZ_CHECK(catalog_export_csv(cat, k, f, &d) == CP_OK, "export: %s", d.msg);
    fclose(f);
    return buf;
}

/* At exit, so that valgrind sees nothing left behind. */
static void cleanup(void)
{
    int k;

    for (k = 0; k < CATALOG_KIND_COUNT; k++)
        free(before[k]);
    sqlite3_close(pristine);
    catalog_close(cat);
}

static void setup(void)
{
    struct diag d;
    int k;

    if (cat)
        return;
    FUZZ_CHECK(catalog_open(":memory:", 0, &cat, &d) == CP_OK, "open: %s",
               d.msg);
    FUZZ_CHECK(sqlite3_open(":memory:", &pristine) == SQLITE_OK, "open");
    copy_db(pristine, cat->db);
    for (k = 0; k < CATALOG_KIND_COUNT; k++)
        before[k] = export_kind((enum catalog_kind)k, &before_len[k]);
    atexit(cleanup);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    enum catalog_kind k;
    struct diag d;
    enum cp_status st;
    char *out, *again;
    size_t len, len2;

    if (size < 1)
        return 0;
    setup();
    k = (enum catalog_kind)(data[0] % CATALOG_KIND_COUNT);
    diag_clear(&d);
    st = catalog_import_buffer(cat, k, "fuzz.csv", (const char *)data + 1,
                               size - 1, &d);
    out = export_kind(k, &len);
    if (st != CP_OK) {
        FUZZ_CHECK(fuzz_input_error(st), "status %d: %s: %s", (int)st, d.where,
                   d.msg);
        FUZZ_CHECK(d.msg[0] != '\0', "error without a message");
        FUZZ_CHECK(len == before_len[k] && memcmp(out, before[k], len) == 0,
                   "a refused import changed %s", catalog_kind_name(k));
        free(out);
        return 0;
    }
    st = catalog_import_buffer(cat, k, "export.csv", out, len, &d);
    FUZZ_CHECK(st == CP_OK, "export does not import: %s: %s\n%s", d.where,
               d.msg, out);
    again = export_kind(k, &len2);
    FUZZ_CHECK(len == len2 && memcmp(out, again, len) == 0,
               "export -> import -> export differs");
    free(again);
    free(out);
    copy_db(cat->db, pristine);
    return 0;
}
