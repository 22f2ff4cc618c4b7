/*
 * catalog_io.c - cell validation, number formatting, CSV import/export and
 * the seed from the embedded default catalog.
 *
 * Import is two passes: every row is validated first (types, bounds, ids,
 * references to other kinds, duplicate keys, price provenance), and only
 * when all rows are good are they written, in one transaction, with one
 * prepared INSERT OR REPLACE whose column list comes from the static
 * column table.  Export prints numbers as the shortest text that reads
 * back exactly, so export -> import -> export is byte-identical.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "catalog/catalog_int.h"
#include "util/csvio.h"
#include "util/embedded.h"
#include "util/number.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define NOTES_MAX 4000

void catalog_format_real(double v, char *buf, size_t n)
{
    int prec;
    double back;
    char *p;

    if (v == 0) {
        snprintf(buf, n, "0");
        return;
    }
    for (prec = 15; prec <= 17; prec++) {
        snprintf(buf, n, "%.*g", prec, v);
        /* the C locale's '.', whatever LC_NUMERIC says */
        for (p = buf; *p; p++)
            if (*p == ',')
                *p = '.';
        if (number_parse(buf, 0, &back) == CP_OK && back == v)
            return;
    }
}

const char *catalog_col_text(const struct catalog_column *c, sqlite3_stmt *st,
                             int i, char *buf, size_t n)
{
    const unsigned char *t;

    if (sqlite3_column_type(st, i) == SQLITE_NULL)
        return "";
    switch (c->type) {
    case CATCOL_REAL:
        catalog_format_real(sqlite3_column_double(st, i), buf, n);
        return buf;
    case CATCOL_COUNT:
        snprintf(buf, n, "%lld", (long long)sqlite3_column_int64(st, i));
        return buf;
    case CATCOL_BOOL:
        return sqlite3_column_int64(st, i) ? "yes" : "no";
    default:
        t = sqlite3_column_text(st, i);
        return t ? (const char *)t : "";
    }
}

static int parse_bool(const char *v, int *out)
{
    static const char *const yes[] = {"yes", "true", "1"};
    static const char *const no[] = {"no", "false", "0"};
    size_t i;

    for (i = 0; i < 3; i++) {
        if (strcasecmp(v, yes[i]) == 0) {
            *out = 1;
            return 1;
        }
        if (strcasecmp(v, no[i]) == 0) {
            *out = 0;
            return 1;
        }
    }
    return 0;
}

static int digits(const char *s, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++)
        if (s[i] < '0' || s[i] > '9')
            return 0;
    return 1;
}

/* YYYY, YYYY-MM or YYYY-MM-DD with a real month and day. */
static int valid_date(const char *v)
{
    size_t n = strlen(v);
    int m, day;
    static const int mdays[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};

    if ((n != 4 && n != 7 && n != 10) || !digits(v, 4))
        return 0;
    if (n == 4)
        return 1;
    if (v[4] != '-' || !digits(v + 5, 2))
        return 0;
    m = (v[5] - '0') * 10 + (v[6] - '0');
    if (m < 1 || m > 12)
        return 0;
    if (n == 7)
        return 1;
    if (v[7] != '-' || !digits(v + 8, 2))
        return 0;
    day = (v[8] - '0') * 10 + (v[9] - '0');
    return day >= 1 && day <= mdays[m - 1];
}

static int valid_id(const char *v)
{
    const char *p;

    for (p = v; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ||
              *p == '.' || *p == '-'))
            return 0;
    return p != v;
}

/* Well-formed UTF-8 (no overlongs, no surrogates), so JSON can carry it. */
static int valid_utf8(const char *v)
{
    const unsigned char *p = (const unsigned char *)v;

    while (*p) {
        size_t n, i;
        unsigned cp;

        if (*p < 0x80) {
            p++;
            continue;
        }
        if ((*p & 0xe0) == 0xc0) {
            n = 1;
            cp = *p & 0x1f;
        } else if ((*p & 0xf0) == 0xe0) {
            n = 2;
            cp = *p & 0x0f;
        } else if ((*p & 0xf8) == 0xf0) {
            n = 3;
            cp = *p & 0x07;
        } else {
            return 0;
        }
        for (i = 1; i <= n; i++) {
            if ((p[i] & 0xc0) != 0x80)
                return 0;
            cp = (cp << 6) | (p[i] & 0x3f);
        }
        if ((n == 1 && cp < 0x80) || (n == 2 && cp < 0x800) ||
            (n == 3 && (cp < 0x10000 || cp > 0x10ffff)) ||
            (cp >= 0xd800 && cp <= 0xdfff))
            return 0;
        p += n + 1;
    }
    return 1;
}

