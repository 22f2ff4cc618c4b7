/*
 * canvas.h - the screen as plain data: a grid of cells, each a Unicode
 * code point and a theme element id (theme.h).  Views and widgets draw
 * here; a terminal backend (term_curses.c, term_script.c) shows it.  Tests
 * read it back with canvas_dump(), which writes the text and, as a second
 * layer, the element of every cell, so colour regressions fail too.
 *
 * Pure: no I/O, no curses, no locale.  Drawing outside the grid is clipped
 * silently, so widgets never have to check bounds twice.
 *
 * Ownership: canvas_init/canvas_resize allocate the cells (xalloc);
 * canvas_release frees them.  canvas_dump appends to a caller's strbuf.
 */
#ifndef LLMPLAN_UI_CANVAS_H
#define LLMPLAN_UI_CANVAS_H

#include <stdbool.h>
#include <stdint.h>

#include "util/strbuf.h"

struct cell {
    uint32_t ch; /* code point; ' ' when empty */
    uint8_t el;  /* enum theme_element */
};

struct canvas {
    int w, h;
    bool utf8; /* the terminal shows non-ASCII; else glyphs fall back */
    struct cell *cells;
};

/* A rectangle on the canvas. */
struct rect {
    int x, y, w, h;
};

void canvas_init(struct canvas *c, int w, int h, bool utf8);
void canvas_release(struct canvas *c);
/* New size; the content is cleared. */
void canvas_resize(struct canvas *c, int w, int h);
/* Every cell to ' ' with element el. */
void canvas_clear(struct canvas *c, int el);

/* One cell (clipped). */
void canvas_put(struct canvas *c, int x, int y, uint32_t ch, int el);
/* The cell at x,y, or NULL outside. */
const struct cell *canvas_at(const struct canvas *c, int x, int y);
/* Fill a rectangle with ch in element el. */
void canvas_fill(struct canvas *c, struct rect r, uint32_t ch, int el);
/* Set the element of the cells of r, keeping their text. */
void canvas_paint(struct canvas *c, struct rect r, int el);

/* UTF-8 text at x,y, at most maxw columns (maxw < 0: to the edge), one
 * column per code point; invalid bytes show as '?'.  On a plain canvas
 * code points above 127 show as '?'.  Returns the columns used. */
int canvas_text(struct canvas *c, int x, int y, int maxw, const char *s,
                int el);
/* printf-style canvas_text. */
int canvas_printf(struct canvas *c, int x, int y, int maxw, int el,
                  const char *fmt, ...) __attribute__((format(printf, 6, 7)));

/* Columns the text takes (code points). */
int canvas_text_width(const char *s);

/* Write the canvas as text:
 *   "screen WxH\n", H lines of text (trailing spaces kept, UTF-8),
 *   "elements\n", H lines of one character per cell naming its element
 *   ('.' for element 0, then a-z, A-Z), then "legend\n" and one
 *   "<char> <element name>" line per element that appears.
 * name(i) gives element names. */
enum cp_status canvas_dump(const struct canvas *c, struct strbuf *out,
                           const char *(*name)(int el));

/* The character canvas_dump uses for element el. */
char canvas_el_char(int el);

#endif
