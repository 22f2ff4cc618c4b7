/*
 * catalog.c - opening (create, check, migrate, seed), transactions, the
 * typed getters, row access, reset, saved plans and settings.
 *
 * Opening an existing file never writes to it before it has passed every
 * check: the 16-byte SQLite header, our application_id, a user_version we
 * know, and PRAGMA quick_check.  A missing file is built beside its final
 * name (schema + the whole embedded seed in one transaction) and linked
 * into place, so a crash never leaves a half-seeded catalog and two
 * processes creating it at once both end up with a complete one.
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

/* "llmp": marks a SQLite file as an llmplan catalog. */
#define APP_ID 0x6c6c6d70
#define BUSY_TIMEOUT_MS 5000
#define BUSY_RETRIES 40

/* Migrations, in order; entry i brings the schema to version i + 1.  The
 * PRAGMA is spelled out because a version cannot be a bound parameter.
 * CHECKLIST: a new schema/NNNN_*.sql file is added here. */
static const struct {
    const char *path;
    const char *set_version;
} migrations[] = {
    {"src/catalog/schema/0001_init.sql", "PRAGMA user_version = 1"},
    {"src/catalog/schema/0002_stacks.sql", "PRAGMA user_version = 2"},
    {"src/catalog/schema/0003_finance.sql", "PRAGMA user_version = 3"},
    {"src/catalog/schema/0004_serve.sql", "PRAGMA user_version = 4"},
    {"src/catalog/schema/0005_moe.sql", "PRAGMA user_version = 5"},
    {"src/catalog/schema/0006_buy.sql", "PRAGMA user_version = 6"},
    {"src/catalog/schema/0007_quant.sql", "PRAGMA user_version = 7"},
    {"src/catalog/schema/0008_capacity.sql", "PRAGMA user_version = 8"},
    {"src/catalog/schema/0009_stack_runs_on.sql", "PRAGMA user_version = 9"},
};
#define SCHEMA_VERSION ((int)(sizeof(migrations) / sizeof(migrations[0])))

/* ---- small helpers ----------------------------------------------------- */

int catalog_step(sqlite3_stmt *st)
{
    int rc, tries;
    struct timespec ts = {0, 25 * 1000 * 1000};

    for (tries = 0;; tries++) {
        rc = sqlite3_step(st);
        if (((rc & 0xff) != SQLITE_BUSY && (rc & 0xff) != SQLITE_LOCKED) ||
            tries >= BUSY_RETRIES)
            return rc;
        sqlite3_reset(st);
        nanosleep(&ts, NULL);
    }
}

enum cp_status catalog_db_error(struct catalog *cat, struct diag *d,
                                const char *where, const char *what)
{
    return diag_set(d, CP_ERR_DB, where ? where : cat->path, "%s: %s", what,
                    sqlite3_errmsg(cat->db));
}

/* Run one static statement (no parameters, no rows wanted). */
static int exec1(struct catalog *cat, const char *sql)
{
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(cat->db, sql, -1, &st, NULL);

    if (rc == SQLITE_OK) {
        rc = catalog_step(st);
        if (rc == SQLITE_ROW || rc == SQLITE_DONE)
            rc = SQLITE_OK;
    }
    sqlite3_finalize(st);
    return rc;
}

/* One integer from a static query (PRAGMA user_version ...). */
static int query_int(struct catalog *cat, const char *sql, long long *out)
{
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(cat->db, sql, -1, &st, NULL);

    if (rc == SQLITE_OK) {
        rc = catalog_step(st);
        if (rc == SQLITE_ROW) {
            *out = sqlite3_column_int64(st, 0);
            rc = SQLITE_OK;
        } else if (rc == SQLITE_DONE) {
            rc = SQLITE_ERROR;
        }
    }
    sqlite3_finalize(st);
    return rc;
}

enum cp_status catalog_begin(struct catalog *cat, struct diag *d)
{
    if (exec1(cat, "BEGIN IMMEDIATE") != SQLITE_OK)
        return catalog_db_error(cat, d, NULL, "cannot start a transaction");
    return CP_OK;
}

enum cp_status catalog_commit(struct catalog *cat, struct diag *d)
{
    int rc = exec1(cat, "COMMIT");

    if (rc == SQLITE_OK)
        return CP_OK;
    if ((rc & 0xff) == SQLITE_CONSTRAINT) {
        catalog_rollback(cat);
        return diag_set(d, CP_ERR_EXISTS, cat->path,
                        "a system or cloud offer still refers to it");
    }
    catalog_db_error(cat, d, NULL, "cannot commit");
    catalog_rollback(cat);
    return CP_ERR_DB;
}

void catalog_rollback(struct catalog *cat)
{
    if (!sqlite3_get_autocommit(cat->db))
        exec1(cat, "ROLLBACK");
}

/* "SELECT c1, ..., cn FROM table" + tail; the names are static. */
static void select_sql(const struct kind_def *kd, const char *tail,
                       struct strbuf *sb)
{
    size_t i;

    strbuf_addstr(sb, "SELECT ");
    for (i = 0; i < kd->ncols; i++)
        strbuf_addf(sb, "%s%s", i ? ", " : "", kd->cols[i].name);
    strbuf_addf(sb, " FROM %s %s", kd->table, tail);
}

