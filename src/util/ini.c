/* ini.c - libinih wrapper with line numbers; see ini.h. */
#include <ini.h>
#include <stdio.h>
#include <string.h>

#include "util/ini.h"

struct ini_state {
    const char *name;
    const char *pos; /* next unread byte of the text */
    int line;        /* line of the chunk handed to inih last */
    int at_line_start;
    ini_key_fn fn;
    void *ctx;
    enum cp_status st; /* first error a callback returned */
    int st_line;       /* and its line */
    struct diag *d;
};

/* fgets-style reader over the text that counts lines, so the handler knows
 * where it is (inih's own INI_HANDLER_LINENO is a build option of the
 * library, off in Debian's). */
static char *read_line(char *str, int num, void *stream)
{
    struct ini_state *s = stream;
    int i = 0;

    if (!*s->pos || num < 2)
        return NULL;
    if (s->at_line_start)
        s->line++;
    while (i < num - 1 && s->pos[0]) {
        char c = *s->pos++;

        str[i++] = c;
        if (c == '\n')
            break;
    }
    str[i] = '\0';
    s->at_line_start = i > 0 && str[i - 1] == '\n';
    return str;
}

static int on_key(void *user, const char *section, const char *name,
                  const char *value)
{
    struct ini_state *s = user;
    struct diag tmp;
    enum cp_status st;
    char where[64];

    diag_clear(&tmp);
    st = s->fn(s->ctx, section, name, value, s->line, &tmp);
    if (st == CP_OK)
        return 1;
    if (s->st == CP_OK) {
        s->st = st;
        s->st_line = s->line;
        if (s->d) {
            *s->d = tmp;
            snprintf(where, sizeof(where), "%s:%d", s->name, s->line);
            diag_prefix(s->d, where);
        }
    }
    return 0;
}

enum cp_status ini_parse_text(const char *name, const char *text, ini_key_fn fn,
                              void *ctx, struct diag *d)
{
    struct ini_state s;
    int rc;

    memset(&s, 0, sizeof(s));
    s.name = name;
    s.pos = text;
    s.at_line_start = 1;
    s.fn = fn;
    s.ctx = ctx;
    s.d = d;
    rc = ini_parse_stream(read_line, &s, on_key, &s);
    if (s.st && !(rc > 0 && rc < s.st_line))
        return s.st;
    if (rc > 0) {
        char where[64];

        snprintf(where, sizeof(where), "%s:%d", name, rc);
        return diag_set(d, CP_ERR_PARSE, where,
                        "expected '[section]' or 'key = value'");
    }
    if (rc < 0)
        return diag_set(d, CP_ERR_NOMEM, name, "cannot parse: out of memory");
    return CP_OK;
}
