/*
 * cmd_catalog.c - `llmplan catalog list|show|import|export|reset`.
 *
 *   catalog list KIND [--format table|csv|json] [--output FILE]
 *   catalog show KIND ID [--format table|csv|json] [--output FILE]
 *   catalog import KIND FILE.csv
 *   catalog import models --hf config.json [--id ID]
 *   catalog export KIND [FILE.csv]
 *   catalog reset
 *
 * Output is streamed row by row into a temporary file and delivered only
 * when the command succeeds, so a failing command prints nothing on stdout
 * and leaves --output alone, and a catalog of a million rows needs no more
 * memory than one of ten.  `list --format csv` and `export`
 * print the same columns `import` accepts.  JSON is an array of objects
 * with typed values (numbers, true/false, null for empty cells); `show`
 * prints one object, or an array for cloud offers (one row per term).
 */
#include <assert.h>
#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/stat.h>
#include <time.h>

#include "catalog/catalog.h"
#include "cli/cli.h"
#include "plan/hfconfig.h"
#include "util/csvio.h"
#include "util/fs.h"
#include "util/number.h"
#include "util/strbuf.h"
#include "util/termsafe.h"
#include "util/xalloc.h"

#define CELL_MAX 40 /* table cells longer than this are cut */

static const char usage[] =
    "usage: llmplan catalog list KIND [--format table|csv|json] "
    "[--output FILE]\n"
    "       llmplan catalog show KIND ID [--format table|csv|json] "
    "[--output FILE]\n"
    "       llmplan catalog import KIND FILE.csv\n"
    "       llmplan catalog import models --hf config.json [--id ID]\n"
    "       llmplan catalog export KIND [FILE.csv]\n"
    "       llmplan catalog reset\n"
    "KIND: accelerators, systems, fabrics, storage, sites, cloud, models, "
    "stacks\n"
    "exit status: 0 ok, 1 catalog or I/O failure, 2 usage or invalid input\n";

enum fmt { FMT_TABLE, FMT_CSV, FMT_JSON };

struct opts {
    enum fmt fmt;
    const char *output;
    const char *hf; /* import models --hf: a Hugging Face config.json */
    const char *id; /* import models --hf: the row's id */
    const char *pos[4];
    int npos;
};

static int parse_opts(int argc, char **argv, struct opts *o)
{
    int i;

    memset(o, 0, sizeof(*o));
    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *val = NULL;

        if (strcmp(a, "--hf") == 0 || strcmp(a, "--id") == 0) {
            if (i + 1 >= argc || !argv[i + 1][0])
                return cli_usage_error(a, "needs a value");
            if (a[2] == 'h')
                o->hf = argv[++i];
            else
                o->id = argv[++i];
            continue;
        }
        if (strcmp(a, "--format") == 0 || strcmp(a, "--output") == 0 ||
            strcmp(a, "-o") == 0) {
            if (i + 1 >= argc)
                return cli_usage_error(a, "needs a value");
            val = argv[++i];
        } else if (strncmp(a, "--format=", 9) == 0 ||
                   strncmp(a, "--output=", 9) == 0) {
            val = a + 9;
        } else if (a[0] == '-' && a[1] != '\0') {
            return cli_usage_error(a, "unknown option");
        } else {
            if (o->npos >= 4)
                return cli_usage_error("catalog", "too many arguments");
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
                return cli_usage_error("--format",
                                       "must be table, csv or json");
        } else {
            if (!*val)
                return cli_usage_error("--output", "needs a file name");
            o->output = val;
        }
    }
    return 0;
}

/* ---- output: streamed, delivered only on success ------------------------
 *
 * Rows are written as catalog_foreach reads them, so memory stays one row
 * whatever the size of the catalog.  --output goes through atomic_file (a
 * temporary renamed at the end); stdout gets a temporary file copied out at
 * the end, so a command that fails prints nothing. */

struct sink {
    FILE *fp;
    struct atomic_file af;
    const char *path; /* NULL: stdout */
    int in_memory;    /* stdout without a temporary file: memory */
    char *mem;
    size_t memlen;
};