static int in_choices(const char *choices, const char *v)
{
    size_t n = strlen(v);
    const char *p = choices;

    while (p && *p) {
        const char *bar = strchr(p, '|');
        size_t len = bar ? (size_t)(bar - p) : strlen(p);

        if (len == n && strncmp(p, v, n) == 0)
            return 1;
        p = bar ? bar + 1 : NULL;
    }
    return 0;
}

static enum cp_status range_error(const struct catalog_column *c,
                                  struct diag *d, const char *what)
{
    if (c->max >= 1e15 || (c->type == CATCOL_COUNT && c->max >= 1e6))
        return diag_set(d, CP_ERR_RANGE, c->name, "must be %s >= %g", what,
                        c->min);
    return diag_set(d, CP_ERR_RANGE, c->name, "must be %s in [%g, %g]", what,
                    c->min, c->max);
}

static size_t text_max(const struct kind_def *kd, size_t i)
{
    const char *name = kd->cols[i].name;

    if (kd->map[i].ft == FT_STR)
        return kd->map[i].size - 1;
    if (strcmp(name, "notes") == 0)
        return NOTES_MAX;
    return CP_TEXT_MAX - 1;
}

enum cp_status catalog_check_cell(const struct kind_def *kd, size_t i,
                                  const char *v, struct diag *d)
{
    const struct catalog_column *c = &kd->cols[i];
    double x;
    uint64_t u;
    int b;
    size_t max = text_max(kd, i);

    if (!*v) {
        if (c->flags & CATCOL_REQUIRED)
            return diag_set(d, CP_ERR_RANGE, c->name, "required");
        return CP_OK;
    }
    switch (c->type) {
    case CATCOL_ID:
        if (!valid_id(v) || strlen(v) >= CP_ID_MAX)
            return diag_set(d, CP_ERR_RANGE, c->name,
                            "'%.60s' is not an id: lower-case letters, "
                            "digits, '.' and '-', at most %d characters",
                            v, CP_ID_MAX - 1);
        return CP_OK;
    case CATCOL_TEXT:
        if (!valid_utf8(v))
            return diag_set(d, CP_ERR_RANGE, c->name, "is not valid UTF-8");
        /* Catalog text is names, sources and notes: never a formula a
         * spreadsheet would run (OWASP CSV injection). */
        if (csvio_formula_like(v))
            return diag_set(d, CP_ERR_RANGE, c->name,
                            "starts with = + - @, a tab or a CR: a "
                            "spreadsheet would read it as a formula");
        if (strlen(v) > max)
            return diag_set(d, CP_ERR_RANGE, c->name,
                            "longer than %zu characters", max);
        return CP_OK;
    case CATCOL_REAL:
        if (number_parse(v, 0, &x) != CP_OK || x < c->min || x > c->max)
            return range_error(c, d, "a number");
        return CP_OK;
    case CATCOL_COUNT:
        if (number_parse_count(v, &u) != CP_OK || (double)u < c->min ||
            (double)u > c->max)
            return range_error(c, d, "a whole number");
        return CP_OK;
    case CATCOL_BOOL:
        if (!parse_bool(v, &b))
            return diag_set(d, CP_ERR_RANGE, c->name, "must be yes or no");
        return CP_OK;
    case CATCOL_DATE:
        if (!valid_date(v))
            return diag_set(d, CP_ERR_RANGE, c->name,
                            "must be a date YYYY, YYYY-MM or YYYY-MM-DD");
        return CP_OK;
    case CATCOL_ENUM:
        if (!in_choices(c->choices, v))
            return diag_set(d, CP_ERR_RANGE, c->name, "must be one of %s",
                            c->choices);
        return CP_OK;
    }
    return CP_OK;
}

enum cp_status catalog_bind_value(sqlite3_stmt *st, int idx,
                                  const struct catalog_column *c, const char *v)
{
    double x = 0;
    uint64_t u = 0;
    int b = 0, rc;

    if (!v || !*v)
        rc = sqlite3_bind_null(st, idx);
    else if (c->type == CATCOL_REAL && number_parse(v, 0, &x) == CP_OK)
        rc = sqlite3_bind_double(st, idx, x);
    else if (c->type == CATCOL_COUNT && number_parse_count(v, &u) == CP_OK)
        rc = sqlite3_bind_int64(st, idx, (sqlite3_int64)u);
    else if (c->type == CATCOL_BOOL && parse_bool(v, &b))
        rc = sqlite3_bind_int(st, idx, b);
    else
        rc = sqlite3_bind_text(st, idx, v, -1, SQLITE_TRANSIENT);
    return rc == SQLITE_OK ? CP_OK : CP_ERR_DB;
}

