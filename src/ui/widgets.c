/*
 * widgets.c - pane headings, bars, charts, tables, the function bar.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ui/theme.h"
#include "ui/widgets.h"

uint32_t widget_glyph(const struct canvas *c, enum glyph g)
{
    static const uint32_t utf8[] = {
        0x2500, 0x2502, 0x2588, 0x2593, 0x2591, 0x00B7, 0x25B2,
        0x25BC, 0x2026, 0x253C, 0x25CF, 0x25C6, 0x2726,
    };
    static const char ascii[] = "-|#%:.^v~+*o@";

    if (g < 0 || g > GL_BOTH)
        return '?';
    return c->utf8 ? utf8[g] : (uint32_t)ascii[g];
}

int widget_text(struct canvas *c, int x, int y, int w, const char *s, int el,
                int align)
{
    int len = canvas_text_width(s);

    if (w <= 0)
        return 0;
    if (len <= w) {
        int off = align ? w - len : 0;

        canvas_text(c, x + off, y, len, s, el);
        return len;
    }
    canvas_text(c, x, y, w - 1, s, el);
    canvas_put(c, x + w - 1, y, widget_glyph(c, GL_ELLIPSIS), el);
    return w;
}

int widget_label_unit(struct canvas *c, int x, int y, int w, const char *label,
                      const char *unit, int el)
{
    int uw = unit && unit[0] ? canvas_text_width(unit) + 1 : 0;
    int lw;

    if (uw >= w)
        return widget_text(c, x, y, w, label, el, 0);
    lw = widget_text(c, x, y, w - uw, label, el, 0);
    if (uw)
        canvas_text(c, x + lw + 1, y, uw - 1, unit, el);
    return lw + uw;
}

void widget_heading(struct canvas *c, struct rect r, const char *title,
                    int active)
{
    int el = active ? THEME_PANE_ACTIVE : THEME_PANE_TITLE;
    int n;

    canvas_fill(c, (struct rect){r.x, r.y, r.w, 1}, widget_glyph(c, GL_HLINE),
                THEME_BORDER);
    n = canvas_printf(c, r.x + 1, r.y, r.w - 2, el, " %s ", title);
    (void)n;
}

void widget_vline(struct canvas *c, int x, int y, int h)
{
    canvas_fill(c, (struct rect){x, y, 1, h}, widget_glyph(c, GL_VLINE),
                THEME_BORDER);
}

void widget_bar(struct canvas *c, int x, int y, int w,
                const struct bar_seg *segs, size_t n, double scale, int free_el)
{
    double acc = 0;
    int pos = 0, i;
    size_t s;

    if (w <= 0)
        return;
    for (i = 0; i < w; i++)
        canvas_put(c, x + i, y, widget_glyph(c, GL_LIGHT), free_el);
    if (!(scale > 0))
        return;
    for (s = 0; s < n; s++) {
        int end;

        acc += segs[s].value > 0 ? segs[s].value : 0;
        end = (int)lround(acc / scale * w);
        if (end > w)
            end = w;
        /* a visible share gets at least one cell */
        if (segs[s].value > 0 && end <= pos && pos < w)
            end = pos + 1;
        for (; pos < end; pos++)
            canvas_put(c, x + pos, y,
                       segs[s].ch ? segs[s].ch : widget_glyph(c, GL_BLOCK),
                       segs[s].el);
    }
}

void widget_scroll(size_t sel, size_t n, int h, size_t *top)
{
    if (h <= 0) {
        *top = sel;
        return;
    }
    if (sel < *top)
        *top = sel;
    if (sel >= *top + (size_t)h)
        *top = sel - (size_t)h + 1;
    if (n <= (size_t)h)
        *top = 0;
    else if (*top > n - (size_t)h)
        *top = n - (size_t)h;
}