static enum cp_status prepare(struct catalog *cat, const char *sql,
                              sqlite3_stmt **st, struct diag *d)
{
    if (sqlite3_prepare_v2(cat->db, sql, -1, st, NULL) != SQLITE_OK) {
        *st = NULL;
        return catalog_db_error(cat, d, NULL, "cannot prepare query");
    }
    return CP_OK;
}

/* ---- location and opening ---------------------------------------------- */

enum cp_status catalog_default_path(char *buf, size_t n, struct diag *d)
{
    const char *env = getenv("LLMPLAN_CATALOG");

    if (env && *env) {
        if ((size_t)snprintf(buf, n, "%s", env) >= n)
            return diag_set(d, CP_ERR_IO, "LLMPLAN_CATALOG", "path too long");
        return CP_OK;
    }
    return fs_xdg_data_path(buf, n, "catalog.db", d);
}

/* Bring the schema from version `from` to SCHEMA_VERSION in one
 * transaction, so a catalog is never left between versions, and a kind
 * that a migration adds (stacks, version 2) gets its built-in rows in a
 * catalog seeded before it existed, once every column it has exists (a new
 * catalog is seeded whole by build()). */
static enum cp_status migrate(struct catalog *cat, long long from,
                              struct diag *d)
{
    long long v, now;
    char *err = NULL;

    if (from >= SCHEMA_VERSION)
        return CP_OK;
    if (catalog_begin(cat, d))
        return CP_ERR_DB;
    /* Another process may have migrated while we waited for the lock:
     * look again inside the transaction. */
    if (query_int(cat, "PRAGMA user_version", &now) != SQLITE_OK) {
        catalog_db_error(cat, d, NULL, "cannot read schema version");
        catalog_rollback(cat);
        return CP_ERR_DB;
    }
    if (now >= SCHEMA_VERSION) {
        catalog_rollback(cat);
        return CP_OK;
    }
    if (now > from)
        from = now;
    for (v = from; v < SCHEMA_VERSION; v++) {
        const struct embedded_file *ef = embedded_find(migrations[v].path);

        if (!ef) {
            catalog_rollback(cat);
            return diag_set(d, CP_ERR_DB, migrations[v].path,
                            "built-in schema migration is missing");
        }
        /* Static, embedded SQL: the one place a script is executed. */
        if (sqlite3_exec(cat->db, ef->data, NULL, NULL, &err) != SQLITE_OK) {
            diag_set(d, CP_ERR_DB, migrations[v].path, "migration failed: %s",
                     err ? err : sqlite3_errmsg(cat->db));
            sqlite3_free(err);
            catalog_rollback(cat);
            return CP_ERR_DB;
        }
    }
    if (from > 0 && from < 2 && catalog_seed_kind(cat, CATALOG_STACKS, d)) {
        catalog_rollback(cat);
        return CP_ERR_DB;
    }
    if (exec1(cat, migrations[SCHEMA_VERSION - 1].set_version) != SQLITE_OK ||
        exec1(cat, "PRAGMA application_id = 1819045232") != SQLITE_OK) {
        catalog_db_error(cat, d, NULL, "cannot record schema version");
        catalog_rollback(cat);
        return CP_ERR_DB;
    }
    return catalog_commit(cat, d) ? CP_ERR_DB : CP_OK;
}

static enum cp_status open_db(struct catalog *cat, const char *path,
                              int sqlflags, struct diag *d)
{
    int rc = sqlite3_open_v2(path, &cat->db, sqlflags, NULL);

    if (rc != SQLITE_OK) {
        diag_set(d, CP_ERR_DB, path, "cannot open catalog: %s",
                 cat->db ? sqlite3_errmsg(cat->db) : sqlite3_errstr(rc));
        sqlite3_close(cat->db);
        cat->db = NULL;
        return CP_ERR_DB;
    }
    sqlite3_busy_timeout(cat->db, BUSY_TIMEOUT_MS);
    sqlite3_extended_result_codes(cat->db, 1);
    return CP_OK;
}

/* A fresh schema and the whole default catalog, in two transactions on a
 * connection nobody else sees yet. */
static enum cp_status build(struct catalog *cat, struct diag *d)
{
    enum cp_status st;

    exec1(cat, "PRAGMA foreign_keys = ON");
    st = migrate(cat, 0, d);
    if (st)
        return st;
    st = catalog_begin(cat, d);
    if (st)
        return st;
    st = catalog_seed(cat, d);
    if (st) {
        catalog_rollback(cat);
        return st;
    }
    return catalog_commit(cat, d);
}

static void remove_sidecars(const char *db)
{
    static const char *const sfx[] = {"-wal", "-shm", "-journal"};
    char name[4096 + 32];
    size_t i;

    for (i = 0; i < sizeof(sfx) / sizeof(sfx[0]); i++) {
        snprintf(name, sizeof(name), "%s%s", db, sfx[i]);
        unlink(name);
    }
}

