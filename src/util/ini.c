/* ini.c - the INI reader for plan files; see ini.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/ini.h"
#include "util/xalloc.h"

static int is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

static char *lskip(char *s)
{
    while (*s && is_blank(*s))
        s++;
    return s;
}

static void rstrip(char *s)
{
    size_t n = strlen(s);

    while (n > 0 && is_blank(s[n - 1]))
        s[--n] = '\0';
}

/* First of chars in s (NULL: none wanted), or of an inline comment (';'
 * after a blank), or the end of s. */
static char *find_chars_or_comment(char *s, const char *chars)
{
    int was_blank = 0;

    while (*s && (!chars || !strchr(chars, *s)) && !(was_blank && *s == ';')) {
        was_blank = is_blank(*s);
        s++;
    }
    return s;
}

/* Parse one line (no '\n'), in place.  CP_OK, CP_ERR_PARSE with *syntax
 * set for a malformed line, else the status of the callback (detail in d). */
static enum cp_status parse_line(char *line, int lineno, char **section,
                                 ini_key_fn fn, void *ctx, int *syntax,
                                 struct diag *d)
{
    char *start, *end, *name, *value;

    *syntax = 0;
    rstrip(line);
    start = lskip(line);
    if (*start == '\0' || *start == ';' || *start == '#')
        return CP_OK;
    if (*start == '[') {
        end = find_chars_or_comment(start + 1, "]");
        if (*end != ']') {
            *syntax = 1;
            return CP_ERR_PARSE;
        }
        /* "[train] seq_len = 2048": the key would be lost, not read */
        if (*(value = lskip(end + 1)) && *value != ';' && *value != '#') {
            *syntax = 2;
            return CP_ERR_PARSE;
        }
        *end = '\0';
        free(*section);
        *section = xstrdup(start + 1);
        return CP_OK;
    }
    end = find_chars_or_comment(start, "=:");
    if (*end != '=' && *end != ':') {
        *syntax = 1;
        return CP_ERR_PARSE;
    }
    *end = '\0';
    name = start;
    rstrip(name);
    value = lskip(end + 1);
    end = find_chars_or_comment(value, NULL);
    *end = '\0';
    rstrip(value);
    return fn(ctx, *section, name, value, lineno, d);
}

enum cp_status ini_parse_text(const char *name, const char *text, ini_key_fn fn,
                              void *ctx, struct diag *d)
{
    char *copy, *line, *next, *section = xstrdup("");
    enum cp_status first = CP_OK, st;
    struct diag tmp;
    char where[64];
    int lineno = 0, syntax;

    copy = xstrdup(text);
    line = copy;
    /* a UTF-8 byte order mark */
    if ((unsigned char)line[0] == 0xEF && (unsigned char)line[1] == 0xBB &&
        (unsigned char)line[2] == 0xBF)
        line += 3;
    for (; line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        lineno++;
        diag_clear(&tmp);
        st = parse_line(line, lineno, &section, fn, ctx, &syntax, &tmp);
        if (st == CP_OK || first != CP_OK)
            continue;
        first = st;
        if (!d)
            continue;
        snprintf(where, sizeof(where), "%s:%d", name, lineno);
        if (syntax == 2) {
            diag_set(d, CP_ERR_PARSE, where,
                     "text after '[section]': put each 'key = value' on "
                     "its own line");
        } else if (syntax) {
            diag_set(d, CP_ERR_PARSE, where,
                     "expected '[section]' or 'key = value'");
        } else {
            *d = tmp;
            diag_prefix(d, where);
        }
    }
    free(section);
    free(copy);
    return first;
}
