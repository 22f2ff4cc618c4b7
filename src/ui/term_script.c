/*
 * term_script.c - the test backend: keys come from a script, the screen
 * stays in the canvas (ui_cmd_tui dumps it with --ui-dump).  No terminal
 * is needed, so the screen goldens run anywhere.
 *
 * A script has one event per line:
 *   a key name as in key bindings: q  ?  Enter  Tab  F1  Down  C-c  Space
 *   text:1024        each character of the text as a key
 *   resize:30x8      the terminal changes size
 *   click:12,3       a mouse click on column 12, row 3 (from 0)
 *   # comment        (a '#' followed by a space; blank lines are skipped)
 * The script ending ends the session, as a quit would.  Polls with a zero
 * timeout (the search's progress) never consume keys.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui/ui.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

struct ts {
    int w, h;
    struct ui_event *ev;
    size_t n, alloc, pos;
};

static void push(struct ts *s, int key, int x, int y)
{
    if (s->n == s->alloc) {
        s->alloc = s->alloc * 2 + 32;
        s->ev = xrealloc(s->ev, s->alloc * sizeof(*s->ev));
    }
    s->ev[s->n].key = key;
    s->ev[s->n].x = x;
    s->ev[s->n].y = y;
    s->n++;
}

/* Decode one UTF-8 character of text; advances *p. */
static int next_char(const char **p)
{
    const unsigned char *s = (const unsigned char *)*p;
    int n = s[0] < 0x80             ? 0
            : (s[0] & 0xE0) == 0xC0 ? 1
            : (s[0] & 0xF0) == 0xE0 ? 2
                                    : 3;
    int cp = n == 0   ? s[0]
             : n == 1 ? (s[0] & 0x1F)
             : n == 2 ? (s[0] & 0x0F)
                      : (s[0] & 0x07);
    int i;

    for (i = 1; i <= n; i++) {
        if ((s[i] & 0xC0) != 0x80) {
            *p += 1;
            return '?';
        }
        cp = (cp << 6) | (s[i] & 0x3F);
    }
    *p += n + 1;
    return cp;
}

static enum cp_status parse(struct ts *s, const char *name, const char *text,
                            struct diag *d)
{
    const char *p = text;
    int line = 0;

    while (p && *p) {
        char buf[512];
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        int key, a, b;
        char where[300];

        line++;
        if (len >= sizeof(buf))
            len = sizeof(buf) - 1;
        memcpy(buf, p, len);
        buf[len] = '\0';
        if (len && buf[len - 1] == '\r')
            buf[--len] = '\0';
        p = eol ? eol + 1 : NULL;
        snprintf(where, sizeof(where), "%s:%d", name, line);
        if (len == 0 || (buf[0] == '#' && buf[1] == ' '))
            continue;
        if (strncmp(buf, "text:", 5) == 0) {
            const char *t = buf + 5;

            while (*t)
                push(s, next_char(&t), 0, 0);
            continue;
        }
        if (sscanf(buf, "resize:%dx%d", &a, &b) == 2) {
            if (a < 1 || b < 1 || a > 1000 || b > 1000)
                return diag_set(d, CP_ERR_PARSE, where, "bad size '%s'",
                                buf + 7);
            push(s, UK_RESIZE, a, b);
            continue;
        }
        if (sscanf(buf, "click:%d,%d", &a, &b) == 2) {
            push(s, UK_MOUSE, a, b);
            continue;
        }
        key = keymap_key_parse(buf);
        if (!key)
            return diag_set(d, CP_ERR_PARSE, where, "unknown key '%s'", buf);
        push(s, key, 0, 0);
    }
    return CP_OK;
}

static enum cp_status ts_open(struct term *t, struct diag *d)
{
    (void)t;
    (void)d;
    return CP_OK;
}

static void ts_close(struct term *t)
{
    (void)t;
}

static void ts_size(struct term *t, int *w, int *h)
{
    struct ts *s = t->priv;

    *w = s->w;
    *h = s->h;
}

static bool ts_true(struct term *t)
{
    (void)t;
    return true;
}

static bool ts_utf8(struct term *t)
{
    (void)t;
    return false;
}

static void ts_set_theme(struct term *t, const struct theme *th)
{
    (void)t;
    (void)th;
}

static void ts_blit(struct term *t, const struct canvas *c)
{
    (void)t;
    (void)c;
}

static int ts_read(struct term *t, struct ui_event *ev, int timeout_ms)
{
    struct ts *s = t->priv;

    if (timeout_ms == 0)
        return 0;
    if (s->pos >= s->n)
        return -1;
    *ev = s->ev[s->pos++];
    if (ev->key == UK_RESIZE) {
        s->w = ev->x;
        s->h = ev->y;
    }
    return 1;
}

static void ts_free(struct term *t)
{
    struct ts *s = t->priv;

    free(s->ev);
    free(s);
    free(t);
}

static const struct term_ops script_ops = {
    .open = ts_open,
    .close = ts_close,
    .size = ts_size,
    .has_colors = ts_true,
    .utf8 = ts_utf8,
    .set_theme = ts_set_theme,
    .blit = ts_blit,
    .read = ts_read,
    .free = ts_free,
};

enum cp_status term_script_new(const char *path, int w, int h,
                               struct term **out, struct diag *d)
{
    struct strbuf sb;
    struct term *t;
    struct ts *s;
    enum cp_status st;

    strbuf_init(&sb, 1 << 20);
    if (strbuf_read_file(&sb, path)) {
        strbuf_release(&sb);
        return diag_set(d, CP_ERR_IO, path, "cannot read the key script");
    }
    s = xcalloc(1, sizeof(*s));
    s->w = w;
    s->h = h;
    st = parse(s, path, sb.buf ? sb.buf : "", d);
    strbuf_release(&sb);
    if (st) {
        free(s->ev);
        free(s);
        return st;
    }
    t = xcalloc(1, sizeof(*t));
    t->ops = &script_ops;
    t->priv = s;
    *out = t;
    return CP_OK;
}
