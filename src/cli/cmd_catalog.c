/*
 * cmd_catalog.c - `llmplan catalog list|show|import|export|reset`.
 *
 *   catalog list KIND [--format table|csv|json] [--output FILE]
 *   catalog show KIND ID [--format table|csv|json] [--output FILE]
 *   catalog import KIND FILE.csv
 *   catalog export KIND [FILE.csv]
 *   catalog reset
 *
 * Output is built in memory and written only when the command succeeds,
 * so a failing command prints nothing on stdout and leaves --output
 * alone; files are replaced atomically.  `list --format csv` and `export`
 * print the same columns `import` accepts.  JSON is an array of objects
 * with typed values (numbers, true/false, null for empty cells); `show`
 * prints one object, or an array for cloud offers (one row per term).
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "cli/cli.h"
#include "util/csvio.h"
#include "util/fs.h"
#include "util/number.h"
#include "util/xalloc.h"

#define CELL_MAX 40 /* table cells longer than this are cut */

static const char usage[] =
    "usage: llmplan catalog list KIND [--format table|csv|json] "
    "[--output FILE]\n"
    "       llmplan catalog show KIND ID [--format table|csv|json] "
    "[--output FILE]\n"
    "       llmplan catalog import KIND FILE.csv\n"
    "       llmplan catalog export KIND [FILE.csv]\n"
    "       llmplan catalog reset\n"
    "KIND: accelerators, systems, fabrics, storage, sites, cloud, models, "
    "stacks\n"
    "exit status: 0 ok, 1 catalog or I/O failure, 2 usage or invalid input\n";

enum fmt { FMT_TABLE, FMT_CSV, FMT_JSON };

struct opts {
    enum fmt fmt;
    const char *output;
    const char *pos[4];
    int npos;
};

static int usage_error(const char *where, const char *what)
{
    struct diag d;

    diag_set(&d, CP_ERR_USAGE, where, "%s", what);
    return cli_error(CP_ERR_USAGE, &d);
}

static int parse_opts(int argc, char **argv, struct opts *o)
{
    int i;

    memset(o, 0, sizeof(*o));
    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *val = NULL;

        if (strcmp(a, "--format") == 0 || strcmp(a, "--output") == 0 ||
            strcmp(a, "-o") == 0) {
            if (i + 1 >= argc)
                return usage_error(a, "needs a value");
            val = argv[++i];
        } else if (strncmp(a, "--format=", 9) == 0 ||
                   strncmp(a, "--output=", 9) == 0) {
            val = a + 9;
        } else if (a[0] == '-' && a[1] != '\0') {
            return usage_error(a, "unknown option");
        } else {
            if (o->npos >= 4)
                return usage_error("catalog", "too many arguments");
            o->pos[o->npos++] = a;
            continue;
        }
        if (a[2] == 'f') {
            if (strcmp(val, "table") == 0)
                o->fmt = FMT_TABLE;
            else if (strcmp(val, "csv") == 0)
                o->fmt = FMT_CSV;
            else if (strcmp(val, "json") == 0)
                o->fmt = FMT_JSON;
            else
                return usage_error("--format", "must be table, csv or json");
        } else {
            if (!*val)
                return usage_error("--output", "needs a file name");
            o->output = val;
        }
    }
    return 0;
}

/* ---- collecting rows ------------------------------------------------- */

struct rows {
    size_t ncols, nrows, alloc;
    char **cells; /* nrows * ncols, owned */
};

static enum cp_status collect(void *ctx, const char *const *v, size_t n)
{
    struct rows *r = ctx;
    size_t i;

    if (r->nrows == r->alloc) {
        r->alloc = r->alloc ? r->alloc * 2 : 32;
        r->cells = xrealloc(r->cells, r->alloc * n * sizeof(char *));
    }
    r->ncols = n;
    for (i = 0; i < n; i++)
        r->cells[r->nrows * n + i] = xstrdup(v[i]);
    r->nrows++;
    return CP_OK;
}

static void rows_release(struct rows *r)
{
    size_t i;

    for (i = 0; i < r->nrows * r->ncols; i++)
        free(r->cells[i]);
    free(r->cells);
    memset(r, 0, sizeof(*r));
}

/* ---- formats --------------------------------------------------------- */

static int numeric(enum catalog_col_type t)
{
    return t == CATCOL_REAL || t == CATCOL_COUNT;
}

/* Compact table of the brief columns: one line per row. */
static void print_table(FILE *out, enum catalog_kind k, const struct rows *r)
{
    size_t ncols, i, j, w[64], n;
    const struct catalog_column *cols = catalog_columns(k, &ncols);

    for (i = 0; i < ncols && i < 64; i++) {
        w[i] = strlen(cols[i].name);
        for (j = 0; j < r->nrows; j++) {
            n = strlen(r->cells[j * r->ncols + i]);
            if (n > CELL_MAX)
                n = CELL_MAX;
            if (n > w[i])
                w[i] = n;
        }
    }
    for (j = 0; j <= r->nrows; j++) {
        int first = 1;

        for (i = 0; i < ncols && i < 64; i++) {
            const char *v = j ? r->cells[(j - 1) * r->ncols + i] : cols[i].name;
            int cut = strlen(v) > CELL_MAX;

            if (!catalog_column_brief(k, i))
                continue;
            if (!first)
                fputs("  ", out);
            first = 0;
            if (cut)
                fprintf(out, "%.*s...%*s", CELL_MAX - 3, v,
                        (int)(w[i] - CELL_MAX), "");
            else if (j && numeric(cols[i].type))
                fprintf(out, "%*s", (int)w[i], v);
            else
                fprintf(out, "%-*s", (int)w[i], v);
        }
        fputc('\n', out);
    }
}