static enum cp_status sink_open(struct sink *s, const char *path,
                                struct diag *d)
{
    s->path = path;
    s->fp = NULL;
    s->mem = NULL; /* sink_abort frees it: set before any return */
    s->memlen = 0;
    s->in_memory = 0;
    if (path) {
        enum cp_status st = atomic_file_open(&s->af, path, 0644, d);

        if (!st)
            s->fp = s->af.fp;
        return st;
    }
    s->fp = tmpfile();
    if (!s->fp) { /* no writable /tmp: hold it in memory instead */
        s->fp = open_memstream(&s->mem, &s->memlen);
        s->in_memory = 1;
    }
    if (!s->fp)
        return diag_set(d, CP_ERR_NOMEM, "stdout", "cannot buffer output");
    return CP_OK;
}

static void sink_abort(struct sink *s)
{
    if (s->path)
        atomic_file_abort(&s->af);
    else if (s->fp)
        fclose(s->fp);
    s->fp = NULL;
    free(s->mem);
    s->mem = NULL;
}

static enum cp_status sink_commit(struct sink *s, struct diag *d)
{
    char buf[65536];
    size_t n;
    int bad;

    if (s->path)
        return atomic_file_commit(&s->af, d);
    if (s->in_memory) {
        bad = fclose(s->fp) != 0;
        s->fp = NULL;
        bad = bad || fwrite(s->mem, 1, s->memlen, stdout) != s->memlen ||
              fflush(stdout) != 0;
        free(s->mem);
        s->mem = NULL;
    } else {
        bad = fflush(s->fp) != 0 || ferror(s->fp) || fseek(s->fp, 0, SEEK_SET);
        while (!bad && (n = fread(buf, 1, sizeof(buf), s->fp)) > 0)
            bad = fwrite(buf, 1, n, stdout) != n;
        bad = bad || ferror(s->fp) || fflush(stdout) != 0;
        fclose(s->fp);
        s->fp = NULL;
    }
    if (bad)
        return diag_set(d, CP_ERR_IO, "stdout", "cannot write output");
    return CP_OK;
}

/* ---- formats --------------------------------------------------------- */

static int numeric(enum catalog_col_type t)
{
    return t == CATCOL_REAL || t == CATCOL_COUNT;
}

struct view {
    enum catalog_kind k;
    const struct catalog_column *cols;
    size_t ncols;
    FILE *out;
    size_t w[64]; /* table: column widths */
    size_t nrows;
    int single;       /* json: one object, not an array */
    struct strbuf sb; /* table, show: a cell made safe for a terminal */
};

static enum cp_status out_status(const struct view *v)
{
    return ferror(v->out) ? CP_ERR_IO : CP_OK;
}

/* Table pass 1: the widths of the brief columns. */
static enum cp_status table_widths(void *ctx, const char *const *r, size_t n)
{
    struct view *v = ctx;
    size_t i, len;

    for (i = 0; i < n && i < 64; i++) {
        len = strlen(term_safe_str(r[i], &v->sb, 0));
        if (len > CELL_MAX)
            len = CELL_MAX;
        if (len > v->w[i])
            v->w[i] = len;
    }
    return CP_OK;
}

/* Table pass 2: one line per row (r NULL: the header). */
static enum cp_status table_line(void *ctx, const char *const *r, size_t n)
{
    struct view *v = ctx;
    size_t i;
    int first = 1;

    for (i = 0; i < n && i < 64; i++) {
        const char *c = r ? term_safe_str(r[i], &v->sb, 0) : v->cols[i].name;
        int cut = strlen(c) > CELL_MAX;

        if (!catalog_column_brief(v->k, i))
            continue;
        if (!first)
            fputs("  ", v->out);
        first = 0;
        if (cut)
            fprintf(v->out, "%.*s...%*s", CELL_MAX - 3, c,
                    (int)(v->w[i] - CELL_MAX), "");
        else if (r && numeric(v->cols[i].type))
            fprintf(v->out, "%*s", (int)v->w[i], c);
        else
            fprintf(v->out, "%-*s", (int)v->w[i], c);
    }
    fputc('\n', v->out);
    return out_status(v);
}

/* Every column, one "name  value" line each; rows separated by a blank. */
static enum cp_status vertical_row(void *ctx, const char *const *r, size_t n)
{
    struct view *v = ctx;
    size_t i, w = 0;