/* 1 when table has a row with this id. */
static int id_exists(struct catalog *cat, const char *table, const char *id)
{
    static const char *const sql[] = {
        "SELECT 1 FROM accelerators WHERE id = ?",
        "SELECT 1 FROM fabrics WHERE id = ?",
    };
    sqlite3_stmt *st = NULL;
    int found = 0;

    if (sqlite3_prepare_v2(cat->db, sql[strcmp(table, "fabrics") == 0 ? 1 : 0],
                           -1, &st, NULL) != SQLITE_OK)
        return 0;
    sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
    found = catalog_step(st) == SQLITE_ROW;
    sqlite3_finalize(st);
    return found;
}

static void where_line(struct diag *d, const char *name, const size_t *lines,
                       size_t r)
{
    char pre[DIAG_WHERE_MAX];

    if (lines)
        snprintf(pre, sizeof(pre), "%s:%zu", name, lines[r]);
    else
        snprintf(pre, sizeof(pre), "%s", name ? name : "");
    diag_prefix(d, pre);
}

/* Check one row: cells, references, price provenance. */
static enum cp_status check_row(struct catalog *cat, const struct kind_def *kd,
                                const char *const *row, struct diag *d)
{
    size_t i;
    int priced = 0;
    enum cp_status st;

    for (i = 0; i < kd->ncols; i++) {
        st = catalog_check_cell(kd, i, row[i], d);
        if (st)
            return st;
        if ((kd->map[i].pflags & PF_PRICE) && row[i][0])
            priced = 1;
    }
    for (i = 0; i < kd->ncols; i++) {
        unsigned pf = kd->map[i].pflags;

        if ((pf & PF_REF_ACCEL) && row[i][0] &&
            !id_exists(cat, "accelerators", row[i]))
            return diag_set(d, CP_ERR_NOT_FOUND, kd->cols[i].name,
                            "unknown accelerator '%s'", row[i]);
        if ((pf & PF_REF_FABRIC) && row[i][0] &&
            !id_exists(cat, "fabrics", row[i]))
            return diag_set(d, CP_ERR_NOT_FOUND, kd->cols[i].name,
                            "unknown fabric '%s'", row[i]);
        if ((pf & PF_PRICE_PROV) && priced && !row[i][0])
            return diag_set(d, CP_ERR_RANGE, kd->cols[i].name,
                            "required when the row has a price");
    }
    return CP_OK;
}

static int same_key(const struct kind_def *kd, const char *const *a,
                    const char *const *b)
{
    size_t i;

    for (i = 0; i < kd->nkey; i++)
        if (strcmp(a[i], b[i]) != 0)
            return 0;
    return 1;
}

struct key_ref {
    const struct kind_def *kd;
    const char *const *row;
    size_t index;
};

static int key_cmp(const void *pa, const void *pb)
{
    const struct key_ref *a = pa, *b = pb;
    size_t i;
    int c;

    for (i = 0; i < a->kd->nkey; i++) {
        c = strcmp(a->row[i], b->row[i]);
        if (c)
            return c;
    }
    return a->index < b->index ? -1 : a->index > b->index;
}

/* dup[r] = 1 when row r has the key of an earlier row (malloc'd). */
static unsigned char *find_duplicates(const struct kind_def *kd,
                                      const char *const *cells, size_t nrows)
{
    unsigned char *dup = xcalloc(nrows ? nrows : 1, 1);
    struct key_ref *refs;
    size_t r;

    if (nrows < 2)
        return dup;
    refs = xmalloc(nrows * sizeof(*refs));
    for (r = 0; r < nrows; r++) {
        refs[r].kd = kd;
        refs[r].row = cells + r * kd->ncols;
        refs[r].index = r;
    }
    qsort(refs, nrows, sizeof(*refs), key_cmp);
    for (r = 1; r < nrows; r++)
        if (same_key(kd, refs[r].row, refs[r - 1].row))
            dup[refs[r].index] = 1;
    free(refs);
    return dup;
}

static enum cp_status insert_sql(const struct kind_def *kd, struct strbuf *sb)
{
    size_t i;

