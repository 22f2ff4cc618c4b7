/*
 * catalog_plans.c - saved plans (save, load, list, delete and rename
 * plan text by name) and the key/value settings beside them.
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

/* ---- saved plans ------------------------------------------------------- */

static enum cp_status check_name(const char *name, const char *what,
                                 struct diag *d)
{
    const char *p;

    if (!name || !*name)
        return diag_set(d, CP_ERR_USAGE, what, "empty name");
    for (p = name; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ||
              *p == '.' || *p == '_' || *p == '-'))
            return diag_set(d, CP_ERR_RANGE, what,
                            "'%.60s' is not a valid name: use lower-case "
                            "letters, digits, '.', '_' and '-'",
                            name);
    if (p - name >= CP_ID_MAX)
        return diag_set(d, CP_ERR_RANGE, what, "longer than %d characters",
                        CP_ID_MAX - 1);
    return CP_OK;
}

/* One write statement with up to two text parameters, in a transaction.
 * *changes receives sqlite3_changes(). */
static enum cp_status write1(struct catalog *cat, const char *sql,
                             const char *a, const char *b, int *changes,
                             struct diag *d)
{
    sqlite3_stmt *st = NULL;
    enum cp_status rc = catalog_begin(cat, d);

    if (rc)
        return rc;
    rc = catalog_prepare(cat, sql, &st, d);
    if (!rc) {
        sqlite3_bind_text(st, 1, a, -1, SQLITE_STATIC);
        if (b)
            sqlite3_bind_text(st, 2, b, -1, SQLITE_STATIC);
        if (catalog_step(st) != SQLITE_DONE)
            rc = catalog_db_error(cat, d, NULL, "cannot write catalog");
        else if (changes)
            *changes = sqlite3_changes(cat->db);
    }
    sqlite3_finalize(st);
    return catalog_end(cat, rc, d);
}

enum cp_status catalog_plan_save(struct catalog *cat, const char *name,
                                 const char *ini_text, struct diag *d)
{
    enum cp_status st = check_name(name, "plan", d);

    if (st)
        return st;
    return write1(cat,
                  "INSERT INTO plans (name, ini, created_at, updated_at) "
                  "VALUES (?1, ?2, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'), "
                  "strftime('%Y-%m-%dT%H:%M:%SZ', 'now')) "
                  "ON CONFLICT(name) DO UPDATE SET ini = excluded.ini, "
                  "updated_at = excluded.updated_at",
                  name, ini_text ? ini_text : "", NULL, d);
}

/* The text column of a one-row query keyed by one parameter. */
static enum cp_status load_text(struct catalog *cat, const char *sql,
                                const char *key, const char *what, char **out,
                                struct diag *d)
{
    sqlite3_stmt *st = NULL;
    enum cp_status rc = catalog_prepare(cat, sql, &st, d);
    int step;

    *out = NULL;
    if (rc)
        return rc;
    sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
    step = catalog_step(st);
    if (step == SQLITE_ROW) {
        const unsigned char *t = sqlite3_column_text(st, 0);

        *out = xstrdup(t ? (const char *)t : "");
    } else if (step == SQLITE_DONE) {
        rc = diag_set(d, CP_ERR_NOT_FOUND, what, "'%s' not found", key);
    } else {
        rc = catalog_db_error(cat, d, NULL, "cannot read catalog");
    }
    sqlite3_finalize(st);
    return rc;
}

enum cp_status catalog_plan_load(struct catalog *cat, const char *name,
                                 char **text_out, struct diag *d)
{
    enum cp_status st = check_name(name, "plan", d);

    *text_out = NULL;
    if (st)
        return st;
    return load_text(cat, "SELECT ini FROM plans WHERE name = ?", name, "plan",
                     text_out, d);
}