    for (i = 0; i < n; i++)
        if (strlen(v->cols[i].name) > w)
            w = strlen(v->cols[i].name);
    if (v->nrows++)
        fputc('\n', v->out);
    for (i = 0; i < n; i++)
        fprintf(v->out, "%-*s  %s\n", (int)w, v->cols[i].name,
                term_safe_str(r[i], &v->sb, 0));
    return out_status(v);
}

static enum cp_status csv_row(void *ctx, const char *const *r, size_t n)
{
    struct view *v = ctx;

    return csvio_write_row(v->out, r, n) == 0 ? CP_OK : CP_ERR_IO;
}

static json_t *json_row(const struct catalog_column *cols, size_t ncols,
                        const char *const *v)
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

/* One object; in an array, indented one level more and comma-separated,
 * as jansson prints a whole array. */
static enum cp_status json_item(void *ctx, const char *const *r, size_t n)
{
    struct view *v = ctx;
    json_t *o = json_row(v->cols, n, r);
    char *text, *p;

    text = json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
                             JSON_REAL_PRECISION(15));
    json_decref(o);
    if (!text)
        return CP_ERR_NOMEM;
    if (v->single) {
        fputs(text, v->out);
    } else {
        fputs(v->nrows ? ",\n  " : "[\n  ", v->out);
        for (p = text; *p; p++) {
            fputc(*p, v->out);
            if (*p == '\n')
                fputs("  ", v->out);
        }
    }
    v->nrows++;
    free(text);
    return out_status(v);
}

static int open_catalog(const struct global_opts *g, struct catalog **cat,
                        unsigned flags)
{
    struct diag d;
    enum cp_status st;

    diag_clear(&d);
    st = catalog_open(g ? g->catalog_path : NULL, flags, cat, &d);
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
    struct catalog *cat = NULL;
    const char *id = show ? o->pos[2] : NULL;
    struct view v;
    struct sink sk;
    struct diag d;
    enum cp_status st;
    size_t i;
    int rc;

    if (o->npos != (show ? 3 : 2))
        return cli_usage_error("catalog", show ? "usage: catalog show KIND ID"
                                               : "usage: catalog list KIND");
    memset(&v, 0, sizeof(v));
    rc = parse_kind(o->pos[1], &v.k);
    if (!rc)
        rc = open_catalog(g, &cat, CATALOG_OPEN_READ);
    if (rc)
        return rc;
    v.cols = catalog_columns(v.k, &v.ncols);
    diag_clear(&d);
    st = sink_open(&sk, o->output, &d);
    if (st) {
        catalog_close(cat);
        return cli_error(st, &d);
    }
    v.out = sk.fp;
    if (o->fmt == FMT_CSV) {
        const char *names[64];

        for (i = 0; i < v.ncols && i < 64; i++)
            names[i] = v.cols[i].name;
        st = csvio_write_row(v.out, names, i) == 0 ? CP_OK : CP_ERR_IO;
        if (!st)
            st = catalog_foreach(cat, v.k, id, csv_row, &v, &d);
    } else if (o->fmt == FMT_JSON) {
        v.single = show && v.k != CATALOG_CLOUD;
        st = catalog_foreach(cat, v.k, id, json_item, &v, &d);
        if (!st && !v.single)
            fputs(v.nrows ? "\n]" : "[]", v.out);
        if (!st)
            st = fputc('\n', v.out) == EOF ? CP_ERR_IO : CP_OK;
    } else if (show) {
        st = catalog_foreach(cat, v.k, id, vertical_row, &v, &d);
    } else {
        for (i = 0; i < v.ncols && i < 64; i++)
            v.w[i] = strlen(v.cols[i].name);
        st = catalog_foreach(cat, v.k, NULL, table_widths, &v, &d);
        if (!st)
            st = table_line(&v, NULL, v.ncols);
        if (!st)
            st = catalog_foreach(cat, v.k, NULL, table_line, &v, &d);
    }
    catalog_close(cat);
    strbuf_release(&v.sb);
    if (st == CP_ERR_IO && !d.msg[0])
        diag_set(&d, CP_ERR_IO, o->output ? o->output : "stdout",
                 "cannot write output");
    if (st == CP_ERR_NOMEM && !d.msg[0])
        diag_set(&d, CP_ERR_NOMEM, "json", "out of memory");
    if (!st)
        st = sink_commit(&sk, &d);
    else
        sink_abort(&sk);
    return st ? cli_error(st, &d) : 0;
}

