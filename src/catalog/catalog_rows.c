/*
 * catalog_rows.c - rows as text: list (catalog_foreach), put, update,
 * delete, and reset to the built-in defaults.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "catalog/catalog_int.h"
#include "util/embedded.h"
#include "util/fs.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* ---- rows as text ------------------------------------------------------ */

enum cp_status catalog_foreach(struct catalog *cat, enum catalog_kind k,
                               const char *id, catalog_row_fn fn, void *ctx,
                               struct diag *d)
{
    const struct kind_def *kd = catalog_kind_def(k);
    struct strbuf sql = STRBUF_INIT;
    sqlite3_stmt *st = NULL;
    const char *vals[64];
    char(*bufs)[64];
    enum cp_status rc;
    size_t i, rows = 0;
    int step;

    if (!kd || kd->ncols > 64)
        return diag_set(d, CP_ERR_USAGE, "catalog", "bad catalog kind");
    strbuf_init(&sql, 0);
    catalog_select_sql(
        kd,
        id ? (kd->nkey > 1 ? "WHERE id = ? ORDER BY id, term"
                           : "WHERE id = ? ORDER BY id")
           : (kd->nkey > 1 ? "ORDER BY id, term" : "ORDER BY id"),
        &sql);
    rc = catalog_prepare(cat, sql.buf, &st, d);
    strbuf_release(&sql);
    if (rc)
        return rc;
    if (id)
        sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
    bufs = xmalloc(kd->ncols * sizeof(*bufs));
    while ((step = catalog_step(st)) == SQLITE_ROW) {
        for (i = 0; i < kd->ncols; i++)
            vals[i] = catalog_col_text(&kd->cols[i], st, (int)i, bufs[i],
                                       sizeof(bufs[i]));
        rows++;
        rc = fn(ctx, vals, kd->ncols);
        if (rc)
            break;
    }
    if (!rc && step != SQLITE_DONE)
        rc = catalog_db_error(cat, d, NULL, "cannot read catalog");
    if (!rc && id && rows == 0)
        rc = diag_set(d, CP_ERR_NOT_FOUND, kd->table, "unknown id '%s'", id);
    free(bufs);
    sqlite3_finalize(st);
    return rc;
}

enum cp_status catalog_row_put(struct catalog *cat, enum catalog_kind k,
                               const char *const *values, size_t n,
                               struct diag *d)
{
    const struct kind_def *kd = catalog_kind_def(k);

    if (!kd || n != kd->ncols)
        return diag_set(d, CP_ERR_USAGE, kd ? kd->table : "catalog",
                        "expected %zu values, got %zu", kd ? kd->ncols : 0, n);
    return catalog_put_rows(cat, k, kd->table, values, NULL, 1, 0, d);
}

/* Run the prepared DELETE st of row `id` of `table` (rc: how preparing
 * it went) and end the transaction: CP_ERR_NOT_FOUND when no row had the
 * id; CP_ERR_EXISTS when a system or cloud offer still points at it (the
 * foreign keys are checked at COMMIT). */
static enum cp_status delete_run(struct catalog *cat, sqlite3_stmt *st,
                                 enum cp_status rc, const char *table,
                                 const char *id, struct diag *d)
{
    if (!rc) {
        if (catalog_step(st) != SQLITE_DONE)
            rc = catalog_db_error(cat, d, NULL, "cannot delete");
        else if (sqlite3_changes(cat->db) == 0)
            rc = diag_set(d, CP_ERR_NOT_FOUND, table, "unknown id '%s'", id);
    }
    sqlite3_finalize(st);
    if (rc)
        return catalog_end(cat, rc, d);
    rc = catalog_commit(cat, d);
    if (rc == CP_ERR_EXISTS)
        diag_set(d, rc, table, "'%s' is still used by a system or cloud offer",
                 id);
    return rc;
}

