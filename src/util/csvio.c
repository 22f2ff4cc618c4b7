/* csvio.c - libcsv wrappers; see csvio.h. */
#include <csv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/csvio.h"
#include "util/xalloc.h"

bool csvio_formula_like(const char *s)
{
    const char *p = s;
    int digits = 0;

    if (!strchr("=+-@\t\r", s[0]) || !s[0])
        return false;
    /* A plain decimal: [+-]digits[.digits] - data, not a formula. */
    if (*p == '-' || *p == '+')
        p++;
    while (*p >= '0' && *p <= '9') {
        p++;
        digits++;
    }
    if (*p == '.' && digits) {
        p++;
        while (*p >= '0' && *p <= '9')
            p++;
    }
    return !(digits && *p == '\0');
}

int csvio_write_field(FILE *out, const char *s)
{
    size_t n = strlen(s);
    size_t i;

    if (csvio_formula_like(s)) {
        /* OWASP: prefix a single quote and quote the cell. */
        if (fputs("\"'", out) == EOF)
            return -1;
        for (i = 0; i < n; i++)
            if ((s[i] == '"' && fputc('"', out) == EOF) ||
                fputc(s[i], out) == EOF)
                return -1;
        return fputc('"', out) == EOF ? -1 : 0;
    }
    /* libcsv trims unquoted blanks (space and tab) on reading: quote a
     * field that starts or ends with one, so that it reads back as is */
    int quote = n == 0 ? 0
                       : (s[0] == ' ' || s[0] == '\t' || s[n - 1] == ' ' ||
                          s[n - 1] == '\t');

    for (i = 0; i < n && !quote; i++)
        if (s[i] == ',' || s[i] == '"' || s[i] == '\n' || s[i] == '\r')
            quote = 1;
    if (!quote)
        return fwrite(s, 1, n, out) == n ? 0 : -1;
    return csv_fwrite(out, s, n) == 0 ? 0 : -1;
}

int csvio_write_row(FILE *out, const char *const *fields, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++) {
        if (i && fputc(',', out) == EOF)
            return -1;
        if (csvio_write_field(out, fields[i] ? fields[i] : "") != 0)
            return -1;
    }
    return fputc('\n', out) == EOF ? -1 : 0;
}

struct parse_state {
    char **fields;
    size_t n, alloc;
    size_t line;         /* line where the current record started */
    size_t next_line;    /* line after the data consumed so far */
    size_t record_bytes; /* bytes of the record being read */
    csvio_row_fn fn;
    void *ctx;
    enum cp_status st;
};

static void on_field(void *s, size_t len, void *data)
{
    struct parse_state *ps = data;
    char *f;

    if (ps->st)
        return;
    if (ps->n == ps->alloc) {
        ps->alloc = ps->alloc ? ps->alloc * 2 : 16;
        ps->fields = xrealloc(ps->fields, ps->alloc * sizeof(*ps->fields));
    }
    f = xmalloc(len + 1);
    memcpy(f, s, len);
    f[len] = '\0';
    ps->fields[ps->n++] = f;
}

static void free_fields(struct parse_state *ps)
{
    size_t i;

    for (i = 0; i < ps->n; i++)
        free(ps->fields[i]);
    ps->n = 0;
}

static void on_row(int c, void *data)
{
    struct parse_state *ps = data;

    (void)c;
    if (!ps->st && ps->n > 0)
        ps->st =
            ps->fn(ps->ctx, ps->line, (const char *const *)ps->fields, ps->n);
    free_fields(ps);
}

/* A parser fed one line at a time, from a buffer or a stream. */
struct line_parser {
    struct csv_parser p;
    struct parse_state ps;
    const char *name;
    struct diag *d;
    int at_bol; /* the next piece starts a line */
};

#define CSVIO_RECORD_MAX (1u << 20)

static enum cp_status lp_init(struct line_parser *lp, const char *name,
                              csvio_row_fn row_fn, void *ctx, struct diag *d)
{
    memset(lp, 0, sizeof(*lp));
    if (csv_init(&lp->p, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL) != 0)
        return diag_set(d, CP_ERR_NOMEM, name, "cannot start CSV parser");
    lp->ps.fn = row_fn;
    lp->ps.ctx = ctx;
    lp->ps.line = 1;
    lp->ps.next_line = 1;
    lp->name = name;
    lp->d = d;
    lp->at_bol = 1;
    return CP_OK;
}

