/*
 * view_size.c - what to buy for the plan's model and tokens (app_size:
 * size_run, the pipeline of `llmplan size`): the frontier as a scatter
 * chart of time against cost (log scales, one letter per accelerator,
 * the selected point highlighted) with the table beside it.  A serving
 * plan's frontier is fleets for its peak: latency against cost a day,
 * energy per million output tokens in the table (no deadline).  l sets the
 * limits (deadline, budget, site power, objective, accelerators), r runs
 * again, x exports the answer (CSV or JSON, the exporters of `llmplan
 * size`), Enter makes the selected point the plan.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan/apply.h"
#include "ui/ui.h"
#include "ui/widgets.h"
#include "util/xalloc.h"

static const struct view_ops size_view_ops; /* defined at the end */

const struct view_ops *view_size(void)
{
    return &size_view_ops;
}

#define LEGEND_MAX 26
#define SIZE_VIEW_DEADLINE_DAYS 90

struct zv {
    struct size_result *res;
    struct size_opts opts;
    bool ran;
    enum cp_status st;
    struct diag d;
    struct plan sized; /* the plan the result belongs to */
    size_t sel, top;
    size_t nleg;
    char leg[LEGEND_MAX][CP_ID_MAX]; /* accelerators, in legend order */
};

static void *zv_open(struct ui *ui)
{
    struct zv *v = xcalloc(1, sizeof(*v));

    (void)ui;
    v->res = xcalloc(1, sizeof(*v->res));
    /* the view starts with a deadline, so that the first answer comes in
     * about a second (the bound skips the counts that cannot make it);
     * l changes it */
    v->opts.obj = OBJECTIVE_COST;
    v->opts.deadline_days = SIZE_VIEW_DEADLINE_DAYS;
    return v;
}

static void zv_close(struct ui *ui, void *st)
{
    struct zv *v = st;

    (void)ui;
    size_result_release(v->res);
    free(v->res);
    free(v);
}

static const struct size_point *pt_at(const struct zv *v, size_t i)
{
    return &v->res->pt[v->res->front[i]];
}

static char mark_of(struct zv *v, const char *accel)
{
    size_t i;

    for (i = 0; i < v->nleg; i++)
        if (strcmp(v->leg[i], accel) == 0)
            return (char)('a' + i);
    if (v->nleg < LEGEND_MAX) {
        snprintf(v->leg[v->nleg], CP_ID_MAX, "%s", accel);
        return (char)('a' + v->nleg++);
    }
    return '*';
}

/* The limits size_run gets: a serving fleet has no deadline (the view's
 * starting deadline is for training runs). */
static struct size_opts effective(const struct ui *ui, const struct zv *v)
{
    struct size_opts o = v->opts;

    if (plan_is_serve(&ui->plan))
        o.deadline_days = 0;
    return o;
}

static void run(struct ui *ui, struct zv *v)
{
    struct size_opts o = effective(ui, v);
    size_t i;

    diag_clear(&v->d);
    v->st = app_size(ui, &o, v->res, &v->d);
    v->ran = true;
    v->sized = ui->plan;
    v->sel = 0;
    v->top = 0;
    v->nleg = 0;
    if (!v->st)
        for (i = 0; i < v->res->nfront; i++)
            mark_of(v, pt_at(v, i)->accel);
}

static bool current(const struct ui *ui, const struct zv *v)
{
    return v->ran && memcmp(&v->sized, &ui->plan, sizeof(ui->plan)) == 0;
}

static const char *money(double x, char *b, size_t n)
{
    if (x >= 1e9)
        snprintf(b, n, "$%.1fB", x / 1e9);
    else if (x >= 1e6)
        snprintf(b, n, "$%.1fM", x / 1e6);
    else if (x >= 1e3)
        snprintf(b, n, "$%.0fK", x / 1e3);
    else
        snprintf(b, n, "$%.0f", x);
    return b;
}

/* The chart's axes: days and cost of a run; a serving fleet's latency
 * (one request, end to end) and cost a day. */
