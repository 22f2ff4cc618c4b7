/*
 * catalog.h - the SQLite catalog: hardware, sites, cloud offers, model
 * presets and saved plans.  The only module that includes <sqlite3.h>.
 *
 * Location: an explicit path (--catalog), else $LLMPLAN_CATALOG, else
 * $XDG_DATA_HOME/llmplan/catalog.db, else ~/.local/share/llmplan/catalog.db.
 * A missing database is created (directory 0700, file 0600) from the
 * default catalog embedded in the binary (data/<kind>.csv), through the same
 * validating import as `catalog import`.  Schema versions live in PRAGMA
 * user_version; older databases are migrated in one transaction each; a
 * newer or foreign/corrupt file is refused with CP_ERR_DB and left as it is.
 * WAL mode, a busy timeout with retry, foreign keys on, prepared statements
 * only, every write in one transaction.
 *
 * Each kind has a column table (struct catalog_column): the single source
 * for the SQL columns, CSV import/export headers, validation bounds, the
 * TUI's catalog view and the typed getters, which copy rows into the core
 * structs of core/spec.h by offset.  Every row carries `source` and
 * `as_of`.
 *
 * Ownership: struct catalog is opaque and owned by the caller of
 * catalog_open (free with catalog_close).  Strings handed to callbacks are
 * valid only during the callback.
 */
#ifndef LLMPLAN_CATALOG_CATALOG_H
#define LLMPLAN_CATALOG_CATALOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "core/diag.h"
#include "core/spec.h"

struct catalog;

#define CATALOG_KIND_LIST(X)                                                   \
    X(ACCELERATORS, "accelerators")                                            \
    X(SYSTEMS, "systems")                                                      \
    X(FABRICS, "fabrics")                                                      \
    X(STORAGE, "storage")                                                      \
    X(SITES, "sites")                                                          \
    X(CLOUD, "cloud")                                                          \
    X(MODELS, "models")                                                        \
    X(STACKS, "stacks")

enum catalog_kind {
#define CATALOG_KIND_ENUM(name, str) CATALOG_##name,
    CATALOG_KIND_LIST(CATALOG_KIND_ENUM)
#undef CATALOG_KIND_ENUM
        CATALOG_KIND_COUNT
};

const char *catalog_kind_name(enum catalog_kind k);
/* CP_ERR_NOT_FOUND (d names the kind) for anything but the kind names. */
enum cp_status catalog_kind_parse(const char *name, enum catalog_kind *out,
                                  struct diag *d);

enum catalog_col_type {
    CATCOL_TEXT,  /* free text */
    CATCOL_ID,    /* [a-z0-9.-]+, at most CP_ID_MAX-1 chars */
    CATCOL_REAL,  /* finite number within [min, max] */
    CATCOL_COUNT, /* whole number within [min, max] */
    CATCOL_BOOL,  /* yes/no (also true/false, 1/0) */
    CATCOL_DATE,  /* YYYY, YYYY-MM or YYYY-MM-DD */
    CATCOL_ENUM,  /* one of the |-separated words in `choices` */
};

enum catalog_col_flags {
    CATCOL_REQUIRED = 1 << 0, /* must not be empty on import */
    CATCOL_KEY = 1 << 1,      /* part of the primary key */
};

struct catalog_column {
    const char *name; /* SQL and CSV column name, unit in the name */
    enum catalog_col_type type;
    unsigned flags;
    double min, max;     /* REAL/COUNT bounds */
    const char *choices; /* ENUM: "on_demand|reserved_1y|..." */
    const char *help;    /* one line for --help, the TUI and the man page */
};

/* The columns of a kind, in CSV/SQL order; *n receives the count. */
const struct catalog_column *catalog_columns(enum catalog_kind k, size_t *n);
/* Whether column i of kind k belongs in a compact listing (`catalog list`
 * as a table, the TUI's catalog view); the others show with `show`. */
int catalog_column_brief(enum catalog_kind k, size_t i);

/* Where the catalog lives when no --catalog is given (see above). */
enum cp_status catalog_default_path(char *buf, size_t n, struct diag *d);

enum catalog_open_flags {
    CATALOG_OPEN_DEFAULT = 0,
    CATALOG_OPEN_READONLY = 1 << 0, /* do not create or migrate */
    /* Writing not needed (quote, list, export): create when missing, but
     * open a catalog whose file or directory is read-only (a team's shared
     * file) read-only instead of refusing it. */
    CATALOG_OPEN_READ = 1 << 1,
};