enum cp_status catalog_plan_list(struct catalog *cat, catalog_plan_fn fn,
                                 void *ctx, struct diag *d)
{
    sqlite3_stmt *st = NULL;
    enum cp_status rc = catalog_prepare(
        cat, "SELECT name, updated_at FROM plans ORDER BY name", &st, d);
    int step;

    if (rc)
        return rc;
    while ((step = catalog_step(st)) == SQLITE_ROW) {
        rc = fn(ctx, (const char *)sqlite3_column_text(st, 0),
                (const char *)sqlite3_column_text(st, 1));
        if (rc)
            break;
    }
    if (!rc && step != SQLITE_DONE)
        rc = catalog_db_error(cat, d, NULL, "cannot read catalog");
    sqlite3_finalize(st);
    return rc;
}

enum cp_status catalog_plan_delete(struct catalog *cat, const char *name,
                                   struct diag *d)
{
    int n = 0;
    enum cp_status st = check_name(name, "plan", d);

    if (!st)
        st = write1(cat, "DELETE FROM plans WHERE name = ?", name, NULL, &n, d);
    if (!st && n == 0)
        st = diag_set(d, CP_ERR_NOT_FOUND, "plan", "'%s' not found", name);
    return st;
}

enum cp_status catalog_plan_rename(struct catalog *cat, const char *from,
                                   const char *to, struct diag *d)
{
    sqlite3_stmt *st = NULL;
    enum cp_status rc = check_name(from, "plan", d);
    int step;

    if (!rc)
        rc = check_name(to, "plan", d);
    if (!rc)
        rc = catalog_begin(cat, d);
    if (rc)
        return rc;
    rc = catalog_prepare(cat, "SELECT 1 FROM plans WHERE name = ?", &st, d);
    if (!rc) {
        sqlite3_bind_text(st, 1, to, -1, SQLITE_STATIC);
        step = catalog_step(st);
        if (step == SQLITE_ROW && strcmp(from, to) != 0)
            rc = diag_set(d, CP_ERR_EXISTS, "plan", "'%s' already exists", to);
        else if (step != SQLITE_ROW && step != SQLITE_DONE)
            rc = catalog_db_error(cat, d, NULL, "cannot read catalog");
    }
    sqlite3_finalize(st);
    st = NULL;
    if (!rc)
        rc = catalog_prepare(
            cat,
            "UPDATE plans SET name = ?2, updated_at = "
            "strftime('%Y-%m-%dT%H:%M:%SZ', 'now') WHERE name = ?1",
            &st, d);
    if (!rc) {
        sqlite3_bind_text(st, 1, from, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 2, to, -1, SQLITE_STATIC);
        if (catalog_step(st) != SQLITE_DONE)
            rc = catalog_db_error(cat, d, NULL, "cannot rename plan");
        else if (sqlite3_changes(cat->db) == 0)
            rc = diag_set(d, CP_ERR_NOT_FOUND, "plan", "'%s' not found", from);
    }
    sqlite3_finalize(st);
    return catalog_end(cat, rc, d);
}

/* ---- settings ---------------------------------------------------------- */

enum cp_status catalog_setting_get(struct catalog *cat, const char *key,
                                   char **value_out, struct diag *d)
{
    enum cp_status st = check_name(key, "setting", d);

    *value_out = NULL;
    if (st)
        return st;
    return load_text(cat, "SELECT value FROM settings WHERE key = ?", key,
                     "setting", value_out, d);
}

enum cp_status catalog_setting_put(struct catalog *cat, const char *key,
                                   const char *value, struct diag *d)
{
    enum cp_status st = check_name(key, "setting", d);

    if (st)
        return st;
    return write1(cat,
                  "INSERT INTO settings (key, value) VALUES (?1, ?2) "
                  "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                  key, value ? value : "", NULL, d);
}

bool catalog_defaults_outdated(struct catalog *cat)
{
    char fp[17], *stored = NULL;
    bool outdated;

    if (catalog_setting_get(cat, "defaults.fingerprint", &stored, NULL) !=
        CP_OK)
        return true;
    catalog_defaults_fingerprint(fp);
    outdated = strcmp(stored, fp) != 0;
    free(stored);
    return outdated;
}