/* Create path from scratch: build in "<path>.new.XXXXXX", then link. */
static enum cp_status create_file(const char *path, struct diag *d)
{
    struct catalog tmp = {0};
    char dir[4096], tmpname[4096 + 16];
    char *slash;
    enum cp_status st;
    int fd;

    snprintf(dir, sizeof(dir), "%s", path);
    slash = strrchr(dir, '/');
    if (slash && slash != dir) {
        *slash = '\0';
        st = fs_mkdir_p(dir, 0700, d);
        if (st)
            return st;
    }
    if ((size_t)snprintf(tmpname, sizeof(tmpname), "%s.new.XXXXXX", path) >=
        sizeof(tmpname))
        return diag_set(d, CP_ERR_IO, path, "path too long");
    fd = mkstemp(tmpname);
    if (fd < 0)
        return diag_set(d, CP_ERR_DB, path, "cannot create catalog: %s",
                        strerror(errno));
    fchmod(fd, 0600);
    close(fd);
    snprintf(tmp.path, sizeof(tmp.path), "%s", path);
    st = open_db(&tmp, tmpname, SQLITE_OPEN_READWRITE, d);
    if (!st) {
        exec1(&tmp, "PRAGMA journal_mode = WAL");
        exec1(&tmp, "PRAGMA synchronous = NORMAL");
        st = build(&tmp, d);
    }
    if (tmp.db && sqlite3_close(tmp.db) != SQLITE_OK && !st)
        st = diag_set(d, CP_ERR_DB, path, "cannot close new catalog");
    /* link() never replaces a catalog another process created meanwhile;
     * where hard links are not supported, rename() does the job. */
    if (!st && link(tmpname, path) != 0 && errno != EEXIST &&
        (access(path, F_OK) == 0 || rename(tmpname, path) != 0))
        st = diag_set(d, CP_ERR_DB, path, "cannot create catalog: %s",
                      strerror(errno));
    unlink(tmpname);
    remove_sidecars(tmpname); /* left by a build that failed (disk full) */
    return st;
}

/* Can this process write the catalog file and, for the WAL and shared
 * memory files beside it, its directory? */
static int writable(const char *path)
{
    char dir[4096];
    char *slash;
    struct stat sb;

    if (stat(path, &sb) != 0 || (sb.st_mode & 0222) == 0 ||
        access(path, W_OK) != 0)
        return 0;
    snprintf(dir, sizeof(dir), "%s", path);
    slash = strrchr(dir, '/');
    if (!slash)
        return access(".", W_OK) == 0;
    if (slash == dir)
        slash[1] = '\0';
    else
        *slash = '\0';
    return access(dir, W_OK) == 0;
}

/* Refuse anything that is not an llmplan catalog before SQLite writes. */
static enum cp_status check_file(const char *path, unsigned flags,
                                 struct diag *d)
{
    static const char magic[16] = "SQLite format 3";
    char head[16];
    struct stat sb;
    ssize_t got;
    int fd;

    if (stat(path, &sb) != 0)
        return diag_set(d, CP_ERR_DB, path, "cannot open catalog: %s",
                        strerror(errno));
    if (!S_ISREG(sb.st_mode))
        return diag_set(d, CP_ERR_DB, path, "not a catalog: not a file");
    fd = open(path, O_RDONLY);
    if (fd < 0)
        return diag_set(d, CP_ERR_DB, path, "cannot open catalog: %s",
                        strerror(errno));
    got = read(fd, head, sizeof(head));
    close(fd);
    if (got != (ssize_t)sizeof(head) || memcmp(head, magic, 16) != 0)
        return diag_set(d, CP_ERR_DB, path,
                        "not an llmplan catalog (not an SQLite database); "
                        "move it away or pass another --catalog");
    if (!(flags & CATALOG_OPEN_READONLY) &&
        ((sb.st_mode & 0222) == 0 || access(path, W_OK) != 0))
        return diag_set(d, CP_ERR_DB, path,
                        "catalog is read-only; make it writable or pass "
                        "another --catalog");
    return CP_OK;
}

/* A WAL catalog in a directory nobody here can write, with no -wal file:
 * SQLite cannot create the -shm file a reader needs, and no writer can
 * change the catalog either (a writer needs the -wal file), so it may be
 * read as immutable. */
static int no_writer_possible(const char *path)
{
    char dir[4096], wal[4096 + 8];
    char *slash;

    snprintf(dir, sizeof(dir), "%s", path);
    slash = strrchr(dir, '/');
    if (!slash)
        snprintf(dir, sizeof(dir), ".");
    else if (slash == dir)
        slash[1] = '\0';
    else
        *slash = '\0';
    snprintf(wal, sizeof(wal), "%s-wal", path);
    return access(dir, W_OK) != 0 && access(wal, F_OK) != 0;
}

/* Open path read-only and immutable (a "file:" URI, path percent-encoded). */
static enum cp_status open_immutable(struct catalog *cat, const char *path,
                                     struct diag *d)
{
    static const char hex[] = "0123456789ABCDEF";
    struct strbuf uri = STRBUF_INIT;
    const unsigned char *p;
    enum cp_status st;