/* The id of a model imported from path without --id: the file's name
 * without ".json", lower-cased, other characters than [a-z0-9.-] as '-'
 * ("Llama-3.1-8B.json" -> "llama-3.1-8b").  "config.json" names no model:
 * --id is needed. */
static int hf_default_id(const char *path, char *out, size_t n)
{
    const char *base = strrchr(path, '/');
    size_t len, i;

    base = base ? base + 1 : path;
    len = strlen(base);
    if (len > 5 && strcmp(base + len - 5, ".json") == 0)
        len -= 5;
    if (len == 0 || len >= n || (len == 6 && strncmp(base, "config", 6) == 0))
        return cli_usage_error(
            "--id", "needed: the file's name does not name the model "
                    "(e.g. --id llama-3.1-8b)");
    for (i = 0; i < len; i++) {
        char c = base[i];

        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        out[i] = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' ||
                         c == '-'
                     ? c
                     : '-';
    }
    out[len] = '\0';
    return 0;
}

/* One models row from m: each column's text by name ("" = empty). */
static const char *hf_cell(const char *col, const struct model_spec *m,
                           const char *id, const char *source,
                           const char *as_of, char *buf, size_t n)
{
    static const struct {
        const char *name;
        size_t off;
    } counts[] = {
        {"layers", offsetof(struct model_spec, layers)},
        {"hidden", offsetof(struct model_spec, hidden)},
        {"heads", offsetof(struct model_spec, heads)},
        {"kv_heads", offsetof(struct model_spec, kv_heads)},
        {"ffn", offsetof(struct model_spec, ffn)},
        {"vocab", offsetof(struct model_spec, vocab)},
        {"experts", offsetof(struct model_spec, experts)},
        {"experts_active", offsetof(struct model_spec, experts_active)},
        {"shared_experts", offsetof(struct model_spec, shared_experts)},
        {"expert_ffn", offsetof(struct model_spec, expert_ffn)},
        {"moe_every", offsetof(struct model_spec, moe_every)},
        {"head_dim", offsetof(struct model_spec, head_dim)},
        {"kv_lora_rank", offsetof(struct model_spec, kv_lora_rank)},
        {"q_lora_rank", offsetof(struct model_spec, q_lora_rank)},
        {"rope_head_dim", offsetof(struct model_spec, rope_head_dim)},
        {"first_dense_layers", offsetof(struct model_spec, first_dense_layers)},
    };
    size_t i;

    if (strcmp(col, "id") == 0 || strcmp(col, "name") == 0)
        return id;
    if (strcmp(col, "source") == 0)
        return source;
    if (strcmp(col, "as_of") == 0)
        return as_of;
    if (strcmp(col, "gated_ffn") == 0)
        return m->gated_ffn ? "yes" : "no";
    if (strcmp(col, "tied_embeddings") == 0)
        return m->tied_embeddings ? "yes" : "no";
    if (strcmp(col, "expert_bias") == 0)
        return m->expert_bias ? "yes" : "no";
    if (strcmp(col, "act_clamp") == 0)
        return m->act_clamp ? "yes" : "no";
    if (strcmp(col, "attention") == 0)
        return model_attention_name(m->attention);
    if (strcmp(col, "notes") == 0)
        return "read from a Hugging Face config.json by llmplan; biases "
               "(under 0.01% of the parameters) not counted";
    for (i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
        uint64_t u;

        if (strcmp(col, counts[i].name) != 0)
            continue;
        memcpy(&u, (const char *)m + counts[i].off, sizeof(u));
        if (!u)
            return "";
        snprintf(buf, n, "%llu", (unsigned long long)u);
        return buf;
    }
    return ""; /* params (derived from the shape), confidence */
}

/* catalog import models --hf FILE [--id ID]: one row from the config, its
 * source the file's name and as_of the file's modification date (UTC). */