static double x_of(const struct zv *v, const struct size_point *p)
{
    return v->res->serve ? p->e2e_s : p->days;
}

static double y_of(const struct zv *v, const struct size_point *p)
{
    return v->res->serve ? p->usd_day : p->usd;
}

/* The scatter: x = days, y = cost, both on log scales. */
static void draw_chart(struct ui *ui, struct zv *v, struct canvas *c,
                       struct rect r)
{
    double x0 = HUGE_VAL, x1 = 0, y0 = HUGE_VAL, y1 = 0;
    int ax, ay, pw, ph, lw = 8;
    size_t i;
    char b[32];

    (void)ui;
    for (i = 0; i < v->res->nfront; i++) {
        const struct size_point *p = pt_at(v, i);

        x0 = fmin(x0, x_of(v, p));
        x1 = fmax(x1, x_of(v, p));
        y0 = fmin(y0, y_of(v, p));
        y1 = fmax(y1, y_of(v, p));
    }
    if (!(x0 > 0) || !(y0 > 0) || r.w < 24 || r.h < 6)
        return;
    /* a little room on both ends */
    x0 /= 1.1;
    x1 *= 1.1;
    y0 /= 1.1;
    y1 *= 1.1;
    ax = r.x + lw;      /* the y axis column */
    ay = r.y + r.h - 4; /* the x axis row; labels and two legend rows */
    pw = r.x + r.w - ax - 2;
    ph = ay - r.y;
    if (pw < 10 || ph < 3)
        return;
    for (i = 0; i < (size_t)ph; i++)
        canvas_put(c, ax, r.y + (int)i, widget_glyph(c, GL_VLINE),
                   THEME_CHART_AXIS);
    for (i = 0; i <= (size_t)pw; i++)
        canvas_put(c, ax + (int)i, ay, widget_glyph(c, GL_HLINE),
                   THEME_CHART_AXIS);
    canvas_put(c, ax, ay, '+', THEME_CHART_AXIS);
    widget_text(c, r.x, r.y, lw - 1, money(y1, b, sizeof(b)), THEME_CHART_AXIS,
                1);
    widget_text(c, r.x, ay - 1, lw - 1, money(y0, b, sizeof(b)),
                THEME_CHART_AXIS, 1);
    snprintf(b, sizeof(b), v->res->serve ? "%.1f s" : "%.0f d", x0);
    canvas_text(c, ax + 1, ay + 1, -1, b, THEME_CHART_AXIS);
    snprintf(b, sizeof(b), v->res->serve ? "%.1f s" : "%.0f days", x1);
    canvas_text(c, ax + pw - canvas_text_width(b) + 1, ay + 1, -1, b,
                THEME_CHART_AXIS);
    canvas_text(c, ax + pw / 2 - 8, ay + 1, -1,
                v->res->serve ? "latency (log) ->" : "time (log) ->",
                THEME_CHART_AXIS);
    /* the points, the selected one last so that it shows */
    for (i = 0; i <= v->res->nfront; i++) {
        size_t k = i < v->res->nfront ? i : v->sel;
        const struct size_point *p;
        double fx, fy;
        int px, py;

        if (k >= v->res->nfront || (i < v->res->nfront && i == v->sel))
            continue;
        p = pt_at(v, k);
        fx = log(x_of(v, p) / x0) / log(x1 / x0);
        fy = log(y_of(v, p) / y0) / log(y1 / y0);
        px = ax + 1 + (int)lround(fx * (pw - 1));
        py = ay - 1 - (int)lround(fy * (ph - 1));
        canvas_put(c, px, py, (uint32_t)mark_of(v, p->accel),
                   k == v->sel ? THEME_CURSOR : THEME_CHART_MARK);
        ui_hit(ui, (struct rect){px, py, 1, 1}, ACT_NONE, (int)k);
    }
    /* the legend under the axis */
    {
        int x = r.x, y = ay + 2;

        for (i = 0; i < v->nleg; i++) {
            snprintf(b, sizeof(b), "%c %s  ", (char)('a' + i), v->leg[i]);
            if (x + canvas_text_width(b) > r.x + r.w) {
                if (y == ay + 3)
                    break;
                x = r.x;
                y++;
            }
            x += canvas_text(c, x, y, -1, b, THEME_DIM);
        }
    }
}