    strbuf_addstr(&uri, "file:");
    for (p = (const unsigned char *)path; *p; p++) {
        if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
            (*p >= '0' && *p <= '9') || strchr("/._-", *p)) {
            strbuf_addch(&uri, *p);
        } else {
            strbuf_addch(&uri, '%');
            strbuf_addch(&uri, hex[*p >> 4]);
            strbuf_addch(&uri, hex[*p & 15]);
        }
    }
    strbuf_addstr(&uri, "?immutable=1");
    st = open_db(cat, uri.buf, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, d);
    strbuf_release(&uri);
    if (st && d) {
        char msg[sizeof(d->msg)];

        snprintf(msg, sizeof(msg), "%s", d->msg);
        diag_set(d, CP_ERR_DB, path, "%s", msg);
    }
    return st;
}

/* Why a first read of an existing catalog failed: a full disk or a
 * read-only file or directory (SQLite could not create the -wal or -shm
 * file beside it) is not a corrupt catalog, and must not be called one. */
static enum cp_status read_failure(struct catalog *cat, struct diag *d)
{
    int rc = sqlite3_extended_errcode(cat->db);
    int e = sqlite3_system_errno(cat->db);
    const char *msg = sqlite3_errmsg(cat->db);

    if (e == ENOSPC || e == EDQUOT || (rc & 0xff) == SQLITE_FULL)
        return diag_set(d, CP_ERR_IO, cat->path,
                        "disk full: cannot write the catalog's -wal and -shm "
                        "files; free some space (%s)",
                        msg);
    if (e == EROFS || e == EACCES || e == EPERM ||
        (rc & 0xff) == SQLITE_READONLY || (rc & 0xff) == SQLITE_CANTOPEN ||
        (rc & 0xff) == SQLITE_PERM)
        return diag_set(d, CP_ERR_DB, cat->path,
                        "cannot write the catalog or its directory "
                        "(read-only?): %s",
                        msg);
    if ((rc & 0xff) == SQLITE_CORRUPT || (rc & 0xff) == SQLITE_NOTADB)
        return diag_set(d, CP_ERR_DB, cat->path,
                        "catalog is corrupt or truncated: %s", msg);
    return diag_set(d, CP_ERR_DB, cat->path, "cannot read catalog: %s", msg);
}

/* Checks on an open connection to an existing file, then upgrade. */
static enum cp_status check_db(struct catalog *cat, unsigned flags,
                               struct diag *d)
{
    long long app = 0, ver = 0;
    sqlite3_stmt *st = NULL;
    const unsigned char *res;
    enum cp_status status;
    int rc;

    if (query_int(cat, "PRAGMA application_id", &app) != SQLITE_OK ||
        query_int(cat, "PRAGMA user_version", &ver) != SQLITE_OK)
        return read_failure(cat, d);
    if (app != APP_ID)
        return diag_set(d, CP_ERR_DB, cat->path,
                        "not an llmplan catalog (an SQLite database of "
                        "another program)");
    if (ver > SCHEMA_VERSION)
        return diag_set(d, CP_ERR_DB, cat->path,
                        "catalog schema version %lld is newer than this "
                        "llmplan supports (%d); upgrade llmplan",
                        ver, SCHEMA_VERSION);
    rc = sqlite3_prepare_v2(cat->db, "PRAGMA quick_check(1)", -1, &st, NULL);
    if (rc == SQLITE_OK)
        rc = catalog_step(st);
    res = rc == SQLITE_ROW ? sqlite3_column_text(st, 0) : NULL;
    if (!res && (rc & 0xff) != SQLITE_CORRUPT && (rc & 0xff) != SQLITE_NOTADB) {
        sqlite3_finalize(st);
        return read_failure(cat, d);
    }
    if (!res || strcmp((const char *)res, "ok") != 0) {
        diag_set(d, CP_ERR_DB, cat->path, "catalog is corrupt: %s",
                 res ? (const char *)res : sqlite3_errmsg(cat->db));
        sqlite3_finalize(st);
        return CP_ERR_DB;
    }
    sqlite3_finalize(st);
    if (exec1(cat, "PRAGMA foreign_keys = ON") != SQLITE_OK)
        return catalog_db_error(cat, d, NULL, "cannot enable foreign keys");
    if (flags & CATALOG_OPEN_READONLY) {
        if (ver < SCHEMA_VERSION)
            return diag_set(d, CP_ERR_DB, cat->path,
                            "catalog schema version %lld needs an upgrade; "
                            "open it writable once",
                            ver);
        return CP_OK;
    }
    /* Migrate before switching to WAL, so that a migration that fails
     * (and rolls back) leaves the file exactly as it was. */
    status = migrate(cat, ver, d);
    if (status)
        return status;
    exec1(cat, "PRAGMA journal_mode = WAL");
    exec1(cat, "PRAGMA synchronous = NORMAL");
    return CP_OK;
}

enum cp_status catalog_open(const char *path, unsigned flags,
                            struct catalog **out, struct diag *d)
{
    struct catalog *cat;
    char defpath[4096];
    enum cp_status st;
    struct stat sb;