/* Every column, one "name  value" line each; rows separated by a blank. */
static void print_vertical(FILE *out, enum catalog_kind k, const struct rows *r)
{
    size_t ncols, i, j, w = 0;
    const struct catalog_column *cols = catalog_columns(k, &ncols);

    for (i = 0; i < ncols; i++)
        if (strlen(cols[i].name) > w)
            w = strlen(cols[i].name);
    for (j = 0; j < r->nrows; j++) {
        if (j)
            fputc('\n', out);
        for (i = 0; i < ncols; i++)
            fprintf(out, "%-*s  %s\n", (int)w, cols[i].name,
                    r->cells[j * r->ncols + i]);
    }
}

static void print_csv(FILE *out, enum catalog_kind k, const struct rows *r)
{
    size_t ncols, i, j;
    const struct catalog_column *cols = catalog_columns(k, &ncols);
    const char *names[64];

    for (i = 0; i < ncols && i < 64; i++)
        names[i] = cols[i].name;
    csvio_write_row(out, names, i);
    for (j = 0; j < r->nrows; j++)
        csvio_write_row(out, (const char *const *)(r->cells + j * r->ncols),
                        r->ncols);
}

static json_t *json_row(const struct catalog_column *cols, size_t ncols,
                        char *const *v)
{
    json_t *o = json_object();
    size_t i;

    for (i = 0; i < ncols; i++) {
        json_t *x = NULL;
        double d;
        uint64_t u;

        if (!v[i][0])
            x = json_null();
        else if (cols[i].type == CATCOL_REAL && number_parse(v[i], 0, &d) == 0)
            x = json_real(d);
        else if (cols[i].type == CATCOL_COUNT &&
                 number_parse_count(v[i], &u) == 0)
            x = json_integer((json_int_t)u);
        else if (cols[i].type == CATCOL_BOOL)
            x = json_boolean(strcmp(v[i], "yes") == 0);
        else
            x = json_string(v[i]);
        if (!x)
            x = json_string("?"); /* not UTF-8: never stored by import */
        json_object_set_new(o, cols[i].name, x);
    }
    return o;
}

static int print_json(FILE *out, enum catalog_kind k, const struct rows *r,
                      int single)
{
    size_t ncols, j;
    const struct catalog_column *cols = catalog_columns(k, &ncols);
    json_t *doc;
    int rc;

    if (single) {
        doc = json_row(cols, ncols, r->cells);
    } else {
        doc = json_array();
        for (j = 0; j < r->nrows; j++)
            json_array_append_new(
                doc, json_row(cols, ncols, r->cells + j * r->ncols));
    }
    rc = json_dumpf(doc, out,
                    JSON_INDENT(2) | JSON_PRESERVE_ORDER |
                        JSON_REAL_PRECISION(15));
    fputc('\n', out);
    json_decref(doc);
    return rc;
}

/* ---- output ---------------------------------------------------------- */

/* Write buf to path atomically, or to stdout. */
static int deliver(const char *path, const char *buf, size_t len, int mode)
{
    struct atomic_file af;
    struct diag d;
    enum cp_status st;

    diag_clear(&d);
    if (!path) {
        if (fwrite(buf, 1, len, stdout) == len && fflush(stdout) == 0)
            return 0;
        diag_set(&d, CP_ERR_IO, "stdout", "cannot write");
        return cli_error(CP_ERR_IO, &d);
    }
    st = atomic_file_open(&af, path, mode, &d);
    if (st)
        return cli_error(st, &d);
    if (fwrite(buf, 1, len, af.fp) != len) {
        atomic_file_abort(&af);
        diag_set(&d, CP_ERR_IO, path, "cannot write file");
        return cli_error(CP_ERR_IO, &d);
    }
    st = atomic_file_commit(&af, &d);
    return st ? cli_error(st, &d) : 0;
}

static int open_catalog(const struct global_opts *g, struct catalog **cat)
{
    struct diag d;
    enum cp_status st;

    diag_clear(&d);
    st =
        catalog_open(g ? g->catalog_path : NULL, CATALOG_OPEN_DEFAULT, cat, &d);
    return st ? cli_error(st, &d) : 0;
}

static int parse_kind(const char *name, enum catalog_kind *k)
{
    struct diag d;
    enum cp_status st;

    diag_clear(&d);
    st = catalog_kind_parse(name, k, &d);
    return st ? cli_error(st, &d) : 0;
}