    strbuf_addf(sb, "INSERT OR REPLACE INTO %s (", kd->table);
    for (i = 0; i < kd->ncols; i++)
        strbuf_addf(sb, "%s%s", i ? ", " : "", kd->cols[i].name);
    strbuf_addstr(sb, ") VALUES (");
    for (i = 0; i < kd->ncols; i++)
        strbuf_addstr(sb, i ? ", ?" : "?");
    return strbuf_addstr(sb, ")");
}

/* Test hook (tests/shell/test_faults.sh): LLMPLAN_TEST_IMPORT_DELAY_MS=n
 * sleeps n ms after the rows are written and before the commit, saying so
 * on stderr, so that a test can kill the process inside the transaction. */
static void test_delay(void)
{
    const char *env = getenv("LLMPLAN_TEST_IMPORT_DELAY_MS");
    long ms = env ? strtol(env, NULL, 10) : 0;
    struct timespec ts;

    if (ms <= 0)
        return;
    fprintf(stderr, "llmplan: test: rows written, commit in %ld ms\n", ms);
    ts.tv_sec = ms / 1000;
    ts.tv_nsec = (ms % 1000) * 1000000L;
    nanosleep(&ts, NULL);
}

enum cp_status catalog_put_rows(struct catalog *cat, enum catalog_kind k,
                                const char *name, const char *const *cells,
                                const size_t *lines, size_t nrows, int in_txn,
                                struct diag *d)
{
    const struct kind_def *kd = catalog_kind_def(k);
    struct strbuf sql = STRBUF_INIT;
    sqlite3_stmt *st = NULL;
    enum cp_status rc = CP_OK;
    unsigned char *dup;
    size_t r, i;

    /* The checks read other kinds (references): in the transaction, so
     * that what they saw is what the rows are written against. */
    if (!in_txn) {
        rc = catalog_begin(cat, d);
        if (rc)
            return rc;
    }
    /* Pass 1: validate everything before writing anything.  Duplicate
     * keys are found by sorting (n log n: a big file must not hang). */
    dup = find_duplicates(kd, cells, nrows);
    for (r = 0; r < nrows; r++) {
        const char *const *row = cells + r * kd->ncols;

        rc = check_row(cat, kd, row, d);
        if (!rc && dup[r])
            rc = diag_set(d, CP_ERR_EXISTS, "id", "duplicate key '%s'%s",
                          row[0], kd->nkey > 1 ? " for this term" : "");
        if (rc) {
            where_line(d, name, lines, r);
            free(dup);
            if (!in_txn)
                catalog_rollback(cat);
            return rc;
        }
    }
    free(dup);
    /* Pass 2: one statement, one transaction. */
    strbuf_init(&sql, 0);
    insert_sql(kd, &sql);
    if (sqlite3_prepare_v2(cat->db, sql.buf, -1, &st, NULL) != SQLITE_OK) {
        rc = catalog_db_error(cat, d, kd->table, "cannot prepare insert");
        goto out;
    }
    for (r = 0; r < nrows; r++) {
        const char *const *row = cells + r * kd->ncols;

        sqlite3_reset(st);
        for (i = 0; i < kd->ncols; i++) {
            if (catalog_bind_value(st, (int)i + 1, &kd->cols[i], row[i])) {
                rc = catalog_db_error(cat, d, kd->table, "cannot bind");
                goto out;
            }
        }
        if (catalog_step(st) != SQLITE_DONE) {
            rc = catalog_db_error(cat, d, kd->table, "cannot write row");
            where_line(d, name, lines, r);
            goto out;
        }
    }
    if (!in_txn)
        test_delay();
out:
    sqlite3_finalize(st);
    strbuf_release(&sql);
    if (!in_txn) {
        if (rc)
            catalog_rollback(cat);
        else
            rc = catalog_commit(cat, d);
    }
    return rc;
}

/* ---- CSV import -------------------------------------------------------- */

struct import {
    const struct kind_def *kd;
    const char *name;
    int header_done;
    int *hdr; /* CSV field j -> column index */
    size_t nhdr;
    char **cells; /* nrows * ncols, owned */
    size_t *lines;
    size_t nrows, alloc;
    struct diag *d;
};