    *out = NULL;
    diag_clear(d);
    if (!path || !*path) {
        st = catalog_default_path(defpath, sizeof(defpath), d);
        if (st)
            return st;
        path = defpath;
    }
    cat = xcalloc(1, sizeof(*cat));
    if ((size_t)snprintf(cat->path, sizeof(cat->path), "%s", path) >=
        sizeof(cat->path)) {
        free(cat);
        return diag_set(d, CP_ERR_IO, "--catalog", "path too long");
    }
    if (strcmp(path, ":memory:") == 0) {
        st = open_db(cat, path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, d);
        if (!st)
            st = build(cat, d);
    } else {
        st = CP_OK;
        if (stat(path, &sb) != 0) {
            if (errno != ENOENT || (flags & CATALOG_OPEN_READONLY))
                st = diag_set(d, CP_ERR_DB, path, "cannot open catalog: %s",
                              strerror(errno));
            else
                st = create_file(path, d);
        }
        if (!st && (flags & CATALOG_OPEN_READ) && !writable(path))
            flags |= CATALOG_OPEN_READONLY;
        if (!st)
            st = check_file(path, flags, d);
        if (!st && (flags & CATALOG_OPEN_READONLY) && no_writer_possible(path))
            st = open_immutable(cat, path, d);
        else if (!st)
            st =
                open_db(cat, path,
                        (flags & CATALOG_OPEN_READONLY) ? SQLITE_OPEN_READONLY
                                                        : SQLITE_OPEN_READWRITE,
                        d);
        if (!st)
            st = check_db(cat, flags, d);
    }
    if (st) {
        catalog_close(cat);
        return st;
    }
    if (strcmp(path, ":memory:") != 0)
        fs_protect(path); /* never an --output while open */
    *out = cat;
    return CP_OK;
}

void catalog_close(struct catalog *cat)
{
    if (!cat)
        return;
    if (cat->db)
        sqlite3_close_v2(cat->db);
    free(cat);
}

/* ---- typed getters ----------------------------------------------------- */

/* Index of word t among "a|b|c" choices; 0 (the first) when absent. */
static int enum_index(const char *choices, const char *t)
{
    const char *c = choices;
    size_t n = t ? strlen(t) : 0;
    int i;

    for (i = 0; c && t; i++) {
        size_t len = strcspn(c, "|");

        if (len == n && strncmp(c, t, n) == 0)
            return i;
        c = c[len] ? c + len + 1 : NULL;
    }
    return 0;
}

/* Copy the current row of st (all columns of kd, in order) into out. */
static void fill_struct(const struct kind_def *kd, sqlite3_stmt *st, void *out)
{
    size_t i;

    for (i = 0; i < kd->ncols; i++) {
        const struct col_map *m = &kd->map[i];
        char *p = (char *)out + m->off;
        int null = sqlite3_column_type(st, (int)i) == SQLITE_NULL;
        double v;

        if (m->ft == FT_NONE)
            continue;
        if (null && !(m->pflags & PF_DEFAULT))
            continue; /* out was zeroed: 0, "" or false */
        if (m->ft == FT_STR) {
            const unsigned char *t = sqlite3_column_text(st, (int)i);

            snprintf(p, m->size, "%s", t ? (const char *)t : "");
            continue;
        }
        v = null ? m->dflt : sqlite3_column_double(st, (int)i);
        if (m->ft == FT_DBL) {
            double x = v * m->scale;

            memcpy(p, &x, sizeof(x));
        } else if (m->ft == FT_U64) {
            uint64_t u = v > 0 ? (uint64_t)llround(v * m->scale) : 0;

            memcpy(p, &u, sizeof(u));
        } else if (m->ft == FT_BOOL) {
            bool b = v != 0;

            memcpy(p, &b, sizeof(b));
        } else if (m->ft == FT_ENUM) {
            const char *t = (const char *)sqlite3_column_text(st, (int)i);
            int e = enum_index(kd->cols[i].choices, t);

            memcpy(p, &e, sizeof(e));
        }
    }
}

static void copy_col(const struct kind_def *kd, sqlite3_stmt *st,
                     const char *name, char *buf, size_t n)
{
    int i = catalog_col_index(kd, name);
    const unsigned char *t = i >= 0 ? sqlite3_column_text(st, i) : NULL;

    snprintf(buf, n, "%s", t ? (const char *)t : "");
}

const char *catalog_meta_text(const struct catalog_meta *m, bool price,
                              char *buf, size_t n)
{
    const char *src = price ? m->price_source : m->source;
    const char *as_of = price ? m->price_as_of : m->as_of;

    if (price && !src[0])
        snprintf(buf, n, "%s", "");
    else
        snprintf(buf, n, "%s (as of %s)", src[0] ? src : "unknown source",
                 as_of[0] ? as_of : "?");
    return buf;
}

static void fill_meta(const struct kind_def *kd, sqlite3_stmt *st,
                      struct catalog_meta *meta, int price_is_row)
{
    if (!meta)
        return;
    copy_col(kd, st, "source", meta->source, sizeof(meta->source));
    copy_col(kd, st, "as_of", meta->as_of, sizeof(meta->as_of));
    if (price_is_row) {
        copy_col(kd, st, "source", meta->price_source,
                 sizeof(meta->price_source));
        copy_col(kd, st, "as_of", meta->price_as_of, sizeof(meta->price_as_of));
    } else {
        copy_col(kd, st, "price_source", meta->price_source,
                 sizeof(meta->price_source));
        copy_col(kd, st, "price_as_of", meta->price_as_of,
                 sizeof(meta->price_as_of));
    }
}

