/*
 * catalog.c - opening (create, check, migrate, seed), transactions and
 * the statement helpers the catalog files share.  The typed getters are in
 * catalog_get.c, rows as text in catalog_rows.c, saved plans and settings
 * in catalog_plans.c, CSV import and export in catalog_csv.c.
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
    {"src/catalog/schema/0010_moe_gemm.sql", "PRAGMA user_version = 10"},
    {"src/catalog/schema/0011_dp_flat.sql", "PRAGMA user_version = 11"},
    {"src/catalog/schema/0012_allreduce.sql", "PRAGMA user_version = 12"},
    {"src/catalog/schema/0013_tp_bwd_exposed.sql", "PRAGMA user_version = 13"},
    {"src/catalog/schema/0014_host_link.sql", "PRAGMA user_version = 14"},
    {"src/catalog/schema/0015_grace_host.sql", "PRAGMA user_version = 15"},
    {"src/catalog/schema/0016_ckpt_early_stop.sql", "PRAGMA user_version = 16"},
    {"src/catalog/schema/0017_expert_extras.sql", "PRAGMA user_version = 17"},
    {"src/catalog/schema/0018_pp_overlap.sql", "PRAGMA user_version = 18"},
    {"src/catalog/schema/0019_zero3_scale.sql", "PRAGMA user_version = 19"},
    {"src/catalog/schema/0020_cast_kernel.sql", "PRAGMA user_version = 20"},
    {"src/catalog/schema/0021_rocm_kernels.sql", "PRAGMA user_version = 21"},
    {"src/catalog/schema/0022_torchtitan_sac.sql", "PRAGMA user_version = 22"},
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

int catalog_exec1(struct catalog *cat, const char *sql)
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
    if (catalog_exec1(cat, "BEGIN IMMEDIATE") != SQLITE_OK)
        return catalog_db_error(cat, d, NULL, "cannot start a transaction");
    return CP_OK;
}

enum cp_status catalog_commit(struct catalog *cat, struct diag *d)
{
    int rc = catalog_exec1(cat, "COMMIT");

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
        catalog_exec1(cat, "ROLLBACK");
}

enum cp_status catalog_end(struct catalog *cat, enum cp_status st,
                           struct diag *d)
{
    if (!st)
        return catalog_commit(cat, d);
    catalog_rollback(cat);
    return st;
}

void catalog_select_sql(const struct kind_def *kd, const char *tail,
                        struct strbuf *sb)
{
    size_t i;

    strbuf_addstr(sb, "SELECT ");
    for (i = 0; i < kd->ncols; i++)
        strbuf_addf(sb, "%s%s", i ? ", " : "", kd->cols[i].name);
    strbuf_addf(sb, " FROM %s %s", kd->table, tail);
}

enum cp_status catalog_prepare(struct catalog *cat, const char *sql,
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
    if (catalog_exec1(cat, migrations[SCHEMA_VERSION - 1].set_version) !=
            SQLITE_OK ||
        catalog_exec1(cat, "PRAGMA application_id = 1819045232") != SQLITE_OK) {
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
    sqlite3_busy_timeout(cat->db, CATALOG_BUSY_TIMEOUT_MS);
    sqlite3_extended_result_codes(cat->db, 1);
    return CP_OK;
}

/* A fresh schema and the whole default catalog, in two transactions on a
 * connection nobody else sees yet. */
static enum cp_status build(struct catalog *cat, struct diag *d)
{
    enum cp_status st;

    catalog_exec1(cat, "PRAGMA foreign_keys = ON");
    st = migrate(cat, 0, d);
    if (st)
        return st;
    st = catalog_begin(cat, d);
    if (st)
        return st;
    return catalog_end(cat, catalog_seed(cat, d), d);
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
        catalog_exec1(&tmp, "PRAGMA journal_mode = WAL");
        catalog_exec1(&tmp, "PRAGMA synchronous = NORMAL");
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
    if (catalog_exec1(cat, "PRAGMA foreign_keys = ON") != SQLITE_OK)
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
    catalog_exec1(cat, "PRAGMA journal_mode = WAL");
    catalog_exec1(cat, "PRAGMA synchronous = NORMAL");
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