/* Open (creating and seeding when missing) the catalog at path; NULL or ""
 * means catalog_default_path().  ":memory:" gives a seeded in-memory
 * catalog for tests.  CP_ERR_DB / CP_ERR_IO with d saying why: not a
 * database, corrupt, newer schema, read-only when it must be created. */
enum cp_status catalog_open(const char *path, unsigned flags,
                            struct catalog **out /* OUT */, struct diag *d);
void catalog_close(struct catalog *cat);

/* Provenance of the row a getter read; prices may have their own. */
struct catalog_meta {
    char source[CP_TEXT_MAX];
    char as_of[CP_DATE_MAX];
    char price_source[CP_TEXT_MAX]; /* "" when the row has no price columns */
    char price_as_of[CP_DATE_MAX];
};

/* A row's provenance as every output writes it, "SOURCE (as of DATE)",
 * into buf: of the row, or of its price when price is set ("" when the
 * row has no price source).  A missing source reads "unknown source", a
 * missing date "?".  Returns buf. */
const char *catalog_meta_text(const struct catalog_meta *m, bool price,
                              char *buf, size_t n);

/* Typed getters: copy the row with this id into *out (fully overwritten).
 * CP_ERR_NOT_FOUND with d->where = kind and a message naming the id.
 * meta may be NULL. */
enum cp_status catalog_get_accel(struct catalog *cat, const char *id,
                                 struct accel_spec *out,
                                 struct catalog_meta *meta, struct diag *d);
enum cp_status catalog_get_system(struct catalog *cat, const char *id,
                                  struct system_spec *out,
                                  struct catalog_meta *meta, struct diag *d);
enum cp_status catalog_get_fabric(struct catalog *cat, const char *id,
                                  struct fabric_spec *out,
                                  struct catalog_meta *meta, struct diag *d);
enum cp_status catalog_get_storage(struct catalog *cat, const char *id,
                                   struct storage_spec *out,
                                   struct catalog_meta *meta, struct diag *d);
enum cp_status catalog_get_site(struct catalog *cat, const char *id,
                                struct site_spec *out,
                                struct catalog_meta *meta, struct diag *d);
enum cp_status catalog_get_model(struct catalog *cat, const char *id,
                                 struct model_spec *out,
                                 struct catalog_meta *meta, struct diag *d);
enum cp_status catalog_get_stack(struct catalog *cat, const char *id,
                                 struct stack_spec *out,
                                 struct catalog_meta *meta, struct diag *d);
/* A cloud offer with all its terms (terms not offered are 0); meta is the
 * provenance of the given term's row. */
enum cp_status catalog_get_cloud(struct catalog *cat, const char *id,
                                 enum cloud_term term, struct cloud_offer *out,
                                 struct catalog_meta *meta, struct diag *d);

/* Defaults for a plan that names only an accelerator: the first system
 * built from it (by id), and the cheapest offer for it at this term.
 * CP_ERR_NOT_FOUND when there is none; out_id receives the id. */
/* The stack of `kind` whose default_on lists `vendor` (an accelerator's
 * vendor): the accelerator's own stack.  CP_ERR_NOT_FOUND when none. */
enum cp_status catalog_default_stack(struct catalog *cat, const char *vendor,
                                     enum workload_kind kind,
                                     char out_id[CP_ID_MAX], struct diag *d);
enum cp_status catalog_default_system(struct catalog *cat, const char *accel_id,
                                      char out_id[CP_ID_MAX], struct diag *d);
enum cp_status catalog_default_cloud(struct catalog *cat, const char *accel_id,
                                     enum cloud_term term,
                                     char out_id[CP_ID_MAX], struct diag *d);
/* The same, passing over offers whose capacity_gpus is known and below
 * gpus (0: no limit asked). */
enum cp_status catalog_default_cloud_for(struct catalog *cat,
                                         const char *accel_id,
                                         enum cloud_term term, uint64_t gpus,
                                         char out_id[CP_ID_MAX],
                                         struct diag *d);

/* Rows as text, in column order, ordered by the key; for list, show,
 * export and the TUI.  id == NULL visits every row; an id without rows is
 * CP_ERR_NOT_FOUND.  Stops early and returns the callback's status when it
 * is not CP_OK.  Numbers are the shortest text that reads back exactly (C
 * locale), booleans yes/no, empty cells "". */
typedef enum cp_status (*catalog_row_fn)(void *ctx, const char *const *values,
                                         size_t n);
enum cp_status catalog_foreach(struct catalog *cat, enum catalog_kind k,
                               const char *id, catalog_row_fn fn, void *ctx,
                               struct diag *d);

/* Insert or replace one row given as text in column order, validated like
 * an import row (d names the column). */