/* A stored row passes the checks an import makes (types, bounds, ids):
 * a value planted with sqlite3 (hbm_gib = 1e300) is refused when it is
 * loaded, with its kind, id and column, instead of reaching the model. */
static enum cp_status check_stored(const struct kind_def *kd, sqlite3_stmt *st,
                                   struct diag *d)
{
    const unsigned char *id = sqlite3_column_text(st, 0);
    enum catalog_col_type t;
    enum cp_status rc;
    char buf[64];
    size_t i;
    int ct;

    for (i = 0; i < kd->ncols; i++) {
        t = kd->cols[i].type;
        ct = sqlite3_column_type(st, (int)i);
        if ((t == CATCOL_REAL || t == CATCOL_COUNT || t == CATCOL_BOOL) &&
            ct != SQLITE_NULL && ct != SQLITE_INTEGER && ct != SQLITE_FLOAT)
            rc = diag_set(d, CP_ERR_RANGE, kd->cols[i].name, "is not a number");
        else
            rc = catalog_check_cell(
                kd, i,
                catalog_col_text(&kd->cols[i], st, (int)i, buf, sizeof(buf)),
                d);
        if (rc) {
            char where[DIAG_WHERE_MAX];

            snprintf(where, sizeof(where), "catalog %s '%.60s'", kd->table,
                     id ? (const char *)id : "");
            diag_prefix(d, where);
            return rc;
        }
    }
    return CP_OK;
}

static enum cp_status get_row(struct catalog *cat, enum catalog_kind k,
                              const char *id, void *out, size_t size,
                              struct catalog_meta *meta, struct diag *d)
{
    const struct kind_def *kd = catalog_kind_def(k);
    struct strbuf sql = STRBUF_INIT;
    sqlite3_stmt *st = NULL;
    enum cp_status rc;
    int step;

    memset(out, 0, size);
    if (meta)
        memset(meta, 0, sizeof(*meta));
    strbuf_init(&sql, 0);
    select_sql(kd, "WHERE id = ?", &sql);
    rc = prepare(cat, sql.buf, &st, d);
    strbuf_release(&sql);
    if (rc)
        return rc;
    sqlite3_bind_text(st, 1, id ? id : "", -1, SQLITE_STATIC);
    step = catalog_step(st);
    if (step == SQLITE_ROW) {
        rc = check_stored(kd, st, d);
        if (!rc) {
            fill_struct(kd, st, out);
            fill_meta(kd, st, meta, 0);
        }
    } else if (step == SQLITE_DONE) {
        rc = diag_set(d, CP_ERR_NOT_FOUND, kd->table, "unknown id '%s'",
                      id ? id : "");
    } else {
        rc = catalog_db_error(cat, d, NULL, "cannot read catalog");
    }
    sqlite3_finalize(st);
    return rc;
}

enum cp_status catalog_get_accel(struct catalog *cat, const char *id,
                                 struct accel_spec *out,
                                 struct catalog_meta *meta, struct diag *d)
{
    return get_row(cat, CATALOG_ACCELERATORS, id, out, sizeof(*out), meta, d);
}

enum cp_status catalog_get_system(struct catalog *cat, const char *id,
                                  struct system_spec *out,
                                  struct catalog_meta *meta, struct diag *d)
{
    return get_row(cat, CATALOG_SYSTEMS, id, out, sizeof(*out), meta, d);
}

enum cp_status catalog_get_fabric(struct catalog *cat, const char *id,
                                  struct fabric_spec *out,
                                  struct catalog_meta *meta, struct diag *d)
{
    return get_row(cat, CATALOG_FABRICS, id, out, sizeof(*out), meta, d);
}

enum cp_status catalog_get_storage(struct catalog *cat, const char *id,
                                   struct storage_spec *out,
                                   struct catalog_meta *meta, struct diag *d)
{
    return get_row(cat, CATALOG_STORAGE, id, out, sizeof(*out), meta, d);
}

enum cp_status catalog_get_site(struct catalog *cat, const char *id,
                                struct site_spec *out,
                                struct catalog_meta *meta, struct diag *d)
{
    return get_row(cat, CATALOG_SITES, id, out, sizeof(*out), meta, d);
}

enum cp_status catalog_get_model(struct catalog *cat, const char *id,
                                 struct model_spec *out,
                                 struct catalog_meta *meta, struct diag *d)
{
    enum cp_status st =
        get_row(cat, CATALOG_MODELS, id, out, sizeof(*out), meta, d);

    if (!st && out->kv_heads == 0)
        out->kv_heads = out->heads; /* empty kv_heads: plain multi-head */
    return st;
}

enum cp_status catalog_get_stack(struct catalog *cat, const char *id,
                                 struct stack_spec *out,
                                 struct catalog_meta *meta, struct diag *d)
{
    return get_row(cat, CATALOG_STACKS, id, out, sizeof(*out), meta, d);
}