void widget_chart(struct canvas *c, struct rect r, const struct chart_series *s,
                  size_t ns, size_t xstep, const char *xunit, double mark,
                  const char *(*fmt)(double v, char *buf, size_t n))
{
    char lab[3][32];
    double ymax = 0;
    size_t i, k, npts = 0;
    int lw = 0, pw, ph, x0, y0, row, col, mark_x;

    for (k = 0; k < ns; k++) {
        if (s[k].n > npts)
            npts = s[k].n;
        for (i = 0; i < s[k].n; i++)
            if (s[k].y[i] > ymax && isfinite(s[k].y[i]))
                ymax = s[k].y[i];
    }
    if (r.h < 4 || r.w < 16 || npts < 2)
        return;
    if (!(ymax > 0))
        ymax = 1;
    fmt(ymax, lab[0], sizeof(lab[0]));
    /* the middle label names the value of the row it stands on */
    ph = r.h - 2;
    if (ph > 1)
        fmt(ymax * (double)(ph - 1 - (ph - 1) / 2) / (double)(ph - 1), lab[1],
            sizeof(lab[1]));
    else
        snprintf(lab[1], sizeof(lab[1]), " ");
    snprintf(lab[2], sizeof(lab[2]), "0");
    for (i = 0; i < 3; i++)
        if (canvas_text_width(lab[i]) > lw)
            lw = canvas_text_width(lab[i]);
    x0 = r.x + lw + 1;       /* the y axis */
    pw = r.x + r.w - x0 - 1; /* plot columns */
    ph = r.h - 2;            /* plot rows, above the x axis */
    y0 = r.y + ph;           /* the x axis row */
    if (pw < 8 || ph < 2)
        return;
    /* axes */
    for (row = r.y; row < y0; row++)
        canvas_put(c, x0, row, widget_glyph(c, GL_VLINE), THEME_CHART_AXIS);
    for (col = x0; col <= x0 + pw; col++)
        canvas_put(c, col, y0, widget_glyph(c, GL_HLINE), THEME_CHART_AXIS);
    canvas_put(c, x0, y0, '+', THEME_CHART_AXIS);
    widget_text(c, r.x, r.y, lw, lab[0], THEME_CHART_AXIS, 1);
    widget_text(c, r.x, r.y + (ph - 1) / 2, lw, lab[1], THEME_CHART_AXIS, 1);
    widget_text(c, r.x, y0, lw, lab[2], THEME_CHART_AXIS, 1);
    /* x labels */
    if (xstep == 0)
        xstep = 1;
    for (i = 0; i < npts; i += xstep) {
        char b[16];
        int xc =
            x0 + 1 + (int)lround((double)i / (double)(npts - 1) * (pw - 1));

        snprintf(b, sizeof(b), "%zu", i);
        canvas_text(c, xc - (int)strlen(b) / 2, y0 + 1, -1, b,
                    THEME_CHART_AXIS);
    }
    if (xunit)
        widget_text(c, x0 + pw - canvas_text_width(xunit) + 1, y0 + 1,
                    canvas_text_width(xunit), xunit, THEME_CHART_AXIS, 0);
    /* the mark (the discounted payback: the cash series drawn here can
     * cross earlier, money later being worth less) */
    mark_x = -1;
    if (mark >= 0 && mark <= (double)(npts - 1)) {
        mark_x = x0 + 1 + (int)lround(mark / (double)(npts - 1) * (pw - 1));
        for (row = r.y; row < y0; row++)
            canvas_put(c, mark_x, row, widget_glyph(c, GL_VLINE),
                       THEME_CHART_MARK);
    }
    /* series: one point per plot column, sampled */
    for (col = 0; col < pw; col++) {
        double xf = (double)col / (double)(pw - 1) * (double)(npts - 1);
        size_t xi = (size_t)lround(xf);
        int first_row = -1;

        for (k = 0; k < ns; k++) {
            double v;
            int yr;

            if (xi >= s[k].n)
                continue;
            v = s[k].y[xi];
            if (!isfinite(v) || v < 0)
                continue;
            yr = (int)lround(v / ymax * (ph - 1));
            row = y0 - 1 - yr;
            if (k > 0 && row == first_row)
                canvas_put(c, x0 + 1 + col, row, widget_glyph(c, GL_BOTH),
                           s[0].el);
            else
                canvas_put(c, x0 + 1 + col, row, s[k].ch, s[k].el);
            if (k == 0)
                first_row = row;
        }
    }
    /* the mark's label on the top row, beside the line where it fits */
    if (mark_x >= 0) {
        char b[48];
        int tw;

        snprintf(b, sizeof(b), "payback %.3g%s%s", mark, xunit ? " " : "",
                 xunit ? xunit : "");
        tw = canvas_text_width(b);
        if (mark_x + 2 + tw <= x0 + pw)
            canvas_text(c, mark_x + 2, r.y, -1, b, THEME_CHART_MARK);
        else if (mark_x - 1 - tw > x0)
            canvas_text(c, mark_x - 1 - tw, r.y, -1, b, THEME_CHART_MARK);
    }
}