enum col {
    C_N,
    C_MARK,
    C_ACCEL,
    C_GPUS,
    C_BUY,
    C_DAYS,
    C_COST,
    C_CASH,
    C_MWH,
    C_COUNT
};

static const struct table_col cols[C_COUNT] = {
    {"#", 3, 1},     {"", 1, 0},     {"accel", 10, 0},
    {"gpus", 6, 1},  {"buy", 30, 0}, {"days", 9, 1},
    {"cost", 15, 1}, {"cash", 8, 1}, {"MWh", 11, 1},
};

/* A serving plan's table: the same columns, a fleet's figures. */
static const struct table_col serve_cols[C_COUNT] = {
    {"#", 3, 1},        {"", 1, 0},     {"accel", 10, 0},
    {"gpus", 6, 1},     {"buy", 30, 0}, {"e2e s", 6, 1},
    {"USD/day", 15, 1}, {"cash", 8, 1}, {"Wh/Mtok", 11, 1},
};

/* When the table is narrower than its columns (80 columns, or beside
 * the chart), what gives way, as htop drops meters: the energy first,
 * then the buy column narrows, then the GPU count, the time and the
 * chart's letter; the row number, accelerator, what to buy, cost and
 * cash always show whole (widget_table_fit). */
static const int col_drop[C_COUNT] = {
    [C_MWH] = 1, [C_GPUS] = 2, [C_DAYS] = 3, [C_MARK] = 4,
};

static const char *cell(void *ctx, size_t row, size_t c, char *buf, size_t n,
                        int *el)
{
    struct ui *ui = ctx;
    struct zv *v = ui->vdata[VIEW_SIZE];
    const struct size_point *p = pt_at(v, row);
    char a[16], b[16];

    switch (c) {
    case C_N:
        snprintf(buf, n, "%zu", row + 1);
        return buf;
    case C_MARK:
        snprintf(buf, n, "%c", mark_of(v, p->accel));
        return buf;
    case C_ACCEL:
        return p->accel;
    case C_GPUS:
        snprintf(buf, n, "%llu", (unsigned long long)p->gpus);
        return buf;
    case C_BUY: /* whole units x GPUs each: servers, racks, instances */
        if (p->hybrid)
            snprintf(buf, n, "own %llux%llu + %s %s%s",
                     (unsigned long long)p->units,
                     (unsigned long long)p->unit_gpus, p->offer,
                     term_name(p->term), p->capacity_gpus ? "" : " cap?");
        else if (p->rented)
            snprintf(buf, n, "%llux%llu %s %s%s", (unsigned long long)p->units,
                     (unsigned long long)p->unit_gpus, p->offer,
                     term_name(p->term), p->capacity_gpus ? "" : " cap?");
        else
            snprintf(buf, n, "own %llux%llu %s", (unsigned long long)p->units,
                     (unsigned long long)p->unit_gpus, p->system);
        return buf;
    case C_CASH:
        return money(p->cash, buf, n);
    case C_DAYS:
        if (v->res->serve)
            snprintf(buf, n, "%.1f", p->e2e_s);
        else
            snprintf(buf, n, "%.0f-%.0f", p->days_lo, p->days_hi);
        if (p->overlaps >= 0)
            *el = THEME_VALUE_WARN;
        return buf;
    case C_COST:
        if (v->res->serve)
            snprintf(buf, n, "%s-%s", money(p->usd_day_lo, a, sizeof(a)),
                     money(p->usd_day_hi, b, sizeof(b)));
        else
            snprintf(buf, n, "%s-%s", money(p->usd_lo, a, sizeof(a)),
                     money(p->usd_hi, b, sizeof(b)));
        return buf;
    case C_MWH:
        if (v->res->serve)
            snprintf(buf, n, "%.0f-%.0f", p->wh_mtok_lo, p->wh_mtok_hi);
        else
            snprintf(buf, n, "%.0f-%.0f", p->mwh_lo, p->mwh_hi);
        return buf;
    default:
        return "";
    }
}