enum cp_status catalog_get_cloud(struct catalog *cat, const char *id,
                                 enum cloud_term term, struct cloud_offer *out,
                                 struct catalog_meta *meta, struct diag *d)
{
    const struct kind_def *kd = catalog_kind_def(CATALOG_CLOUD);
    int iterm = catalog_col_index(kd, "term");
    int iprice = catalog_col_index(kd, "usd_per_gpu_hour");
    struct strbuf sql = STRBUF_INIT;
    sqlite3_stmt *st = NULL;
    enum cp_status rc;
    int step, rows = 0, t;

    memset(out, 0, sizeof(*out));
    if (meta)
        memset(meta, 0, sizeof(*meta));
    strbuf_init(&sql, 0);
    select_sql(kd, "WHERE id = ? ORDER BY term", &sql);
    rc = prepare(cat, sql.buf, &st, d);
    strbuf_release(&sql);
    if (rc)
        return rc;
    sqlite3_bind_text(st, 1, id ? id : "", -1, SQLITE_STATIC);
    while ((step = catalog_step(st)) == SQLITE_ROW) {
        const unsigned char *tn = sqlite3_column_text(st, iterm);
        double price[TERM_COUNT];
        int mine = 0;

        memcpy(price, out->usd_per_gpu_hour, sizeof(price));
        for (t = 0; t < TERM_COUNT; t++) {
            if (tn && strcmp((const char *)tn, term_name(t)) == 0) {
                price[t] = sqlite3_column_double(st, iprice);
                mine = t == (int)term;
            }
        }
        rc = check_stored(kd, st, d);
        if (rc)
            break;
        if (rows == 0 || mine) {
            fill_struct(kd, st, out);
            if (mine || !meta)
                fill_meta(kd, st, meta, 1);
        }
        memcpy(out->usd_per_gpu_hour, price, sizeof(price));
        rows++;
    }
    /* rc set: a stored value out of range (d says which) */
    if (!rc && step != SQLITE_DONE)
        rc = catalog_db_error(cat, d, NULL, "cannot read catalog");
    else if (!rc && rows == 0)
        rc = diag_set(d, CP_ERR_NOT_FOUND, kd->table, "unknown id '%s'",
                      id ? id : "");
    sqlite3_finalize(st);
    return rc;
}

static enum cp_status first_id(struct catalog *cat, const char *sql,
                               const char *a, const char *b,
                               char out_id[CP_ID_MAX], struct diag *d)
{
    sqlite3_stmt *st = NULL;
    enum cp_status rc = prepare(cat, sql, &st, d);
    int step;

    if (rc)
        return rc;
    sqlite3_bind_text(st, 1, a ? a : "", -1, SQLITE_STATIC);
    if (b)
        sqlite3_bind_text(st, 2, b, -1, SQLITE_STATIC);
    step = catalog_step(st);
    if (step == SQLITE_ROW) {
        snprintf(out_id, CP_ID_MAX, "%s",
                 (const char *)sqlite3_column_text(st, 0));
    } else if (step == SQLITE_DONE) {
        rc = CP_ERR_NOT_FOUND;
    } else {
        rc = catalog_db_error(cat, d, NULL, "cannot read catalog");
    }
    sqlite3_finalize(st);
    return rc;
}

enum cp_status catalog_default_system(struct catalog *cat, const char *accel_id,
                                      char out_id[CP_ID_MAX], struct diag *d)
{
    enum cp_status st =
        first_id(cat,
                 "SELECT id FROM systems WHERE accel_id = ? "
                 "ORDER BY coalesce(preferred, 0) DESC, id LIMIT 1",
                 accel_id, NULL, out_id, d);

    if (st == CP_ERR_NOT_FOUND)
        return diag_set(d, st, "systems", "no system is built from '%s'",
                        accel_id ? accel_id : "");
    return st;
}

enum cp_status catalog_default_stack(struct catalog *cat, const char *vendor,
                                     enum workload_kind kind,
                                     char out_id[CP_ID_MAX], struct diag *d)
{
    enum cp_status st =
        first_id(cat,
                 "SELECT id FROM stacks WHERE kind = ?2 AND "
                 "instr(' ' || coalesce(default_on, '') || ' ', "
                 "' ' || ?1 || ' ') > 0 ORDER BY id LIMIT 1",
                 vendor, workload_name(kind), out_id, d);

    if (st == CP_ERR_NOT_FOUND)
        return diag_set(d, st, "stacks", "no %s stack is the default on %s",
                        workload_name(kind), vendor ? vendor : "");
    return st;
}

enum cp_status catalog_default_cloud(struct catalog *cat, const char *accel_id,
                                     enum cloud_term term,
                                     char out_id[CP_ID_MAX], struct diag *d)
{
    return catalog_default_cloud_for(cat, accel_id, term, 0, out_id, d);
}