/* list and show. */
static int run_view(const struct global_opts *g, const struct opts *o, int show)
{
    enum catalog_kind k;
    struct catalog *cat = NULL;
    struct rows r = {0};
    struct diag d;
    enum cp_status st;
    char *buf = NULL;
    size_t len = 0;
    FILE *mem;
    int rc;

    if (o->npos != (show ? 3 : 2))
        return usage_error("catalog", show ? "usage: catalog show KIND ID"
                                           : "usage: catalog list KIND");
    rc = parse_kind(o->pos[1], &k);
    if (!rc)
        rc = open_catalog(g, &cat);
    if (rc)
        return rc;
    diag_clear(&d);
    st = catalog_foreach(cat, k, show ? o->pos[2] : NULL, collect, &r, &d);
    catalog_close(cat);
    if (st) {
        rows_release(&r);
        return cli_error(st, &d);
    }
    mem = open_memstream(&buf, &len);
    if (!mem) {
        rows_release(&r);
        return cli_error(CP_ERR_NOMEM, NULL);
    }
    rc = 0;
    if (o->fmt == FMT_CSV)
        print_csv(mem, k, &r);
    else if (o->fmt == FMT_JSON)
        rc = print_json(mem, k, &r, show && k != CATALOG_CLOUD);
    else if (show)
        print_vertical(mem, k, &r);
    else
        print_table(mem, k, &r);
    rows_release(&r);
    if (fclose(mem) != 0 || rc != 0) {
        free(buf);
        return cli_error(CP_ERR_NOMEM, NULL);
    }
    rc = deliver(o->output, buf, len, 0644);
    free(buf);
    return rc;
}

static int run_import(const struct global_opts *g, const struct opts *o)
{
    enum catalog_kind k;
    struct catalog *cat = NULL;
    struct diag d;
    enum cp_status st;
    int rc;

    if (o->npos != 3 || o->output)
        return usage_error("catalog", "usage: catalog import KIND FILE.csv");
    rc = parse_kind(o->pos[1], &k);
    if (!rc)
        rc = open_catalog(g, &cat);
    if (rc)
        return rc;
    diag_clear(&d);
    st = catalog_import_csv(cat, k, o->pos[2], &d);
    catalog_close(cat);
    if (st)
        return cli_error(st, &d);
    printf("imported %s into %s\n", o->pos[2], catalog_kind_name(k));
    return 0;
}

static int run_export(const struct global_opts *g, const struct opts *o)
{
    enum catalog_kind k;
    struct catalog *cat = NULL;
    struct diag d;
    enum cp_status st;
    const char *path;
    char *buf = NULL;
    size_t len = 0;
    FILE *mem;
    int rc;

    if (o->npos < 2 || o->npos > 3 || (o->npos == 3 && o->output))
        return usage_error("catalog", "usage: catalog export KIND [FILE.csv]");
    path = o->npos == 3 ? o->pos[2] : o->output;
    rc = parse_kind(o->pos[1], &k);
    if (!rc)
        rc = open_catalog(g, &cat);
    if (rc)
        return rc;
    mem = open_memstream(&buf, &len);
    if (!mem) {
        catalog_close(cat);
        return cli_error(CP_ERR_NOMEM, NULL);
    }
    diag_clear(&d);
    st = catalog_export_csv(cat, k, mem, &d);
    catalog_close(cat);
    if (fclose(mem) != 0 && !st)
        st = diag_set(&d, CP_ERR_NOMEM, "export", "out of memory");
    if (st) {
        free(buf);
        return cli_error(st, &d);
    }
    rc = deliver(path, buf, len, 0644);
    free(buf);
    return rc;
}

static int run_reset(const struct global_opts *g, const struct opts *o)
{
    struct catalog *cat = NULL;
    struct diag d;
    enum cp_status st;
    int rc;

    if (o->npos != 1 || o->output)
        return usage_error("catalog", "usage: catalog reset");
    rc = open_catalog(g, &cat);
    if (rc)
        return rc;
    diag_clear(&d);
    st = catalog_reset(cat, &d);
    catalog_close(cat);
    if (st)
        return cli_error(st, &d);
    printf("catalog reset to the built-in default (plans and settings "
           "kept)\n");
    return 0;
}

int cmd_catalog(const struct global_opts *g, int argc, char **argv)
{
    struct opts o;
    int i, rc;

    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(usage, stdout);
            return 0;
        }
    }
    rc = parse_opts(argc, argv, &o);
    if (rc)
        return rc;
    if (o.npos == 0) {
        fputs(usage, stderr);
        return 2;
    }
    if (strcmp(o.pos[0], "list") == 0)
        return run_view(g, &o, 0);
    if (strcmp(o.pos[0], "show") == 0)
        return run_view(g, &o, 1);
    if (strcmp(o.pos[0], "import") == 0)
        return run_import(g, &o);
    if (strcmp(o.pos[0], "export") == 0)
        return run_export(g, &o);
    if (strcmp(o.pos[0], "reset") == 0)
        return run_reset(g, &o);
    return usage_error(o.pos[0], "unknown catalog command (list, show, "
                                 "import, export, reset)");
}