void widget_table_xs(struct rect r, const struct table_col *cols, size_t ncols,
                     int *xs)
{
    size_t j;
    int x = r.x;

    for (j = 0; j < ncols; j++) {
        xs[j] = x;
        if (cols[j].width < 0)
            continue; /* dropped by widget_table_fit */
        x += (cols[j].width > 0 ? cols[j].width : r.x + r.w - x) + 1;
        if (x > r.x + r.w + 1)
            x = r.x + r.w + 1;
    }
    xs[ncols] = x;
}

/* Drop (width -1) the shown column of the lowest drop level in [lo, hi],
 * the rightmost first among equals; false when none is left. */
static bool drop_one(struct table_col *out, const int *drop, size_t ncols,
                     int lo, int hi, int *total)
{
    size_t j, k = ncols;

    for (j = 0; j < ncols; j++)
        if (out[j].width >= 0 && drop[j] >= lo && drop[j] <= hi &&
            (k == ncols || drop[j] <= drop[k]))
            k = j;
    if (k == ncols)
        return false;
    *total -= out[k].width + 1;
    out[k].width = -1;
    return true;
}

/* Narrow the widest word column above floor by one; false when none. */
static bool narrow_one(struct table_col *out, const struct table_col *cols,
                       size_t ncols, int floor_w, int *total)
{
    size_t j, k = ncols;

    for (j = 0; j < ncols; j++)
        if (!cols[j].align && out[j].width > floor_w &&
            (k == ncols || out[j].width > out[k].width))
            k = j;
    if (k == ncols)
        return false;
    out[k].width--;
    (*total)--;
    return true;
}

void widget_table_fit(struct table_col *out, const struct table_col *cols,
                      const int *drop, size_t ncols, size_t nrows,
                      table_cell_fn cell, void *ctx, int w)
{
    int cellw[64], total = 0;
    size_t i, j;

    if (ncols > 63)
        ncols = 63;
    for (j = 0; j < ncols; j++) {
        out[j] = cols[j];
        cellw[j] = 1;
        for (i = 0; i < nrows; i++) {
            char buf[256];
            int el = 0, cw;
            const char *t;

            buf[0] = '\0';
            t = cell(ctx, i, j, buf, sizeof(buf), &el);
            cw = t ? canvas_text_width(t) : 0;
            cellw[j] = cw > cellw[j] ? cw : cellw[j];
        }
        out[j].width = cellw[j];
        if (canvas_text_width(cols[j].title) > out[j].width)
            out[j].width = canvas_text_width(cols[j].title);
        total += out[j].width + 1;
    }
    /* titles give way */
    for (j = 0; j < ncols && total > w; j++) {
        total -= out[j].width - cellw[j];
        out[j].width = cellw[j];
    }
    /* then the words, the widest first, down to their given width */
    while (total > w) {
        size_t k = ncols;

        for (j = 0; j < ncols; j++)
            if (!cols[j].align && out[j].width > cols[j].width &&
                (k == ncols || out[j].width > out[k].width))
                k = j;
        if (k == ncols)
            break;
        out[k].width--;
        total--;
    }
    if (!drop)
        return;
    /* then, as htop does, the columns of least value go (level 1), the
     * words narrow to TABLE_WORD_MIN, and the other droppable columns
     * go in their order: what is shown is never cut */
    while (total > w && drop_one(out, drop, ncols, 1, 1, &total))
        ;
    while (total > w && narrow_one(out, cols, ncols, TABLE_WORD_MIN, &total))
        ;
    while (total > w && drop_one(out, drop, ncols, 2, INT_MAX, &total))
        ;
    /* the room a dropped column leaves goes back to the words */
    while (total < w) {
        size_t k = ncols;

        for (j = 0; j < ncols; j++)
            if (!cols[j].align && out[j].width >= 0 &&
                out[j].width < cellw[j] &&
                (k == ncols || cellw[j] - out[j].width >
                                   cellw[k] - out[k].width))
                k = j;
        if (k == ncols)
            break;
        out[k].width++;
        total++;
    }
}