enum cp_status catalog_default_cloud_for(struct catalog *cat,
                                         const char *accel_id,
                                         enum cloud_term term, uint64_t gpus,
                                         char out_id[CP_ID_MAX], struct diag *d)
{
    const char *tn = term_name(term);
    sqlite3_stmt *st = NULL;
    enum cp_status rc;
    int step;

    if (!tn)
        return diag_set(d, CP_ERR_RANGE, "cloud.term", "unknown term");
    /* The cheapest offer that can supply the job: an offer whose stated
     * capacity is below the GPU count is passed over (0 or NULL: not
     * known, taken as enough). */
    rc = prepare(cat,
                 "SELECT id FROM cloud WHERE accel_id = ? AND term = ? "
                 "AND (coalesce(capacity_gpus, 0) = 0 OR capacity_gpus >= ?) "
                 "ORDER BY usd_per_gpu_hour, id LIMIT 1",
                 &st, d);
    if (rc)
        return rc;
    sqlite3_bind_text(st, 1, accel_id ? accel_id : "", -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, tn, -1, SQLITE_STATIC);
    sqlite3_bind_int64(
        st, 3, gpus > (uint64_t)INT64_MAX ? INT64_MAX : (sqlite3_int64)gpus);
    step = catalog_step(st);
    if (step == SQLITE_ROW)
        snprintf(out_id, CP_ID_MAX, "%s",
                 (const char *)sqlite3_column_text(st, 0));
    else if (step == SQLITE_DONE)
        rc =
            diag_set(d, CP_ERR_NOT_FOUND, "cloud", "no %s cloud offer for '%s'",
                     tn, accel_id ? accel_id : "");
    else
        rc = catalog_db_error(cat, d, NULL, "cannot read catalog");
    sqlite3_finalize(st);
    return rc;
}

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
    select_sql(kd,
               id ? (kd->nkey > 1 ? "WHERE id = ? ORDER BY id, term"
                                  : "WHERE id = ? ORDER BY id")
                  : (kd->nkey > 1 ? "ORDER BY id, term" : "ORDER BY id"),
               &sql);
    rc = prepare(cat, sql.buf, &st, d);
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
    rc = prepare(cat, sql[k], &st, d);
    if (!rc) {
        sqlite3_bind_text(st, 1, id ? id : "", -1, SQLITE_STATIC);
        if (catalog_step(st) != SQLITE_DONE)
            rc = catalog_db_error(cat, d, NULL, "cannot delete");
        else if (sqlite3_changes(cat->db) == 0)
            rc = diag_set(d, CP_ERR_NOT_FOUND, catalog_kind_name(k),
                          "unknown id '%s'", id ? id : "");
    }
    sqlite3_finalize(st);
    if (rc) {
        catalog_rollback(cat);
        return rc;
    }
    rc = catalog_commit(cat, d);
    if (rc == CP_ERR_EXISTS)
        diag_set(d, rc, catalog_kind_name(k),
                 "'%s' is still used by a system or cloud offer", id);
    return rc;
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
    sqlite3_busy_timeout(cat->db, BUSY_TIMEOUT_MS);
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
    select_sql(kd, key_where(kd), &sql);
    rc = prepare(cat, sql.buf, &st, d);
    strbuf_release(&sql);
    if (rc)
        return rc;
    bind_key(st, kd, key);
    step = catalog_step(st);
    if (step == SQLITE_ROW) {
        for (i = 0; i < kd->ncols; i++)
            cells[i] = xstrdup(catalog_col_text(&kd->cols[i], st, (int)i, buf,
                                                sizeof(buf)));
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
    if (rc) {
        catalog_rollback(cat);
        return rc;
    }
    return catalog_commit(cat, d);
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
    rc = prepare(cat, sql.buf, &st, d);
    strbuf_release(&sql);
    if (!rc) {
        bind_key(st, kd, key);
        if (catalog_step(st) != SQLITE_DONE)
            rc = catalog_db_error(cat, d, NULL, "cannot delete");
        else if (sqlite3_changes(cat->db) == 0)
            rc = diag_set(d, CP_ERR_NOT_FOUND, kd->table, "unknown id '%s'",
                          key[0] ? key[0] : "");
    }
    sqlite3_finalize(st);
    if (rc) {
        catalog_rollback(cat);
        return rc;
    }
    rc = catalog_commit(cat, d);
    if (rc == CP_ERR_EXISTS)
        diag_set(d, rc, kd->table,
                 "'%s' is still used by a system or cloud offer", key[0]);
    return rc;
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
        if (exec1(cat, wipe[i]) != SQLITE_OK) {
            st = catalog_db_error(cat, d, NULL, "cannot reset");
            catalog_rollback(cat);
            return st;
        }
    }
    st = catalog_seed(cat, d);
    if (st) {
        catalog_rollback(cat);
        return st;
    }
    return catalog_commit(cat, d);
}

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
    rc = prepare(cat, sql, &st, d);
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
    if (rc) {
        catalog_rollback(cat);
        return rc;
    }
    return catalog_commit(cat, d);
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
    enum cp_status rc = prepare(cat, sql, &st, d);
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
    enum cp_status rc = prepare(
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
    rc = prepare(cat, "SELECT 1 FROM plans WHERE name = ?", &st, d);
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
        rc = prepare(cat,
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
    if (rc) {
        catalog_rollback(cat);
        return rc;
    }
    return catalog_commit(cat, d);
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