enum cp_status catalog_row_delete(struct catalog *cat, enum catalog_kind k,
                                  const char *id, struct diag *d)
{
    /* Static statements, one per kind, in enum catalog_kind order. */
    static const char *const sql[CATALOG_KIND_COUNT] = {
        "DELETE FROM accelerators WHERE id = ?",
        "DELETE FROM systems WHERE id = ?",
        "DELETE FROM fabrics WHERE id = ?",
        "DELETE FROM storage WHERE id = ?",
        "DELETE FROM sites WHERE id = ?",
        "DELETE FROM cloud WHERE id = ?",
        "DELETE FROM models WHERE id = ?",
        "DELETE FROM stacks WHERE id = ?",
    };
    sqlite3_stmt *st = NULL;
    enum cp_status rc;

    if ((unsigned)k >= CATALOG_KIND_COUNT)
        return diag_set(d, CP_ERR_USAGE, "catalog", "bad catalog kind");
    rc = catalog_begin(cat, d);
    if (rc)
        return rc;
    rc = catalog_prepare(cat, sql[k], &st, d);
    if (!rc)
        sqlite3_bind_text(st, 1, id ? id : "", -1, SQLITE_STATIC);
    return delete_run(cat, st, rc, catalog_kind_name(k), id ? id : "", d);
}

/* BEGIN IMMEDIATE, waiting at most wait_ms for another writer, then
 * CP_ERR_BUSY saying so (instead of the long wait of catalog_begin). */
static enum cp_status begin_within(struct catalog *cat, int wait_ms,
                                   struct diag *d)
{
    sqlite3_stmt *st = NULL;
    int rc;

    sqlite3_busy_timeout(cat->db, wait_ms > 0 ? wait_ms : 0);
    rc = sqlite3_prepare_v2(cat->db, "BEGIN IMMEDIATE", -1, &st, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_step(st);
    sqlite3_finalize(st);
    sqlite3_busy_timeout(cat->db, CATALOG_BUSY_TIMEOUT_MS);
    if ((rc & 0xff) == SQLITE_BUSY || (rc & 0xff) == SQLITE_LOCKED)
        return diag_set(d, CP_ERR_BUSY, cat->path,
                        "another process is writing the catalog (an "
                        "import?): nothing changed, try again");
    if (rc != SQLITE_DONE)
        return catalog_db_error(cat, d, NULL, "cannot start a transaction");
    return CP_OK;
}

/* " WHERE id = ?" (and term) for a kind's key; static text. */
static const char *key_where(const struct kind_def *kd)
{
    return kd->nkey > 1 ? "WHERE id = ? AND term = ?" : "WHERE id = ?";
}

static void bind_key(sqlite3_stmt *st, const struct kind_def *kd,
                     const char *const *key)
{
    size_t i;

    for (i = 0; i < kd->nkey; i++)
        sqlite3_bind_text(st, (int)i + 1, key[i] ? key[i] : "", -1,
                          SQLITE_STATIC);
}

/* The stored row with these key cells as text, each cell malloc'd into
 * cells[kd->ncols]; CP_ERR_NOT_FOUND when there is none. */
static enum cp_status read_row(struct catalog *cat, const struct kind_def *kd,
                               const char *const *key, char **cells,
                               struct diag *d)
{
    struct strbuf sql = STRBUF_INIT;
    sqlite3_stmt *st = NULL;
    enum cp_status rc;
    char buf[64];
    size_t i;
    int step;