static enum cp_status on_header(struct import *im, size_t line,
                                const char *const *f, size_t n)
{
    const struct kind_def *kd = im->kd;
    char where[DIAG_WHERE_MAX];
    size_t i, j;
    int *seen = xcalloc(kd->ncols, sizeof(int));
    enum cp_status st = CP_OK;

    snprintf(where, sizeof(where), "%s:%zu", im->name, line);
    im->hdr = xcalloc(n, sizeof(int));
    im->nhdr = n;
    for (j = 0; j < n && !st; j++) {
        int c = catalog_col_index(kd, f[j]);

        if (c < 0)
            st = diag_set(im->d, CP_ERR_PARSE, where,
                          "unknown column '%.60s' for %s", f[j], kd->table);
        else if (seen[c])
            st = diag_set(im->d, CP_ERR_PARSE, where,
                          "column '%s' appears twice", f[j]);
        else {
            seen[c] = 1;
            im->hdr[j] = c;
        }
    }
    for (i = 0; i < kd->ncols && !st; i++)
        if ((kd->cols[i].flags & CATCOL_REQUIRED) && !seen[i])
            st = diag_set(im->d, CP_ERR_PARSE, where,
                          "missing required column '%s'", kd->cols[i].name);
    free(seen);
    return st;
}

static enum cp_status on_row(void *ctx, size_t line, const char *const *f,
                             size_t n)
{
    struct import *im = ctx;
    size_t nc = im->kd->ncols, i;
    char **row;
    char where[DIAG_WHERE_MAX];

    if (!im->header_done) {
        im->header_done = 1;
        return on_header(im, line, f, n);
    }
    if (n != im->nhdr) {
        snprintf(where, sizeof(where), "%s:%zu", im->name, line);
        return diag_set(im->d, CP_ERR_PARSE, where,
                        "expected %zu fields, found %zu", im->nhdr, n);
    }
    if (im->nrows == im->alloc) {
        im->alloc = im->alloc ? im->alloc * 2 : 64;
        im->cells = xrealloc(im->cells, im->alloc * nc * sizeof(char *));
        im->lines = xrealloc(im->lines, im->alloc * sizeof(size_t));
    }
    row = im->cells + im->nrows * nc;
    for (i = 0; i < nc; i++)
        row[i] = NULL;
    for (i = 0; i < n; i++)
        row[im->hdr[i]] = xstrdup(f[i]);
    for (i = 0; i < nc; i++)
        if (!row[i])
            row[i] = xstrdup("");
    im->lines[im->nrows++] = line;
    return CP_OK;
}

static enum cp_status import_data(struct catalog *cat, enum catalog_kind k,
                                  const char *name, const char *data,
                                  size_t len, int in_txn, struct diag *d)
{
    struct import im = {0};
    enum cp_status st;
    size_t i;

    im.kd = catalog_kind_def(k);
    if (!im.kd)
        return diag_set(d, CP_ERR_USAGE, name, "bad catalog kind");
    im.name = name;
    im.d = d;
    if (len >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0) {
        data += 3; /* a UTF-8 byte order mark from a spreadsheet */
        len -= 3;
    }
    st = csvio_parse(name, data, len, on_row, &im, d);
    if (!st && !im.header_done)
        st = diag_set(d, CP_ERR_PARSE, name, "empty file: no header row");
    if (!st)
        st = catalog_put_rows(cat, k, name, (const char *const *)im.cells,
                              im.lines, im.nrows, in_txn, d);
    for (i = 0; i < im.nrows * im.kd->ncols; i++)
        free(im.cells[i]);
    free(im.cells);
    free(im.lines);
    free(im.hdr);
    return st;
}

enum cp_status catalog_import_buffer(struct catalog *cat, enum catalog_kind k,
                                     const char *name, const char *data,
                                     size_t len, struct diag *d)
{
    diag_clear(d);
    return import_data(cat, k, name, data, len, 0, d);
}

enum cp_status catalog_import_csv(struct catalog *cat, enum catalog_kind k,
                                  const char *path, struct diag *d)
{
    struct strbuf sb = STRBUF_INIT;
    enum cp_status st;

    strbuf_init(&sb, 64u << 20);
    st = strbuf_read_file(&sb, path);
    if (st) {
        strbuf_release(&sb);
        return diag_set(d, CP_ERR_NOT_FOUND, path, "cannot read file");
    }
    st = catalog_import_buffer(cat, k, path, sb.buf, sb.len, d);
    strbuf_release(&sb);
    return st;
}

/* ---- export ------------------------------------------------------------ */

struct export_ctx {
    FILE *out;
};

static enum cp_status export_row(void *ctx, const char *const *v, size_t n)
{
    struct export_ctx *ec = ctx;