static void zv_draw(struct ui *ui, void *st, struct canvas *c, struct rect r)
{
    struct zv *v = st;
    char title[256], lim[160];
    struct size_opts eo = effective(ui, v);
    struct table_col tc[C_COUNT];
    int cw;

    app_size_limits_text(&eo, lim, sizeof(lim));
    snprintf(title, sizeof(title), "What to buy for %s: %s%s", ui->plan.name,
             lim,
             v->ran && !current(ui, v) ? " - plan changed, r to redo" : "");
    widget_heading(c, (struct rect){r.x, r.y, r.w, 1}, title, 1);
    r.y++;
    r.h--;
    if (!v->ran || v->st) {
        if (v->ran)
            canvas_printf(c, r.x + 1, r.y + 1, r.w - 2, THEME_VALUE_BAD,
                          "no answer: %s%s%s", v->d.where,
                          v->d.where[0] ? ": " : "", v->d.msg);
        else
            canvas_text(c, r.x + 1, r.y + 1, r.w - 2, "sizing...", THEME_DIM);
        return;
    }
    if (!v->res->nfront) {
        canvas_text(c, r.x + 1, r.y + 1, r.w - 2,
                    "nothing meets the limits (l to change them)",
                    THEME_VALUE_BAD);
        if (v->res->nearest >= 0) {
            const struct size_point *p = &v->res->pt[v->res->nearest];

            if (v->res->serve)
                canvas_printf(c, r.x + 1, r.y + 2, r.w - 2, THEME_NORMAL,
                              "closest: %s x %llu %s: %s ($%.0f a day)",
                              p->accel, (unsigned long long)p->gpus,
                              p->rented || p->hybrid ? p->offer : "owned",
                              size_why_name(p->why), p->usd_day);
            else
                canvas_printf(c, r.x + 1, r.y + 2, r.w - 2, THEME_NORMAL,
                              "closest: %s x %llu %s: %s (%.1f days, $%.2fM)",
                              p->accel, (unsigned long long)p->gpus,
                              p->rented ? p->offer : "owned",
                              size_why_name(p->why), p->days, p->usd / 1e6);
        }
        return;
    }
    /* the chart on the left, the table on the right (stacked when narrow);
     * the columns as wide as their figures */
    cw = r.w >= 110 ? r.w * 2 / 5 : 0;
    widget_table_fit(tc, v->res->serve ? serve_cols : cols, col_drop,
                     C_COUNT, v->res->nfront, cell, ui,
                     cw ? r.w - cw - 1 : r.w - 2);
    if (cw) {
        draw_chart(ui, v, c, (struct rect){r.x + 1, r.y, cw - 2, r.h});
        widget_scroll(v->sel, v->res->nfront, r.h - 1, &v->top);
        widget_table(c, (struct rect){r.x + cw, r.y, r.w - cw - 1, r.h}, tc,
                     C_COUNT, v->res->nfront, v->top, v->sel, THEME_CURSOR, -1,
                     cell, ui);
        {
            size_t j;

            for (j = 0; j + v->top < v->res->nfront && (int)j < r.h - 1; j++)
                ui_hit(ui,
                       (struct rect){r.x + cw, r.y + 1 + (int)j, r.w - cw, 1},
                       ACT_NONE, (int)(v->top + j));
        }
    } else {
        int ch = r.h / 2;

        draw_chart(ui, v, c, (struct rect){r.x + 1, r.y, r.w - 2, ch});
        widget_scroll(v->sel, v->res->nfront, r.h - ch - 1, &v->top);
        widget_table(c, (struct rect){r.x + 1, r.y + ch, r.w - 2, r.h - ch}, tc,
                     C_COUNT, v->res->nfront, v->top, v->sel, THEME_CURSOR, -1,
                     cell, ui);
    }
}

