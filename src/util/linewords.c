/* linewords.c - blank-separated words per line; see linewords.h. */
#include <stdarg.h>
#include <string.h>

#include "util/linewords.h"

void linewords_init(struct linewords *lw, const char *name, const char *text,
                    struct strbuf *errors)
{
    lw->p = text;
    lw->line = 0;
    lw->name = name;
    lw->errors = errors;
    lw->first = CP_OK;
}

static bool blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

bool linewords_next(struct linewords *lw, struct lw_words *out,
                    int max_words, int literal_hash)
{
    if (max_words > LW_WORDS_MAX)
        max_words = LW_WORDS_MAX;
    while (lw->p && *lw->p) {
        const char *p = lw->p, *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p), i = 0;

        lw->line++;
        lw->p = eol ? eol + 1 : NULL;
        out->n = 0;
        out->toolong = false;
        while (i < len) {
            size_t start;

            while (i < len && blank(p[i]))
                i++;
            if (i >= len || (p[i] == '#' && out->n != literal_hash))
                break;
            start = i;
            while (i < len && !blank(p[i]))
                i++;
            if (out->n >= max_words || i - start >= LW_WORD_MAX) {
                out->toolong = true;
                break;
            }
            memcpy(out->w[out->n], p + start, i - start);
            out->w[out->n][i - start] = '\0';
            out->n++;
        }
        if (out->n > 0 || out->toolong)
            return true;
    }
    return false;
}

void linewords_problem(struct linewords *lw, const char *fmt, ...)
{
    va_list ap;

    if (lw->errors) {
        strbuf_addf(lw->errors, "%s:%d: ", lw->name, lw->line);
        va_start(ap, fmt);
        strbuf_vaddf(lw->errors, fmt, ap);
        va_end(ap);
        strbuf_addch(lw->errors, '\n');
    }
    lw->first = CP_ERR_PARSE;
}
