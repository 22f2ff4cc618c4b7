/*
 * catalog_csv.c - cell validation, number formatting, CSV import/export and
 * the seed from the embedded default catalog.
 *
 * Import streams: each row is validated (types, bounds, ids, references
 * to other kinds, duplicate keys, price provenance) and written as it is
 * read, all in one transaction that a bad row rolls back, so nothing is
 * written unless every row is good, and memory stays one row whatever the
 * file's size.  Rows go through one prepared INSERT OR REPLACE whose column
 * list comes from the static column table; columns the file leaves out keep
 * their stored values.  Export prints numbers as the shortest text that reads
 * back exactly, so export -> import -> export is byte-identical.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "catalog/catalog_int.h"
#include "core/scenario.h"
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

static int atoi4(const char *s)
{
    return (s[0] - '0') * 1000 + (s[1] - '0') * 100 + (s[2] - '0') * 10 +
           (s[3] - '0');
}

/* YYYY, YYYY-MM or YYYY-MM-DD with a real month and day (February 29
 * only in leap years of the Gregorian calendar). */
static int valid_date(const char *v)
{
    size_t n = strlen(v);
    int y, m, day, leap;
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
    y = atoi4(v);
    leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    return day >= 1 && day <= (m == 2 && !leap ? 28 : mdays[m - 1]);
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

/* The first word of a space-separated vendor list that no stored
 * accelerator has as its vendor (case and all, as spec_vendor_listed
 * compares them), copied into bad; 0 when every word is one. */
static int unknown_vendor(struct catalog *cat, const char *list, char *bad,
                          size_t n)
{
    sqlite3_stmt *st = NULL;
    const char *p = list;
    int found = 1;

    if (sqlite3_prepare_v2(cat->db,
                           "SELECT 1 FROM accelerators WHERE vendor = ?", -1,
                           &st, NULL) != SQLITE_OK)
        return 0;
    while (found && *p) {
        size_t w;

        p += strspn(p, " ");
        w = strcspn(p, " ");
        if (!w)
            break;
        sqlite3_bind_text(st, 1, p, (int)w, SQLITE_STATIC);
        found = catalog_step(st) == SQLITE_ROW;
        sqlite3_reset(st);
        if (!found)
            snprintf(bad, n, "%.*s", (int)w, p);
        p += w;
    }
    sqlite3_finalize(st);
    return !found;
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
    int priced = 0, sourced = 0;
    char bad[CP_ID_MAX];
    double x;
    enum cp_status st;

    for (i = 0; i < kd->ncols; i++) {
        st = catalog_check_cell(kd, i, row[i], d);
        if (st)
            return st;
        if ((kd->map[i].pflags & PF_PRICE) && row[i][0])
            priced = 1;
        if ((kd->map[i].pflags & PF_SOURCED) && row[i][0])
            sourced = 1;
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
        /* the cell is a number in range (catalog_check_cell) */
        if ((pf & PF_FLAG) && row[i][0] &&
            number_parse(row[i], 0, &x) == CP_OK && x != 0 && x != 1)
            return diag_set(d, CP_ERR_RANGE, kd->cols[i].name,
                            "must be 0 or 1 (on or off), not %s", row[i]);
        if ((pf & PF_VENDORS) && unknown_vendor(cat, row[i], bad, sizeof(bad)))
            return diag_set(d, CP_ERR_NOT_FOUND, kd->cols[i].name,
                            "no accelerator in the catalog has vendor '%s'",
                            bad);
        if ((pf & PF_PRICE_PROV) && priced && !row[i][0])
            return diag_set(d, CP_ERR_RANGE, kd->cols[i].name,
                            "required when the row has a price");
        if ((pf & PF_SOURCE) && sourced && !row[i][0])
            return diag_set(d, CP_ERR_RANGE, kd->cols[i].name,
                            "required: where the figure beside it comes "
                            "from");
    }
    return CP_OK;
}

/* INSERT OR REPLACE of every column; the names come from the static
 * column table. */
static void insert_sql(const struct kind_def *kd, struct strbuf *sb)
{
    size_t i;

    strbuf_addf(sb, "INSERT OR REPLACE INTO %s (", kd->table);
    for (i = 0; i < kd->ncols; i++)
        strbuf_addf(sb, "%s%s", i ? ", " : "", kd->cols[i].name);
    strbuf_addstr(sb, ") VALUES (");
    for (i = 0; i < kd->ncols; i++)
        strbuf_addstr(sb, i ? ", ?" : "?");
    strbuf_addstr(sb, ")");
}

/* The stored row with a key (id, or id + term). */
static void lookup_sql(const struct kind_def *kd, struct strbuf *sb)
{
    size_t i;

    strbuf_addstr(sb, "SELECT ");
    for (i = 0; i < kd->ncols; i++)
        strbuf_addf(sb, "%s%s", i ? ", " : "", kd->cols[i].name);
    strbuf_addf(sb, " FROM %s WHERE %s = ?", kd->table, kd->cols[0].name);
    if (kd->nkey > 1)
        strbuf_addf(sb, " AND %s = ?", kd->cols[1].name);
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

/*
 * A writer checks and writes rows one at a time inside one transaction, so
 * an import of any size holds one row in memory; a bad row rolls the whole
 * transaction back, so nothing is written.  Keys already written by this
 * import are kept in a temporary table, to refuse a duplicate.  When the
 * file gives only some columns (given[] not all set), a row whose key is
 * stored keeps its other columns; a new row must give every required one.
 */
struct writer {
    struct catalog *cat;
    const struct kind_def *kd;
    const char *name;
    const unsigned char *given; /* [ncols], or NULL: every column */
    sqlite3_stmt *ins, *old, *seen;
    int owns_txn;
};

static enum cp_status writer_prepare(struct writer *w, const char *sql,
                                     sqlite3_stmt **st, struct diag *d)
{
    if (sqlite3_prepare_v2(w->cat->db, sql, -1, st, NULL) != SQLITE_OK) {
        *st = NULL;
        return catalog_db_error(w->cat, d, w->kd->table,
                                "cannot prepare import");
    }
    return CP_OK;
}

static void writer_release(struct writer *w)
{
    sqlite3_finalize(w->ins);
    sqlite3_finalize(w->old);
    sqlite3_finalize(w->seen);
    w->ins = w->old = w->seen = NULL;
}

static enum cp_status writer_begin(struct writer *w, struct catalog *cat,
                                   const struct kind_def *kd, const char *name,
                                   const unsigned char *given, int in_txn,
                                   struct diag *d)
{
    struct strbuf sql = STRBUF_INIT;
    enum cp_status st;

    memset(w, 0, sizeof(*w));
    w->cat = cat;
    w->kd = kd;
    w->name = name;
    w->given = given;
    /* The checks read other kinds (references): in the transaction, so
     * that what they saw is what the rows are written against. */
    if (!in_txn) {
        st = catalog_begin(cat, d);
        if (st)
            return st;
        w->owns_txn = 1;
    }
    if (sqlite3_exec(cat->db,
                     "CREATE TEMP TABLE IF NOT EXISTS import_keys (k1 TEXT "
                     "NOT NULL, k2 TEXT NOT NULL, PRIMARY KEY (k1, k2)); "
                     "DELETE FROM temp.import_keys",
                     NULL, NULL, NULL) != SQLITE_OK) {
        st = catalog_db_error(cat, d, kd->table, "cannot start import");
        goto fail;
    }
    st = writer_prepare(
        w, "INSERT INTO temp.import_keys (k1, k2) VALUES (?, ?)", &w->seen, d);
    strbuf_init(&sql, 0);
    if (!st) {
        insert_sql(kd, &sql);
        st = writer_prepare(w, sql.buf, &w->ins, d);
    }
    if (!st) {
        strbuf_reset(&sql);
        lookup_sql(kd, &sql);
        st = writer_prepare(w, sql.buf, &w->old, d);
    }
    strbuf_release(&sql);
    if (!st)
        return CP_OK;
fail:
    writer_release(w);
    if (w->owns_txn)
        catalog_rollback(cat);
    return st;
}

/* Fill the columns the file does not give from the stored row (owned
 * copies in fill[]); a new row must give every required column. */
static enum cp_status merge_row(struct writer *w, const char **row, char **fill,
                                struct diag *d)
{
    const struct kind_def *kd = w->kd;
    char buf[64];
    size_t i;
    int found;

    sqlite3_reset(w->old);
    sqlite3_clear_bindings(w->old);
    for (i = 0; i < kd->nkey; i++)
        sqlite3_bind_text(w->old, (int)i + 1, row[i], -1, SQLITE_STATIC);
    found = catalog_step(w->old) == SQLITE_ROW;
    for (i = kd->nkey; i < kd->ncols; i++) {
        if (w->given[i])
            continue;
        if (!found) {
            if (kd->cols[i].flags & CATCOL_REQUIRED) {
                sqlite3_reset(w->old);
                return diag_set(d, CP_ERR_PARSE, kd->cols[i].name,
                                "missing required column '%s' for the new "
                                "row '%.60s'",
                                kd->cols[i].name, row[0]);
            }
            continue;
        }
        fill[i] = xstrdup(
            catalog_col_text(&kd->cols[i], w->old, (int)i, buf, sizeof(buf)));
        row[i] = fill[i];
    }
    sqlite3_reset(w->old);
    return CP_OK;
}

/* Check and write one row (full column order; line 0: no line). */
static enum cp_status writer_put(struct writer *w, const char *const *cells,
                                 size_t line, struct diag *d)
{
    const struct kind_def *kd = w->kd;
    const char *row[64] = {0};
    char *fill[64] = {0};
    enum cp_status st = CP_OK;
    size_t i;
    int rc;

    for (i = 0; i < kd->ncols; i++)
        row[i] = cells[i];
    if (w->given)
        st = merge_row(w, row, fill, d);
    if (!st)
        st = check_row(w->cat, kd, row, d);
    if (!st) {
        sqlite3_reset(w->seen);
        sqlite3_bind_text(w->seen, 1, row[0], -1, SQLITE_STATIC);
        sqlite3_bind_text(w->seen, 2, kd->nkey > 1 ? row[1] : "", -1,
                          SQLITE_STATIC);
        rc = catalog_step(w->seen);
        if ((rc & 0xff) == SQLITE_CONSTRAINT)
            st = diag_set(d, CP_ERR_EXISTS, "id", "duplicate key '%s'%s",
                          row[0], kd->nkey > 1 ? " for this term" : "");
        else if (rc != SQLITE_DONE)
            st = catalog_db_error(w->cat, d, kd->table, "cannot write row");
        sqlite3_reset(w->seen);
    }
    if (!st) {
        sqlite3_reset(w->ins);
        for (i = 0; i < kd->ncols && !st; i++)
            if (catalog_bind_value(w->ins, (int)i + 1, &kd->cols[i], row[i]))
                st = catalog_db_error(w->cat, d, kd->table, "cannot bind");
        if (!st && catalog_step(w->ins) != SQLITE_DONE)
            st = catalog_db_error(w->cat, d, kd->table, "cannot write row");
        sqlite3_reset(w->ins);
    }
    /* A model row is refused where every command would refuse the model
     * (experts_active over experts, kv_heads not dividing heads): read it
     * back as the commands do and check it; the import rolls back. */
    if (!st && strcmp(kd->table, "models") == 0) {
        struct model_spec m;

        st = catalog_get_model(w->cat, row[0], &m, NULL, d);
        if (!st)
            st = scenario_validate_model_spec(&m, d);
    }
    for (i = 0; i < kd->ncols; i++)
        free(fill[i]);
    if (st)
        where_line(d, w->name, line ? &line : NULL, 0);
    return st;
}

/* Commit (st == CP_OK) or roll back, and free the statements. */
static enum cp_status writer_end(struct writer *w, enum cp_status st,
                                 struct diag *d)
{
    writer_release(w);
    if (w->owns_txn) {
        if (st) {
            catalog_rollback(w->cat);
        } else {
            test_delay();
            st = catalog_commit(w->cat, d);
        }
    }
    return st;
}

enum cp_status catalog_put_rows(struct catalog *cat, enum catalog_kind k,
                                const char *name, const char *const *cells,
                                const size_t *lines, size_t nrows, int in_txn,
                                struct diag *d)
{
    const struct kind_def *kd = catalog_kind_def(k);
    struct writer w;
    enum cp_status st;
    size_t r;

    if (!kd || kd->ncols > 64)
        return diag_set(d, CP_ERR_USAGE, "catalog", "bad catalog kind");
    st = writer_begin(&w, cat, kd, name, NULL, in_txn, d);
    if (st)
        return st;
    for (r = 0; r < nrows && !st; r++)
        st = writer_put(&w, cells + r * kd->ncols, lines ? lines[r] : 0, d);
    return writer_end(&w, st, d);
}

/* ---- CSV import -------------------------------------------------------- */

struct import {
    struct catalog *cat;
    const struct kind_def *kd;
    const char *name;
    int in_txn;
    int started; /* the writer is open (after a good header) */
    int *hdr;    /* CSV field j -> column index */
    size_t nhdr;
    unsigned char given[64];
    int partial; /* some column is not in the header */
    struct writer w;
    struct diag *d;
};

static enum cp_status on_header(struct import *im, size_t line,
                                const char *const *f, size_t n)
{
    const struct kind_def *kd = im->kd;
    char where[DIAG_WHERE_MAX];
    size_t i, j;
    enum cp_status st = CP_OK;

    snprintf(where, sizeof(where), "%s:%zu", im->name, line);
    im->hdr = xcalloc(n ? n : 1, sizeof(int));
    im->nhdr = n;
    for (j = 0; j < n && !st; j++) {
        int c = catalog_col_index(kd, f[j]);

        if (c < 0)
            st = diag_set(im->d, CP_ERR_PARSE, where,
                          "unknown column '%.60s' for %s", f[j], kd->table);
        else if (im->given[c])
            st = diag_set(im->d, CP_ERR_PARSE, where,
                          "column '%s' appears twice", f[j]);
        else {
            im->given[c] = 1;
            im->hdr[j] = c;
        }
    }
    /* The key names the row to add or update: always needed.  The other
     * columns may be left out: stored rows keep their values. */
    for (i = 0; i < kd->nkey && !st; i++)
        if (!im->given[i])
            st = diag_set(im->d, CP_ERR_PARSE, where,
                          "missing required column '%s'", kd->cols[i].name);
    for (i = 0; i < kd->ncols && !st; i++)
        if (!im->given[i])
            im->partial = 1;
    if (!st)
        st = writer_begin(&im->w, im->cat, kd, im->name,
                          im->partial ? im->given : NULL, im->in_txn, im->d);
    if (!st)
        im->started = 1;
    return st;
}

static enum cp_status on_row(void *ctx, size_t line, const char *const *f,
                             size_t n)
{
    struct import *im = ctx;
    const char *row[64];
    char where[DIAG_WHERE_MAX];
    size_t i;

    if (!im->hdr)
        return on_header(im, line, f, n);
    if (n != im->nhdr) {
        snprintf(where, sizeof(where), "%s:%zu", im->name, line);
        return diag_set(im->d, CP_ERR_PARSE, where,
                        "expected %zu fields, found %zu", im->nhdr, n);
    }
    for (i = 0; i < im->kd->ncols; i++)
        row[i] = "";
    for (i = 0; i < n; i++)
        row[im->hdr[i]] = f[i];
    return writer_put(&im->w, row, line, im->d);
}

/* Parse from a buffer (data) or a stream (fp), writing as it goes. */
static enum cp_status import_run(struct catalog *cat, enum catalog_kind k,
                                 const char *name, const char *data, size_t len,
                                 FILE *fp, int in_txn, struct diag *d)
{
    struct import im;
    enum cp_status st;

    memset(&im, 0, sizeof(im));
    im.kd = catalog_kind_def(k);
    if (!im.kd || im.kd->ncols > 64)
        return diag_set(d, CP_ERR_USAGE, name, "bad catalog kind");
    im.cat = cat;
    im.name = name;
    im.in_txn = in_txn;
    im.d = d;
    if (fp) {
        st = csvio_parse_file(name, fp, on_row, &im, d);
    } else {
        if (len >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0) {
            data += 3; /* a UTF-8 byte order mark from a spreadsheet */
            len -= 3;
        }
        st = csvio_parse(name, data, len, on_row, &im, d);
    }
    if (!st && !im.hdr)
        st = diag_set(d, CP_ERR_PARSE, name, "empty file: no header row");
    if (im.started)
        st = writer_end(&im.w, st, d);
    free(im.hdr);
    return st;
}

static enum cp_status import_data(struct catalog *cat, enum catalog_kind k,
                                  const char *name, const char *data,
                                  size_t len, int in_txn, struct diag *d)
{
    return import_run(cat, k, name, data, len, NULL, in_txn, d);
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
    enum cp_status st;
    FILE *fp;

    diag_clear(d);
    fp = fopen(path, "r");
    if (!fp)
        return diag_set(d, CP_ERR_NOT_FOUND, path, "cannot read file");
    st = import_run(cat, k, path, NULL, 0, fp, 0, d);
    fclose(fp);
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
        CATALOG_SITES,        CATALOG_CLOUD,   CATALOG_MODELS,  CATALOG_STACKS,
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
        CATALOG_MODELS,       CATALOG_SYSTEMS, CATALOG_CLOUD,   CATALOG_STACKS,
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