static void zv_show(struct ui *ui, void *st)
{
    struct zv *v = st;

    if (!current(ui, v))
        run(ui, v);
}

static unsigned limits_done(struct ui *ui, int tag, const char *value,
                            int index)
{
    struct zv *v = ui->vdata[VIEW_SIZE];
    struct diag d;

    (void)tag;
    (void)index;
    if (!value)
        return UI_REDRAW;
    if (app_size_limits_parse(value, &v->opts, &d) != CP_OK) {
        ui_status(ui, true, "%s: %s", d.where, d.msg);
        return UI_REDRAW;
    }
    run(ui, v);
    return UI_REDRAW;
}

static enum cp_status export_write(struct ui *ui, int tag, const char *path,
                                   struct diag *d)
{
    struct zv *v = ui->vdata[VIEW_SIZE];

    (void)tag;
    return app_size_export(ui, v->res, path, d);
}

static unsigned export_done(struct ui *ui, int tag, const char *value,
                            int index)
{
    (void)index;
    if (!value || !value[0])
        return UI_REDRAW;
    return ui_export_to(ui, tag, value, export_write);
}

static unsigned zv_handle(struct ui *ui, void *st, enum action a,
                          const struct ui_event *ev)
{
    struct zv *v = st;
    size_t n = v->ran && !v->st ? v->res->nfront : 0;
    size_t page = (size_t)(ui->cv.h > 10 ? ui->cv.h - 8 : 2);
    char lim[160];

    if (widget_list_move(&v->sel, n, page, a))
        return UI_REDRAW;
    switch (a) {
    case ACT_NONE:
        if (ev->key != UK_MOUSE || ev->index < 0 || (size_t)ev->index >= n)
            return 0;
        if ((size_t)ev->index == v->sel)
            return zv_handle(ui, st, ACT_ENTER, ev);
        v->sel = (size_t)ev->index;
        return UI_REDRAW;
    case ACT_SEARCH_RUN:
        run(ui, v);
        return UI_REDRAW;
    case ACT_SIZE_LIMITS: {
        struct size_opts eo = effective(ui, v);

        app_size_limits_text(&eo, lim, sizeof(lim));
        ui_prompt(ui, 0,
                  plan_is_serve(&ui->plan)
                      ? "serving limits: budget=cash budget_run=USD/day "
                        "site_mw= rack_kw= gpus_max= objective= accel=a,b"
                      : "limits: deadline= budget=cash budget_run= site_mw= "
                        "rack_kw= gpus_max= objective= accel=a,b",
                  lim, limits_done, NULL);
        return UI_REDRAW;
    }
    case ACT_EXPORT:
        if (!v->ran || v->st) {
            ui_status(ui, true, "export: no answer to export");
            return UI_REDRAW;
        }
        snprintf(lim, sizeof(lim), "%s-size.csv", ui->plan.name);
        ui_prompt(ui, 0, "export the answer to (.csv or .json)", lim,
                  export_done, NULL);
        return UI_REDRAW;
    case ACT_ENTER:
        if (v->sel >= n)
            return UI_REDRAW;
        if (!current(ui, v)) {
            ui_status(ui, true, "the plan changed since sizing: r sizes again");
            return UI_REDRAW;
        }
        {
            struct size_point pt = *pt_at(v, v->sel);
            unsigned rc = app_size_apply(ui, &pt);

            ui_switch(ui, VIEW_PLAN);
            return rc;
        }
    default:
        return 0;
    }
}

static const struct view_ops size_view_ops = {
    .name = "size",
    .id = VIEW_SIZE,
    .open = zv_open,
    .draw = zv_draw,
    .handle = zv_handle,
    .show = zv_show,
    .close = zv_close,
};