static int run_import_hf(const struct global_opts *g, const struct opts *o)
{
    const struct catalog_column *cols;
    struct catalog *cat = NULL;
    struct model_spec m;
    struct diag d;
    struct stat sb;
    struct tm tm;
    enum cp_status st;
    char id[CP_ID_MAX], source[512], as_of[16], num[64][24];
    const char *vals[64], *base;
    size_t n, i;
    int rc;

    if (o->npos != 2 || o->output || strcmp(o->pos[1], "models") != 0)
        return cli_usage_error("catalog", "usage: catalog import models --hf "
                                          "config.json [--id ID]");
    if (o->id) {
        if (strlen(o->id) >= sizeof(id))
            return cli_usage_error("--id", "longer than 47 characters");
        snprintf(id, sizeof(id), "%s", o->id);
    } else {
        rc = hf_default_id(o->hf, id, sizeof(id));
        if (rc)
            return rc;
    }
    diag_clear(&d);
    st = hfconfig_read(o->hf, &m, &d);
    if (st)
        return cli_error(st, &d);
    if (stat(o->hf, &sb) != 0 || !gmtime_r(&sb.st_mtime, &tm) ||
        strftime(as_of, sizeof(as_of), "%Y-%m-%d", &tm) == 0)
        snprintf(as_of, sizeof(as_of), "%s", "");
    base = strrchr(o->hf, '/');
    snprintf(source, sizeof(source), "Hugging Face config.json (%s)",
             base ? base + 1 : o->hf);
    cols = catalog_columns(CATALOG_MODELS, &n);
    assert(n <= sizeof(vals) / sizeof(vals[0]));
    for (i = 0; i < n; i++)
        vals[i] = hf_cell(cols[i].name, &m, id, source, as_of, num[i],
                          sizeof(num[i]));
    rc = open_catalog(g, &cat, CATALOG_OPEN_DEFAULT);
    if (rc)
        return rc;
    st = catalog_row_put(cat, CATALOG_MODELS, vals, n, &d);
    catalog_close(cat);
    if (st)
        return cli_error(st, &d);
    printf("imported %s into models as %s\n", o->hf, id);
    return 0;
}

static int run_import(const struct global_opts *g, const struct opts *o)
{
    enum catalog_kind k;
    struct catalog *cat = NULL;
    struct diag d;
    enum cp_status st;
    int rc;

    if (o->hf)
        return run_import_hf(g, o);
    if (o->id)
        return cli_usage_error("--id",
                               "an option of catalog import models --hf "
                               "only");
    if (o->npos != 3 || o->output)
        return cli_usage_error("catalog",
                               "usage: catalog import KIND FILE.csv");
    rc = parse_kind(o->pos[1], &k);
    if (!rc)
        rc = open_catalog(g, &cat, CATALOG_OPEN_DEFAULT);
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
    struct sink sk;
    struct diag d;
    enum cp_status st;
    const char *path;
    int rc;

    if (o->npos < 2 || o->npos > 3 || (o->npos == 3 && o->output))
        return cli_usage_error("catalog",
                               "usage: catalog export KIND [FILE.csv]");
    path = o->npos == 3 ? o->pos[2] : o->output;
    rc = parse_kind(o->pos[1], &k);
    if (!rc)
        rc = open_catalog(g, &cat, CATALOG_OPEN_READ);
    if (rc)
        return rc;
    diag_clear(&d);
    st = sink_open(&sk, path, &d);
    if (!st) {
        st = catalog_export_csv(cat, k, sk.fp, &d);
        if (st == CP_ERR_IO && path) /* a write failed: name the file */
            st = diag_set(&d, CP_ERR_IO, path, "cannot write file");
    }
    catalog_close(cat);
    if (!st)
        st = sink_commit(&sk, &d);
    else if (sk.fp)
        sink_abort(&sk);
    return st ? cli_error(st, &d) : 0;
}

static int run_reset(const struct global_opts *g, const struct opts *o)
{
    struct catalog *cat = NULL;
    struct diag d;
    enum cp_status st;
    int rc;

    if (o->npos != 1 || o->output)
        return cli_usage_error("catalog", "usage: catalog reset");
    rc = open_catalog(g, &cat, CATALOG_OPEN_DEFAULT);
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
    if (strcmp(o.pos[0], "import") != 0 && (o.hf || o.id))
        return cli_usage_error(o.hf ? "--hf" : "--id",
                               "an option of catalog import models only");
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
    return cli_usage_error(o.pos[0], "unknown catalog command (list, show, "
                                     "import, export, reset)");
}
