/*
 * catalog_int.h - private to src/catalog: the per-kind tables behind
 * catalog_columns() and the helpers the catalog files share.
 *
 * Each kind's columns are one X-macro list in catalog_kinds.c.  It expands
 * twice: into the public struct catalog_column array (name, type, bounds,
 * help) and into a parallel struct col_map array saying where the value
 * goes in the kind's core struct (offsetof + a unit scale, e.g. TFLOP/s *
 * 1e12 -> FLOP/s) and what an empty cell means.  Both arrays come from the
 * same list, so they cannot drift apart.
 *
 * Never: SQL text built from input.  Table and column names used in SQL
 * come from these static tables only.
 */
#ifndef LLMPLAN_CATALOG_CATALOG_INT_H
#define LLMPLAN_CATALOG_CATALOG_INT_H

#include <sqlite3.h>
#include <stddef.h>

#include "catalog/catalog.h"

/* Where a column's value lands in the kind's struct. */
enum col_field {
    FT_NONE, /* not copied (provenance, notes, special cases) */
    FT_STR,  /* char[size] */
    FT_U64,  /* uint64_t = value * scale */
    FT_DBL,  /* double = value * scale */
    FT_BOOL, /* bool */
    FT_ENUM, /* int: index of the text in the column's choices */
};

enum col_pflags {
    PF_BRIEF = 1 << 0,      /* shown by `catalog list` in table format */
    PF_PRICE = 1 << 1,      /* a price: needs price_source and price_as_of */
    PF_PRICE_PROV = 1 << 2, /* price_source / price_as_of */
    PF_REF_ACCEL = 1 << 3,  /* must name an existing accelerator */
    PF_REF_FABRIC = 1 << 4, /* must name an existing fabric */
    PF_DEFAULT = 1 << 5,    /* an empty cell means dflt (else 0 / "") */
    PF_SOURCED = 1 << 6,    /* a published figure: needs its PF_SOURCE */
    PF_SOURCE = 1 << 7,     /* where the row's PF_SOURCED figures come from */
    PF_VENDORS = 1 << 8,    /* space-separated vendors of stored accelerators */
    PF_FLAG = 1 << 9,       /* a number that is 0 or 1: a fact, on or off */
};

struct col_map {
    enum col_field ft;
    size_t off;  /* offsetof in the kind's struct */
    size_t size; /* sizeof the member */
    double scale;
    double dflt;
    unsigned pflags;
};

struct kind_def {
    const char *table; /* SQL table name, = catalog_kind_name() */
    const struct catalog_column *cols;
    const struct col_map *map;
    size_t ncols;
    size_t nkey;           /* leading key columns (id, or id + term) */
    const char *data_path; /* embedded default CSV */
};

const struct kind_def *catalog_kind_def(enum catalog_kind k);

struct catalog {
    sqlite3 *db;
    char path[4096];
};

/* Column index by name, or -1. */
int catalog_col_index(const struct kind_def *kd, const char *name);

/* sqlite3_step with a bounded retry on SQLITE_BUSY/LOCKED (on top of the
 * busy timeout).  Returns the last sqlite result code. */
int catalog_step(sqlite3_stmt *st);

/* CP_ERR_DB with the sqlite message; where may be NULL. */
enum cp_status catalog_db_error(struct catalog *cat, struct diag *d,
                                const char *where, const char *what);

/* How long a connection waits on a lock before SQLITE_BUSY. */
#define CATALOG_BUSY_TIMEOUT_MS 5000

/* Run one static statement (no parameters, no rows wanted); returns the
 * sqlite result code. */
int catalog_exec1(struct catalog *cat, const char *sql);

/* "SELECT c1, ..., cn FROM table" + tail into sb; the names are static. */
struct strbuf;
void catalog_select_sql(const struct kind_def *kd, const char *tail,
                        struct strbuf *sb);

/* sqlite3_prepare_v2 of a static statement; *st is NULL on failure. */
enum cp_status catalog_prepare(struct catalog *cat, const char *sql,
                               sqlite3_stmt **st, struct diag *d);

/* BEGIN IMMEDIATE / COMMIT / ROLLBACK with retry. */
enum cp_status catalog_begin(struct catalog *cat, struct diag *d);
enum cp_status catalog_commit(struct catalog *cat, struct diag *d);
void catalog_rollback(struct catalog *cat);
/* The end of a transaction: COMMIT when st is CP_OK, else ROLLBACK and
 * return st (its diag already set). */
enum cp_status catalog_end(struct catalog *cat, enum cp_status st,
                           struct diag *d);

/* Format a stored column as text: numbers shortest round-trip in the C
 * locale, bools yes/no, NULL "".  buf must hold at least 64 bytes; text
 * columns are returned as a pointer into the statement (valid until the
 * next step). */
const char *catalog_col_text(const struct catalog_column *c, sqlite3_stmt *st,
                             int i, char *buf, size_t n);

/* Shortest "%.*g" (15..17 digits) that reads back as exactly v. */
void catalog_format_real(double v, char *buf, size_t n);

/* Validate cell i of kind kd; d->where is the column name and d->msg the
 * problem.  Empty cells of required columns are errors. */
enum cp_status catalog_check_cell(const struct kind_def *kd, size_t i,
                                  const char *v, struct diag *d);

/* Bind one validated text cell (NULL for empty) as parameter idx. */
enum cp_status catalog_bind_value(sqlite3_stmt *st, int idx,
                                  const struct catalog_column *c,
                                  const char *v);

/* Validate rows[nrows][ncols] (full column order) and write them in one
 * transaction.  lines[] gives each row's line for messages (NULL: none),
 * name the file.  Nothing is written when any row is bad. */
enum cp_status catalog_put_rows(struct catalog *cat, enum catalog_kind k,
                                const char *name, const char *const *cells,
                                const size_t *lines, size_t nrows, int in_txn,
                                struct diag *d);

/* Load the embedded default CSV of one kind (the caller holds a
 * transaction): a kind that a schema migration adds to an old catalog. */
enum cp_status catalog_seed_kind(struct catalog *cat, enum catalog_kind k,
                                 struct diag *d);

/* Load every embedded default CSV (the caller holds a transaction). */
enum cp_status catalog_seed(struct catalog *cat, struct diag *d);
/* Hex FNV-1a of the embedded default CSVs (16 chars + NUL). */
void catalog_defaults_fingerprint(char out[17]);

#endif
