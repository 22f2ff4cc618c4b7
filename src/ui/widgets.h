/*
 * widgets.h - pure drawing helpers over a canvas rectangle: pane
 * headings, a stacked bar, a line chart, a table, a function bar.
 *
 * Widgets know theme elements, not colours, and read only what they are
 * given: no global state, no curses, no numbers computed beyond the
 * geometry of the drawing (how many cells a share of a bar takes).
 */
#ifndef LLMPLAN_UI_WIDGETS_H
#define LLMPLAN_UI_WIDGETS_H

#include <stddef.h>

#include "ui/canvas.h"
#include "ui/keymap.h"

/* Glyphs that have a plain-ASCII fallback. */
enum glyph {
    GL_HLINE,
    GL_VLINE,
    GL_BLOCK,
    GL_SHADE,
    GL_LIGHT,
    GL_DOT,
    GL_ARROW_UP,
    GL_ARROW_DOWN,
    GL_ELLIPSIS,
    GL_CROSS,
    GL_BUILD,
    GL_CLOUD,
    GL_BOTH,
};

uint32_t widget_glyph(const struct canvas *c, enum glyph g);

/* Text clipped to w columns; an ellipsis marks the cut.  align: 0 left,
 * 1 right.  Returns the columns used. */
int widget_text(struct canvas *c, int x, int y, int w, const char *s, int el,
                int align);

/* A label and its unit ("step_s" "s") in w columns: the label is cut with
 * an ellipsis before the unit is, so "effective_train_d~ d" keeps it.
 * Returns the columns used. */
int widget_label_unit(struct canvas *c, int x, int y, int w, const char *label,
                      const char *unit, int el);

/* A pane heading: " title " over the rectangle's first row, the rest of
 * the row a line.  active picks PANE_ACTIVE over PANE_TITLE. */
void widget_heading(struct canvas *c, struct rect r, const char *title,
                    int active);

/* A vertical separator line at x over r's rows. */
void widget_vline(struct canvas *c, int x, int y, int h);

/* One segment of a stacked bar. */
struct bar_seg {
    double value; /* >= 0 */
    int el;       /* theme element */
    uint32_t ch;  /* 0: a full block */
};

/* A stacked bar on row y from x, w wide, scaled so that `scale` fills it
 * (segments past it are clipped; the rest is drawn with free_el). */
void widget_bar(struct canvas *c, int x, int y, int w,
                const struct bar_seg *segs, size_t n, double scale,
                int free_el);

/* A line chart. */
struct chart_series {
    const double *y; /* n points at x = 0..n-1 */
    size_t n;
    int el;
    uint32_t ch;
    const char *name;
};

/* Axes, y labels (fmt(v) into a buffer), x labels every xstep points
 * with xunit, the series, and a vertical mark at x = mark (< 0: none)
 * labelled "payback <mark> <xunit>" on the top row where it fits.
 * Where series meet, GL_BOTH in the first series' element. */
void widget_chart(struct canvas *c, struct rect r, const struct chart_series *s,
                  size_t ns, size_t xstep, const char *xunit, double mark,
                  const char *(*fmt)(double v, char *buf, size_t n));

/* Keep sel visible in a window of h rows starting at *top. */
void widget_scroll(size_t sel, size_t n, int h, size_t *top);

/* Move a list selection *sel over n rows for the navigation actions (up,
 * down, page up and down by `page` rows, home, end).  Returns 1 when `a`
 * was one of them (the caller redraws), else 0 and *sel is unchanged.
 * Safe for an empty list (selection 0). */
int widget_list_move(size_t *sel, size_t n, size_t page, enum action a);

/* A table column. */
struct table_col {
    const char *title;
    int width; /* columns; the last may be 0: the rest; -1 dropped */
    int align; /* 0 left, 1 right */
};

/* Cell text for row i, column j, into buf; *el may be changed from the
 * row's element (e.g. a highlighted value). */
typedef const char *(*table_cell_fn)(void *ctx, size_t i, size_t j, char *buf,
                                     size_t n, int *el);

/* A table: header row, then rows top..; sel highlighted with cursor_el
 * (CURSOR or CURSOR_INACTIVE).  sort: the sorted column (-1 none).
 * Returns the number of data rows shown. */
int widget_table(struct canvas *c, struct rect r, const struct table_col *cols,
                 size_t ncols, size_t nrows, size_t top, size_t sel,
                 int cursor_el, int sort, table_cell_fn cell, void *ctx);

/* Columns fitted to their content, into out[ncols]: each as wide as its
 * widest cell over the nrows rows and its title.  When that exceeds w
 * (with a blank between columns) the titles give way first (abbreviated),
 * then the left-aligned (word) columns narrow down to their given width;
 * a right-aligned column (a number) keeps its widest cell, so no number
 * is cut by the fit.  drop (NULL: none) gives each column a level, 0 kept
 * always: when the table is still too wide, the columns of level 1 are
 * dropped (width -1: widget_table skips them), then the words narrow to
 * TABLE_WORD_MIN, then the columns of level 2, 3, ... go, the rightmost
 * first among equals; the room they leave goes back to the words.  The
 * last column is never 0 wide in out. */
#define TABLE_WORD_MIN 12
void widget_table_fit(struct table_col *out, const struct table_col *cols,
                      const int *drop, size_t ncols, size_t nrows,
                      table_cell_fn cell, void *ctx, int w);

/* The x positions of the columns of widget_table (for clicks): writes
 * ncols+1 starts. */
void widget_table_xs(struct rect r, const struct table_col *cols, size_t ncols,
                     int *xs);

/* One entry of the function bar. */
struct funckey {
    const char *key;   /* "F1" */
    const char *label; /* "Help" */
};

/* An htop function bar on row y; xs (may be NULL) receives each entry's
 * start, xs[n] the end.  Returns the entries that fitted. */
size_t widget_funcbar(struct canvas *c, int y, int w, const struct funckey *k,
                      size_t n, int *xs);

#endif