#define CELL_HIDDEN INT_MIN       /* a column dropped to fit (width < 0) */
#define CELL_PAST (INT_MIN + 1) /* a column that starts past the right edge */

/* The width column j of a table laid out at xs gets inside r, clipped at
 * r's right edge; CELL_HIDDEN or CELL_PAST when it is not drawn. */
static int cell_width(const struct table_col *cols, const int *xs, size_t j,
                      struct rect r)
{
    int w = xs[j + 1] - xs[j] - 1;

    if (cols[j].width < 0)
        return CELL_HIDDEN;
    if (xs[j] >= r.x + r.w)
        return CELL_PAST;
    if (xs[j] + w > r.x + r.w)
        w = r.x + r.w - xs[j];
    return w;
}

int widget_table(struct canvas *c, struct rect r, const struct table_col *cols,
                 size_t ncols, size_t nrows, size_t top, size_t sel,
                 int cursor_el, int sort, table_cell_fn cell, void *ctx)
{
    int xs[64];
    size_t j, i;
    int row, shown = 0;

    if (ncols > 63)
        ncols = 63;
    widget_table_xs(r, cols, ncols, xs);
    canvas_fill(c, (struct rect){r.x, r.y, r.w, 1}, ' ', THEME_TABLE_HEADER);
    for (j = 0; j < ncols; j++) {
        int w = cell_width(cols, xs, j, r);
        int el = (int)j == sort ? THEME_SORTED : THEME_TABLE_HEADER;

        if (w == CELL_HIDDEN)
            continue;
        if (w == CELL_PAST)
            break;
        widget_text(c, xs[j], r.y, w, cols[j].title, el, cols[j].align);
    }
    for (row = 1, i = top; row < r.h && i < nrows; row++, i++) {
        int base = i == sel ? cursor_el : THEME_NORMAL;

        if (i == sel)
            canvas_fill(c, (struct rect){r.x, r.y + row, r.w, 1}, ' ', base);
        for (j = 0; j < ncols; j++) {
            char buf[256];
            int el = base;
            const char *t;
            int w = cell_width(cols, xs, j, r);

            if (w == CELL_HIDDEN)
                continue;
            if (w == CELL_PAST)
                break;
            buf[0] = '\0';
            t = cell(ctx, i, j, buf, sizeof(buf), &el);
            if (i == sel)
                el = base;
            widget_text(c, xs[j], r.y + row, w, t ? t : "", el, cols[j].align);
        }
        shown++;
    }
    return shown;
}

size_t widget_funcbar(struct canvas *c, int y, int w, const struct funckey *k,
                      size_t n, int *xs)
{
    size_t i;
    int x = 0;

    canvas_fill(c, (struct rect){0, y, w, 1}, ' ', THEME_KEY_LABEL);
    for (i = 0; i < n; i++) {
        int kw = canvas_text_width(k[i].key);
        int lw = canvas_text_width(k[i].label);

        lw = lw < 6 ? 6 : lw + 1;
        if (x + kw + lw > w)
            break;
        if (xs)
            xs[i] = x;
        canvas_text(c, x, y, kw, k[i].key, THEME_KEY);
        canvas_text(c, x + kw, y, lw, k[i].label, THEME_KEY_LABEL);
        x += kw + lw;
    }
    if (xs)
        xs[i] = x;
    return i;
}

int widget_list_move(size_t *sel, size_t n, size_t page, enum action a)
{
    size_t last = n ? n - 1 : 0;

    switch (a) {
    case ACT_UP:
        if (*sel > 0)
            (*sel)--;
        return 1;
    case ACT_DOWN:
        if (*sel < last)
            (*sel)++;
        return 1;
    case ACT_PAGE_UP:
        *sel = *sel > page ? *sel - page : 0;
        return 1;
    case ACT_PAGE_DOWN:
        *sel = *sel + page < last ? *sel + page : last;
        return 1;
    case ACT_HOME:
        *sel = 0;
        return 1;
    case ACT_END:
        *sel = last;
        return 1;
    default:
        return 0;
    }
}
