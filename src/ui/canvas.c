/*
 * canvas.c - the cell grid (see canvas.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui/canvas.h"
#include "util/xalloc.h"

void canvas_init(struct canvas *c, int w, int h, bool utf8)
{
    c->w = 0;
    c->h = 0;
    c->cells = NULL;
    c->utf8 = utf8;
    canvas_resize(c, w, h);
}

void canvas_release(struct canvas *c)
{
    free(c->cells);
    c->cells = NULL;
    c->w = 0;
    c->h = 0;
}

void canvas_resize(struct canvas *c, int w, int h)
{
    if (w < 1)
        w = 1;
    if (h < 1)
        h = 1;
    free(c->cells);
    c->w = w;
    c->h = h;
    c->cells = xcalloc((size_t)w * (size_t)h, sizeof(*c->cells));
    canvas_clear(c, 0);
}

void canvas_clear(struct canvas *c, int el)
{
    size_t i, n = (size_t)c->w * (size_t)c->h;

    for (i = 0; i < n; i++) {
        c->cells[i].ch = ' ';
        c->cells[i].el = (uint8_t)el;
    }
}

void canvas_put(struct canvas *c, int x, int y, uint32_t ch, int el)
{
    struct cell *cl;

    if (x < 0 || y < 0 || x >= c->w || y >= c->h)
        return;
    cl = &c->cells[(size_t)y * (size_t)c->w + (size_t)x];
    if (ch < 32 || ch == 127 || (!c->utf8 && ch > 127))
        ch = '?';
    cl->ch = ch;
    cl->el = (uint8_t)el;
}

const struct cell *canvas_at(const struct canvas *c, int x, int y)
{
    if (x < 0 || y < 0 || x >= c->w || y >= c->h)
        return NULL;
    return &c->cells[(size_t)y * (size_t)c->w + (size_t)x];
}

void canvas_fill(struct canvas *c, struct rect r, uint32_t ch, int el)
{
    int x, y;

    for (y = r.y; y < r.y + r.h; y++)
        for (x = r.x; x < r.x + r.w; x++)
            canvas_put(c, x, y, ch, el);
}

void canvas_paint(struct canvas *c, struct rect r, int el)
{
    int x, y;

    for (y = r.y; y < r.y + r.h; y++)
        for (x = r.x; x < r.x + r.w; x++)
            if (x >= 0 && y >= 0 && x < c->w && y < c->h)
                c->cells[(size_t)y * (size_t)c->w + (size_t)x].el = (uint8_t)el;
}

/* Decode one UTF-8 sequence at *s; advances *s; '?' for invalid bytes. */
static uint32_t utf8_next(const char **s)
{
    const unsigned char *p = (const unsigned char *)*s;
    uint32_t cp;
    int n, i;

    if (p[0] < 0x80) {
        *s += 1;
        return p[0];
    }
    if ((p[0] & 0xE0) == 0xC0) {
        n = 1;
        cp = p[0] & 0x1F;
    } else if ((p[0] & 0xF0) == 0xE0) {
        n = 2;
        cp = p[0] & 0x0F;
    } else if ((p[0] & 0xF8) == 0xF0) {
        n = 3;
        cp = p[0] & 0x07;
    } else {
        *s += 1;
        return '?';
    }
    for (i = 1; i <= n; i++) {
        if ((p[i] & 0xC0) != 0x80) {
            *s += 1;
            return '?';
        }
        cp = (cp << 6) | (p[i] & 0x3F);
    }
    *s += n + 1;
    if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return '?';
    return cp;
}

int canvas_text(struct canvas *c, int x, int y, int maxw, const char *s, int el)
{
    int used = 0;

    if (!s)
        return 0;
    if (maxw < 0)
        maxw = c->w - x;
    while (*s && used < maxw) {
        uint32_t cp = utf8_next(&s);

        canvas_put(c, x + used, y, cp, el);
        used++;
    }
    return used;
}

int canvas_printf(struct canvas *c, int x, int y, int maxw, int el,
                  const char *fmt, ...)
{
    char buf[1024];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    return canvas_text(c, x, y, maxw, buf, el);
}

int canvas_text_width(const char *s)
{
    int n = 0;

    while (s && *s) {
        utf8_next(&s);
        n++;
    }
    return n;
}

char canvas_el_char(int el)
{
    static const char map[] =
        ".abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

    if (el < 0 || el >= (int)sizeof(map) - 1)
        return '?';
    return map[el];
}

static void put_utf8(struct strbuf *out, uint32_t cp)
{
    char b[4];

    if (cp < 0x80) {
        strbuf_addch(out, (int)cp);
    } else if (cp < 0x800) {
        b[0] = (char)(0xC0 | (cp >> 6));
        b[1] = (char)(0x80 | (cp & 0x3F));
        strbuf_add(out, b, 2);
    } else if (cp < 0x10000) {
        b[0] = (char)(0xE0 | (cp >> 12));
        b[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        b[2] = (char)(0x80 | (cp & 0x3F));
        strbuf_add(out, b, 3);
    } else {
        b[0] = (char)(0xF0 | (cp >> 18));
        b[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
        b[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
        b[3] = (char)(0x80 | (cp & 0x3F));
        strbuf_add(out, b, 4);
    }
}

enum cp_status canvas_dump(const struct canvas *c, struct strbuf *out,
                           const char *(*name)(int el))
{
    bool seen[256];
    int x, y, i;

    memset(seen, 0, sizeof(seen));
    strbuf_addf(out, "screen %dx%d\n", c->w, c->h);
    for (y = 0; y < c->h; y++) {
        for (x = 0; x < c->w; x++)
            put_utf8(out, c->cells[(size_t)y * (size_t)c->w + (size_t)x].ch);
        strbuf_addch(out, '\n');
    }
    strbuf_addstr(out, "elements\n");
    for (y = 0; y < c->h; y++) {
        for (x = 0; x < c->w; x++) {
            int el = c->cells[(size_t)y * (size_t)c->w + (size_t)x].el;

            seen[el] = true;
            strbuf_addch(out, canvas_el_char(el));
        }
        strbuf_addch(out, '\n');
    }
    strbuf_addstr(out, "legend\n");
    for (i = 0; i < 256; i++)
        if (seen[i])
            strbuf_addf(out, "%c %s\n", canvas_el_char(i),
                        name ? name(i) : "?");
    return CP_OK;
}