    return csvio_write_row(ec->out, v, n) == 0 ? CP_OK : CP_ERR_IO;
}

enum cp_status catalog_export_csv(struct catalog *cat, enum catalog_kind k,
                                  FILE *out, struct diag *d)
{
    const struct kind_def *kd = catalog_kind_def(k);
    const char *names[64];
    struct export_ctx ec = {out};
    enum cp_status st;
    size_t i;

    if (!kd || kd->ncols > 64)
        return diag_set(d, CP_ERR_USAGE, "catalog", "bad catalog kind");
    for (i = 0; i < kd->ncols; i++)
        names[i] = kd->cols[i].name;
    if (csvio_write_row(out, names, kd->ncols) != 0)
        return diag_set(d, CP_ERR_IO, kd->table, "cannot write");
    st = catalog_foreach(cat, k, NULL, export_row, &ec, d);
    if (st == CP_ERR_IO)
        return diag_set(d, CP_ERR_IO, kd->table, "cannot write");
    return st;
}

/* ---- seed -------------------------------------------------------------- */

void catalog_defaults_fingerprint(char out[17])
{
    static const enum catalog_kind kinds[] = {
        CATALOG_ACCELERATORS, CATALOG_SYSTEMS, CATALOG_FABRICS, CATALOG_STORAGE,
        CATALOG_SITES,        CATALOG_CLOUD,   CATALOG_MODELS, CATALOG_STACKS,
    };
    uint64_t h = 1469598103934665603ULL; /* FNV-1a, 64 bit */
    size_t i;
    long j;

    for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
        const struct embedded_file *ef =
            embedded_find(catalog_kind_def(kinds[i])->data_path);

        for (j = 0; ef && j < ef->size; j++) {
            h ^= (unsigned char)ef->data[j];
            h *= 1099511628211ULL;
        }
    }
    snprintf(out, 17, "%016llx", (unsigned long long)h);
}

/* Remember which built-in defaults this catalog was seeded from. */
static enum cp_status store_fingerprint(struct catalog *cat, struct diag *d)
{
    char fp[17];
    sqlite3_stmt *st = NULL;
    int ok;

    catalog_defaults_fingerprint(fp);
    if (sqlite3_prepare_v2(cat->db,
                           "INSERT INTO settings (key, value) VALUES "
                           "('defaults.fingerprint', ?1) ON CONFLICT(key) "
                           "DO UPDATE SET value = excluded.value",
                           -1, &st, NULL) != SQLITE_OK)
        return catalog_db_error(cat, d, NULL, "cannot write catalog");
    sqlite3_bind_text(st, 1, fp, -1, SQLITE_TRANSIENT);
    ok = catalog_step(st) == SQLITE_DONE;
    sqlite3_finalize(st);
    return ok ? CP_OK : catalog_db_error(cat, d, NULL, "cannot write catalog");
}

enum cp_status catalog_seed_kind(struct catalog *cat, enum catalog_kind k,
                                 struct diag *d)
{
    const struct kind_def *kd = catalog_kind_def(k);
    const struct embedded_file *ef = kd ? embedded_find(kd->data_path) : NULL;
    enum cp_status st;

    if (!ef)
        return diag_set(d, CP_ERR_DB, kd ? kd->data_path : "catalog",
                        "built-in default catalog file is missing");
    st = import_data(cat, k, kd->data_path, ef->data, (size_t)ef->size, 1, d);
    return st && st != CP_ERR_DB ? CP_ERR_DB : st;
}

enum cp_status catalog_seed(struct catalog *cat, struct diag *d)
{
    /* Referenced kinds first, so references check against loaded rows. */
    static const enum catalog_kind order[] = {
        CATALOG_ACCELERATORS, CATALOG_FABRICS, CATALOG_STORAGE, CATALOG_SITES,
        CATALOG_MODELS,       CATALOG_SYSTEMS, CATALOG_CLOUD, CATALOG_STACKS,
    };
    size_t i;

    for (i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
        const struct kind_def *kd = catalog_kind_def(order[i]);
        const struct embedded_file *ef = embedded_find(kd->data_path);
        enum cp_status st;

        if (!ef)
            return diag_set(d, CP_ERR_DB, kd->data_path,
                            "built-in default catalog file is missing");
        st = import_data(cat, order[i], kd->data_path, ef->data,
                         (size_t)ef->size, 1, d);
        if (st)
            return st == CP_ERR_DB ? st : CP_ERR_DB;
    }
    return store_fingerprint(cat, d);
}