static enum cp_status lp_error(struct line_parser *lp, const char *what)
{
    char where[DIAG_WHERE_MAX];

    snprintf(where, sizeof(where), "%s:%zu", lp->name, lp->ps.next_line);
    lp->ps.st = diag_set(lp->d, CP_ERR_PARSE, where, "%s", what);
    return lp->ps.st;
}

/* Feed a piece of a line (ending with its '\n', if any), so that each
 * record knows the line where it began. */
static enum cp_status lp_feed(struct line_parser *lp, const char *piece,
                              size_t n)
{
    char where[DIAG_WHERE_MAX];
    int between = lp->p.pstate == 0 && lp->ps.n == 0;

    if (between && lp->at_bol) {
        lp->ps.line = lp->ps.next_line;
        lp->ps.record_bytes = 0;
    }
    /* Every consumer reads fields as C strings: a NUL would cut a field
     * short without a word.  Refuse it, and a record too long for a
     * catalog row (/dev/zero, a binary file) before it fills memory. */
    if (memchr(piece, '\0', n))
        return lp_error(lp, "NUL byte: cannot read a binary file as CSV");
    lp->ps.record_bytes += n;
    if (lp->ps.record_bytes > CSVIO_RECORD_MAX)
        return lp_error(lp, "record longer than 1 MiB");
    if (csv_parse(&lp->p, piece, n, on_field, on_row, &lp->ps) != n) {
        snprintf(where, sizeof(where), "%s:%zu", lp->name, lp->ps.next_line);
        diag_set(lp->d, CP_ERR_PARSE, where, "malformed CSV: %s",
                 csv_strerror(csv_error(&lp->p)));
        lp->ps.st = CP_ERR_PARSE;
    }
    lp->at_bol = n > 0 && piece[n - 1] == '\n';
    if (lp->at_bol)
        lp->ps.next_line++;
    return lp->ps.st;
}

static enum cp_status lp_finish(struct line_parser *lp)
{
    char where[DIAG_WHERE_MAX];

    if (!lp->ps.st && csv_fini(&lp->p, on_field, on_row, &lp->ps) != 0) {
        snprintf(where, sizeof(where), "%s:%zu", lp->name, lp->ps.line);
        diag_set(lp->d, CP_ERR_PARSE, where, "malformed CSV: %s",
                 csv_strerror(csv_error(&lp->p)));
        lp->ps.st = CP_ERR_PARSE;
    }
    free_fields(&lp->ps);
    free(lp->ps.fields);
    csv_free(&lp->p);
    return lp->ps.st;
}

enum cp_status csvio_parse(const char *name, const char *data, size_t len,
                           csvio_row_fn row_fn, void *ctx, struct diag *d)
{
    struct line_parser lp;
    enum cp_status st;
    size_t i, start;

    st = lp_init(&lp, name, row_fn, ctx, d);
    if (st)
        return st;
    for (start = 0; start < len && !lp.ps.st; start = i) {
        for (i = start; i < len && data[i] != '\n'; i++)
            ;
        if (i < len)
            i++;
        lp_feed(&lp, data + start, i - start);
    }
    return lp_finish(&lp);
}

enum cp_status csvio_parse_file(const char *name, FILE *fp, csvio_row_fn row_fn,
                                void *ctx, struct diag *d)
{
    struct line_parser lp;
    enum cp_status st;
    char buf[65536];
    size_t got, i, start;
    int first = 1;

    st = lp_init(&lp, name, row_fn, ctx, d);
    if (st)
        return st;
    while (!lp.ps.st && (got = fread(buf, 1, sizeof(buf), fp)) > 0) {
        start = 0;
        /* a UTF-8 byte order mark from a spreadsheet */
        if (first && got >= 3 && memcmp(buf, "\xEF\xBB\xBF", 3) == 0)
            start = 3;
        first = 0;
        for (; start < got && !lp.ps.st; start = i) {
            for (i = start; i < got && buf[i] != '\n'; i++)
                ;
            if (i < got)
                i++;
            lp_feed(&lp, buf + start, i - start);
        }
    }
    if (!lp.ps.st && ferror(fp))
        lp.ps.st = diag_set(d, CP_ERR_IO, name, "cannot read file");
    return lp_finish(&lp);
}
