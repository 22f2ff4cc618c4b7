/*
 * catalog_get.c - the typed getters: a row by id into its core struct
 * (checked against the column bounds), its provenance (catalog_meta), and
 * the default system, stack and cloud offer for an accelerator.
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
    catalog_select_sql(kd, "WHERE id = ?", &sql);
    rc = catalog_prepare(cat, sql.buf, &st, d);
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
    catalog_select_sql(kd, "WHERE id = ? ORDER BY term", &sql);
    rc = catalog_prepare(cat, sql.buf, &st, d);
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
    enum cp_status rc = catalog_prepare(cat, sql, &st, d);
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
    rc = catalog_prepare(
        cat,
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