    strbuf_init(&sql, 0);
    catalog_select_sql(kd, key_where(kd), &sql);
    rc = catalog_prepare(cat, sql.buf, &st, d);
    strbuf_release(&sql);
    if (rc)
        return rc;
    bind_key(st, kd, key);
    step = catalog_step(st);
    if (step == SQLITE_ROW) {
        for (i = 0; i < kd->ncols; i++)
            cells[i] = xstrdup(
                catalog_col_text(&kd->cols[i], st, (int)i, buf, sizeof(buf)));
    } else if (step == SQLITE_DONE) {
        rc = diag_set(d, CP_ERR_NOT_FOUND, kd->table,
                      "'%s' is no longer in the catalog", key[0]);
    } else {
        rc = catalog_db_error(cat, d, NULL, "cannot read catalog");
    }
    sqlite3_finalize(st);
    return rc;
}

enum cp_status catalog_row_update(struct catalog *cat, enum catalog_kind k,
                                  const char *const *key,
                                  const struct catalog_cell_edit *edits,
                                  size_t nedits, int wait_ms, struct diag *d)
{
    const struct kind_def *kd = catalog_kind_def(k);
    char **cells;
    enum cp_status rc;
    size_t i;

    if (!kd)
        return diag_set(d, CP_ERR_USAGE, "catalog", "bad catalog kind");
    for (i = 0; i < nedits; i++)
        if (edits[i].col >= kd->ncols || edits[i].col < kd->nkey ||
            !edits[i].value)
            return diag_set(d, CP_ERR_USAGE,
                            edits[i].col < kd->ncols
                                ? kd->cols[edits[i].col].name
                                : kd->table,
                            "a key column cannot be edited (add a copy "
                            "with another id instead)");
    rc = begin_within(cat, wait_ms, d);
    if (rc)
        return rc;
    cells = xcalloc(kd->ncols, sizeof(*cells));
    rc = read_row(cat, kd, key, cells, d);
    for (i = 0; !rc && i < nedits; i++) {
        char **c = &cells[edits[i].col];

        if (edits[i].expect && strcmp(*c, edits[i].expect) != 0) {
            rc = diag_set(d, CP_ERR_CONFLICT, kd->cols[edits[i].col].name,
                          "changed by someone else since it was read (now "
                          "'%.60s'): nothing written",
                          *c);
            break;
        }
        free(*c);
        *c = xstrdup(edits[i].value);
    }
    if (!rc)
        rc = catalog_put_rows(cat, k, kd->table, (const char *const *)cells,
                              NULL, 1, 1, d);
    for (i = 0; i < kd->ncols; i++)
        free(cells[i]);
    free(cells);
    return catalog_end(cat, rc, d);
}

enum cp_status catalog_row_delete_key(struct catalog *cat, enum catalog_kind k,
                                      const char *const *key, int wait_ms,
                                      struct diag *d)
{
    const struct kind_def *kd = catalog_kind_def(k);
    struct strbuf sql = STRBUF_INIT;
    sqlite3_stmt *st = NULL;
    enum cp_status rc;

    if (!kd)
        return diag_set(d, CP_ERR_USAGE, "catalog", "bad catalog kind");
    rc = begin_within(cat, wait_ms, d);
    if (rc)
        return rc;
    /* the table name comes from the static kind table */
    strbuf_init(&sql, 0);
    strbuf_addf(&sql, "DELETE FROM %s %s", kd->table, key_where(kd));
    rc = catalog_prepare(cat, sql.buf, &st, d);
    strbuf_release(&sql);
    if (!rc)
        bind_key(st, kd, key);
    return delete_run(cat, st, rc, kd->table, key[0] ? key[0] : "", d);
}

enum cp_status catalog_reset(struct catalog *cat, struct diag *d)
{
    static const char *const wipe[] = {
        "DELETE FROM cloud",        "DELETE FROM systems",
        "DELETE FROM models",       "DELETE FROM sites",
        "DELETE FROM storage",      "DELETE FROM fabrics",
        "DELETE FROM accelerators",
    };
    enum cp_status st = catalog_begin(cat, d);
    size_t i;

    if (st)
        return st;
    for (i = 0; i < sizeof(wipe) / sizeof(wipe[0]); i++) {
        if (catalog_exec1(cat, wipe[i]) != SQLITE_OK) {
            st = catalog_db_error(cat, d, NULL, "cannot reset");
            catalog_rollback(cat);
            return st;
        }
    }
    return catalog_end(cat, catalog_seed(cat, d), d);
}