enum cp_status catalog_row_put(struct catalog *cat, enum catalog_kind k,
                               const char *const *values, size_t n,
                               struct diag *d);
/* Delete the rows with this id (all terms for cloud).  CP_ERR_NOT_FOUND
 * when there is none. */
enum cp_status catalog_row_delete(struct catalog *cat, enum catalog_kind k,
                                  const char *id, struct diag *d);

/* One cell of a row edit: column col gets value; when expect is not NULL
 * the stored cell must still read as expect (the text catalog_foreach
 * gave), else nothing is written. */
struct catalog_cell_edit {
    size_t col;
    const char *expect; /* NULL: not checked */
    const char *value;
};

/* Change some cells of the one row whose key cells (id, and term for
 * cloud: the first nkey columns) are key, leaving every other column as it
 * is stored now: in one transaction the row is read again, the expected
 * cells compared, the row validated like an import row with the new
 * values, and written.  So an edit never undoes another writer's change to
 * other columns.  Key columns cannot be edited (CP_ERR_USAGE).
 * CP_ERR_NOT_FOUND when the row is gone; CP_ERR_CONFLICT (d names the
 * column and its stored value) when an expected cell differs; CP_ERR_BUSY
 * when another writer holds the catalog for longer than wait_ms (the
 * caller may say so and try again); validation errors as catalog_row_put. */
enum cp_status catalog_row_update(struct catalog *cat, enum catalog_kind k,
                                  const char *const *key,
                                  const struct catalog_cell_edit *edits,
                                  size_t nedits, int wait_ms, struct diag *d);
/* Delete the one row whose key cells are key (id, and term for cloud,
 * where catalog_row_delete removes every term).  CP_ERR_NOT_FOUND when
 * there is none; CP_ERR_BUSY as catalog_row_update. */
enum cp_status catalog_row_delete_key(struct catalog *cat, enum catalog_kind k,
                                      const char *const *key, int wait_ms,
                                      struct diag *d);

/* Import a CSV (RFC 4180, header row naming the columns in any order;
 * missing optional columns are empty).  Every row is validated first; any
 * bad row imports nothing and d says "file:line: column: problem" (where =
 * "file:line: column", msg = problem).  Rows replace rows with the same
 * key; all in one transaction.  A file that cannot be read is
 * CP_ERR_NOT_FOUND; bad content CP_ERR_PARSE/RANGE/NOT_FOUND/EXISTS. */
enum cp_status catalog_import_csv(struct catalog *cat, enum catalog_kind k,
                                  const char *path, struct diag *d);
/* The same from memory; name is used in messages. */
enum cp_status catalog_import_buffer(struct catalog *cat, enum catalog_kind k,
                                     const char *name, const char *data,
                                     size_t len, struct diag *d);
/* Write every row of kind k as CSV (the columns import accepts), so an
 * export re-imports unchanged. */
enum cp_status catalog_export_csv(struct catalog *cat, enum catalog_kind k,
                                  FILE *out, struct diag *d);

/* Drop every kind's rows and reload the embedded default (saved plans and
 * settings are kept). */
enum cp_status catalog_reset(struct catalog *cat, struct diag *d);

/* True when the catalog was seeded from other built-in defaults than this
 * binary's (an upgrade brought new prices or calibration): `catalog reset`
 * updates it and keeps plans and settings.  Also true for catalogs that
 * predate the record. */
bool catalog_defaults_outdated(struct catalog *cat);

/* Saved plans: name -> INI text.  Names are ids ([a-z0-9._-]). */
enum cp_status catalog_plan_save(struct catalog *cat, const char *name,
                                 const char *ini_text, struct diag *d);
/* *text_out is malloc'd; the caller frees it. */
enum cp_status catalog_plan_load(struct catalog *cat, const char *name,
                                 char **text_out /* OUT */, struct diag *d);
typedef enum cp_status (*catalog_plan_fn)(void *ctx, const char *name,
                                          const char *updated_at);
enum cp_status catalog_plan_list(struct catalog *cat, catalog_plan_fn fn,
                                 void *ctx, struct diag *d);
enum cp_status catalog_plan_delete(struct catalog *cat, const char *name,
                                   struct diag *d);
enum cp_status catalog_plan_rename(struct catalog *cat, const char *from,
                                   const char *to, struct diag *d);

/* Small key/value settings (TUI: last plan, theme).  *value_out is
 * malloc'd; CP_ERR_NOT_FOUND when unset. */
enum cp_status catalog_setting_get(struct catalog *cat, const char *key,
                                   char **value_out /* OUT */, struct diag *d);
enum cp_status catalog_setting_put(struct catalog *cat, const char *key,
                                   const char *value, struct diag *d);

#endif
