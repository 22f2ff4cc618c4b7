/* csvio.c - libcsv wrappers; see csvio.h. */
#include <csv.h>
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
    size_t line;       /* line where the current record started */
    size_t next_line;  /* line after the data consumed so far */
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
        ps->st = ps->fn(ps->ctx, ps->line, (const char *const *)ps->fields,
                        ps->n);
    free_fields(ps);
}

enum cp_status csvio_parse(const char *name, const char *data, size_t len,
                           csvio_row_fn row_fn, void *ctx, struct diag *d)
{
    struct csv_parser p;
    struct parse_state ps = {0};
    size_t i, start;
    char where[DIAG_WHERE_MAX];

    if (csv_init(&p, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL) != 0)
        return diag_set(d, CP_ERR_NOMEM, name, "cannot start CSV parser");
    ps.fn = row_fn;
    ps.ctx = ctx;
    ps.line = 1;
    ps.next_line = 1;
    /* Feed line by line so that each record knows where it began. */
    for (start = 0; start < len && !ps.st; start = i) {
        int quoted_before = p.pstate == 0 ? 0 : 1;

        for (i = start; i < len && data[i] != '\n'; i++)
            ;
        if (i < len)
            i++;
        if (!quoted_before && ps.n == 0)
            ps.line = ps.next_line;
        if (csv_parse(&p, data + start, i - start, on_field, on_row, &ps) !=
            i - start) {
            snprintf(where, sizeof(where), "%s:%zu", name, ps.next_line);
            diag_set(d, CP_ERR_PARSE, where, "malformed CSV: %s",
                     csv_strerror(csv_error(&p)));
            ps.st = CP_ERR_PARSE;
            break;
        }
        ps.next_line++;
    }
    if (!ps.st && csv_fini(&p, on_field, on_row, &ps) != 0) {
        snprintf(where, sizeof(where), "%s:%zu", name, ps.line);
        diag_set(d, CP_ERR_PARSE, where, "malformed CSV: %s",
                 csv_strerror(csv_error(&p)));
        ps.st = CP_ERR_PARSE;
    }
    free_fields(&ps);
    free(ps.fields);
    csv_free(&p);
    return ps.st;
}
