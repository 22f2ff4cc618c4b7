/*
 * view_search.c - the best parallel layouts for the plan (app_search:
 * plan_search_layouts, the pipeline of `llmplan search`, so the layout
 * keys the plan fixes are held; with progress and Esc to cancel), as a
 * table sortable by any column.  Enter applies
 * the selected layout to the plan and shows it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui/ui.h"
#include "ui/widgets.h"
#include "util/xalloc.h"

static const struct view_ops search_view_ops; /* defined at the end */

const struct view_ops *view_search(void)
{
    return &search_view_ops;
}

enum col {
    C_RANK,
    C_TP,
    C_PP,
    C_DP,
    C_CP,
    C_EP,
    C_MB,
    C_V,
    C_SP,
    C_RECOMPUTE,
    C_ZERO,
    C_MEM,
    C_STEP,
    C_MFU,
    C_DAYS,
    C_COST,
    C_COUNT
};

static const struct table_col cols_narrow[C_COUNT] = {
    {"#", 3, 1},    {"tp", 2, 1},     {"pp", 2, 1},   {"dp", 5, 1},
    {"cp", 2, 1},   {"ep", 2, 1},     {"mb", 2, 1},   {"v", 2, 1},
    {"sp", 3, 0},   {"recomp", 6, 0}, {"z", 1, 1},    {"mem", 5, 1},
    {"step", 5, 1}, {"MFU", 6, 1},    {"days", 5, 1}, {"build USD", 0, 1},
};

/* 120 columns and more: every column, the build cost included */
static const struct table_col cols_mid[C_COUNT] = {
    {"rank", 4, 1},      {"tp", 3, 1},       {"pp", 3, 1},
    {"dp", 6, 1},        {"cp", 3, 1},       {"ep", 3, 1},
    {"micro", 5, 1},     {"v", 3, 1},        {"seq par", 7, 0},
    {"recompute", 9, 0}, {"zero", 4, 1},     {"mem GiB", 7, 1},
    {"step s", 7, 1},    {"MFU", 6, 1},      {"days", 7, 1},
    {"build USD", 12, 1},
};

/* 140 columns and more */
static const struct table_col cols_wide[C_COUNT] = {
    {"rank", 4, 1},        {"tp", 4, 1},
    {"pp", 4, 1},          {"dp", 6, 1},
    {"cp", 4, 1},          {"ep", 4, 1},
    {"microbatch", 10, 1}, {"interleave", 10, 1},
    {"seq par", 7, 0},     {"recompute", 10, 0},
    {"zero", 4, 1},        {"memory GiB", 10, 1},
    {"step s", 8, 1},      {"MFU", 7, 1},
    {"train days", 10, 1}, {"build run USD", 14, 1},
};

/* A serving plan's candidates reuse the columns with serving meanings:
 * replicas, GPUs, the engine's batch cap and the operating batch,
 * latency, throughput per GPU and price. */
static const struct table_col cols_serve[C_COUNT] = {
    {"rank", 4, 1},           {"tp", 3, 1},        {"pp", 3, 1},
    {"replicas", 8, 1},       {"GPUs", 7, 1},      {"ep", 3, 1},
    {"max batch", 9, 1},      {"batch", 7, 1},     {"fits", 4, 0},
    {"disagg", 6, 0},         {"TTFT ms", 8, 1},   {"memory GiB", 10, 1},
    {"TPOT ms", 8, 1},        {"tok/s/GPU", 9, 1}, {"$/M out", 8, 1},
    {"owned USD/day", 14, 1},
};

static bool serving(const struct ui *ui, size_t i)
{
    return ui->lay[i].r.workload == WORKLOAD_SERVE;
}

/* The sort key of column c for serving candidate i. */
static double serve_key(const struct ui_layout *l, int c)
{
    const struct serve_result *s = &l->r.serve;

    switch (c) {
    case C_DP:
        return s->replicas;
    case C_CP:
        return s->gpus;
    case C_MB:
        return s->max_batch;
    case C_V:
        return s->batch;
    case C_SP:
        return s->fits;
    case C_RECOMPUTE:
        return s->disaggregated;
    case C_ZERO:
        return s->ttft_ms;
    case C_STEP:
        return s->tpot_ms;
    case C_MFU:
        return s->output_tokens_per_s_per_gpu;
    case C_DAYS:
        return s->usd_per_mtok_build;
    case C_COST:
        return s->usd_per_day_build;
    default:
        return -1;
    }
}

struct sv {
    size_t order[UI_SEARCH_TOP];
    size_t sel, top;
    int sort;
    bool reverse;
};

static void *sv_open(struct ui *ui)
{
    (void)ui;
    return xcalloc(1, sizeof(struct sv));
}

static void sv_close(struct ui *ui, void *st)
{
    (void)ui;
    free(st);
}

/* The sort key of column c for layout i. */
static double key(const struct ui *ui, size_t i, int c)
{
    const struct ui_layout *l = &ui->lay[i];

    if (serving(ui, i) && serve_key(l, c) >= 0)
        return serve_key(l, c);
    switch (c) {
    case C_TP:
        return (double)l->hit.layout.tp;
    case C_PP:
        return (double)l->hit.layout.pp;
    case C_DP:
        return (double)l->hit.layout.dp;
    case C_CP:
        return (double)l->hit.layout.cp;
    case C_EP:
        return (double)l->hit.layout.ep;
    case C_MB:
        return (double)l->hit.layout.microbatch;
    case C_V:
        return (double)l->hit.layout.interleave;
    case C_SP:
        return (double)l->hit.layout.sequence_parallel;
    case C_RECOMPUTE:
        return (double)l->hit.layout.recompute;
    case C_ZERO:
        return (double)l->hit.layout.zero;
    case C_MEM:
        return app_metric(&l->r, "memory", "total_gib", NULL);
    case C_STEP:
        return app_metric(&l->r, "time", "step_s", NULL);
    case C_MFU:
        return app_metric(&l->r, "time", "mfu", NULL);
    case C_DAYS:
        return app_metric(&l->r, "reliability", "effective_train_days", NULL);
    case C_COST:
        return app_metric(&l->r, "cost.build", "run_usd", NULL);
    default:
        return (double)i;
    }
}

static void sort_rows(struct ui *ui, struct sv *v)
{
    size_t i, j;

    for (i = 0; i < ui->nlay; i++)
        v->order[i] = i;
    /* insertion sort: stable, and 50 rows */
    for (i = 1; i < ui->nlay; i++) {
        size_t x = v->order[i];
        double kx = key(ui, x, v->sort);

        for (j = i; j > 0; j--) {
            double kj = key(ui, v->order[j - 1], v->sort);

            if (v->reverse ? kj >= kx : kj <= kx)
                break;
            v->order[j] = v->order[j - 1];
        }
        v->order[j] = x;
    }
}

static bool is_current(const struct ui *ui, size_t i)
{
    const struct layout *a = &ui->lay[i].hit.layout;
    const struct layout *b = &ui->oc->result.layout;

    return ui->have_result && a->tp == b->tp && a->pp == b->pp &&
           a->dp == b->dp && a->cp == b->cp && a->ep == b->ep &&
           a->microbatch == b->microbatch && a->interleave == b->interleave &&
           a->recompute == b->recompute &&
           a->sequence_parallel == b->sequence_parallel && a->zero == b->zero;
}

static const char *cell(void *ctx, size_t row, size_t c, char *buf, size_t n,
                        int *el)
{
    struct ui *ui = ctx;
    struct sv *v = ui->vdata[VIEW_SEARCH];
    size_t i = v->order[row];
    const struct ui_layout *l = &ui->lay[i];
    const struct layout *lay = &l->hit.layout;

    if (serving(ui, i) && c != C_RANK) {
        switch (c) {
        case C_SP:
            if (!l->r.serve.fits)
                *el = THEME_VALUE_BAD;
            return l->r.serve.fits ? "yes" : "no";
        case C_RECOMPUTE:
            return l->r.serve.disaggregated ? "yes" : "no";
        case C_TP:
        case C_PP:
        case C_DP:
        case C_CP:
        case C_EP:
        case C_MB:
            snprintf(buf, n, "%.0f", key(ui, i, (int)c));
            return buf;
        default:
            return ui_num(key(ui, i, (int)c), buf, n);
        }
    }
    switch (c) {
    case C_RANK:
        snprintf(buf, n, "%s%zu", is_current(ui, i) ? "*" : "", i + 1);
        if (is_current(ui, i))
            *el = THEME_BEST;
        return buf;
    case C_RECOMPUTE:
        return recompute_name(lay->recompute);
    case C_SP:
        return lay->sequence_parallel ? "yes" : "no";
    case C_ZERO:
        snprintf(buf, n, "%d", lay->zero);
        return buf;
    case C_MEM:
        if (!l->hit.fits)
            *el = THEME_VALUE_BAD;
        return ui_num(key(ui, i, (int)c), buf, n);
    case C_TP:
    case C_PP:
    case C_DP:
    case C_CP:
    case C_EP:
    case C_MB:
    case C_V:
        snprintf(buf, n, "%.0f", key(ui, i, (int)c));
        return buf;
    default:
        return ui_num(key(ui, i, (int)c), buf, n);
    }
}

static void sv_draw(struct ui *ui, void *st, struct canvas *c, struct rect r)
{
    struct sv *v = st;
    const struct table_col *cols = ui->nlay && serving(ui, 0) ? cols_serve
                                   : r.w >= 140               ? cols_wide
                                   : r.w >= 120               ? cols_mid
                                                              : cols_narrow;
    char title[256], a[32], b[32];
    int xs[C_COUNT + 1];
    size_t j;

    if (ui->searched)
        snprintf(title, sizeof(title),
                 "Layouts of %s: %s checked, %s fit, best %zu by %s%s",
                 ui->plan.name,
                 ui_num((double)ui->sr->candidates, a, sizeof(a)),
                 ui_num((double)ui->sr->feasible, b, sizeof(b)), ui->nlay,
                 ui->nlay && serving(ui, 0) ? "tokens/s per GPU" : "step time",
                 app_search_current(ui) ? "" : " - plan changed, r to redo");
    else
        snprintf(title, sizeof(title), "Layouts of %s", ui->plan.name);
    widget_heading(c, (struct rect){r.x, r.y, r.w, 1}, title, 1);
    r.y++;
    r.h--;
    if (!ui->searched) {
        if (ui->search_st && ui->search_st != CP_ERR_CANCELLED)
            canvas_printf(c, r.x + 1, r.y + 1, r.w - 2, THEME_VALUE_BAD,
                          "no search: %s%s%s", ui->search_diag.where,
                          ui->search_diag.where[0] ? ": " : "",
                          ui->search_diag.msg);
        else
            canvas_text(c, r.x + 1, r.y + 1, r.w - 2,
                        ui->search_st == CP_ERR_CANCELLED
                            ? "search cancelled; r searches again"
                            : "searching...",
                        THEME_DIM);
        return;
    }
    if (!ui->sr->fits)
        widget_text(c, r.x + 1, r.y + r.h - 1, r.w - 2,
                    "no layout fits in memory: the one that needs the least "
                    "is shown",
                    THEME_VALUE_BAD, 0);
    widget_scroll(v->sel, ui->nlay, r.h - 1, &v->top);
    widget_table(c, (struct rect){r.x + 1, r.y, r.w - 2, r.h}, cols, C_COUNT,
                 ui->nlay, v->top, v->sel, THEME_CURSOR, v->sort, cell, ui);
    widget_table_xs((struct rect){r.x + 1, r.y, r.w - 2, r.h}, cols, C_COUNT,
                    xs);
    for (j = 0; j < C_COUNT; j++)
        ui_hit(ui, (struct rect){xs[j], r.y, xs[j + 1] - xs[j], 1}, ACT_NONE,
               10000 + (int)j);
    for (j = 0; j + v->top < ui->nlay && (int)j < r.h - 1; j++)
        ui_hit(ui, (struct rect){r.x, r.y + 1 + (int)j, r.w, 1}, ACT_NONE,
               (int)(v->top + j));
}

static void sv_show(struct ui *ui, void *st)
{
    struct sv *v = st;

    if (!app_search_current(ui)) {
        app_search(ui);
        v->sel = 0;
        v->top = 0;
    }
    sort_rows(ui, v);
}

static unsigned sv_handle(struct ui *ui, void *st, enum action a,
                          const struct ui_event *ev)
{
    struct sv *v = st;
    size_t page = (size_t)(ui->cv.h > 10 ? ui->cv.h - 8 : 2);

    if (widget_list_move(&v->sel, ui->nlay, page, a))
        return UI_REDRAW;
    switch (a) {
    case ACT_NONE:
        if (ev->key != UK_MOUSE)
            return 0;
        if (ev->index >= 10000) {
            int c = ev->index - 10000;

            v->reverse = v->sort == c ? !v->reverse : false;
            v->sort = c;
            sort_rows(ui, v);
        } else if (ev->index >= 0) {
            if ((size_t)ev->index == v->sel)
                return sv_handle(ui, st, ACT_ENTER, ev);
            v->sel = (size_t)ev->index;
        }
        return UI_REDRAW;
    case ACT_SORT_NEXT:
    case ACT_RIGHT:
        v->sort = (v->sort + 1) % C_COUNT;
        v->reverse = false;
        sort_rows(ui, v);
        return UI_REDRAW;
    case ACT_LEFT:
        v->sort = (v->sort + C_COUNT - 1) % C_COUNT;
        v->reverse = false;
        sort_rows(ui, v);
        return UI_REDRAW;
    case ACT_SORT_REVERSE:
        v->reverse = !v->reverse;
        sort_rows(ui, v);
        return UI_REDRAW;
    case ACT_SEARCH_RUN:
        app_search(ui);
        v->sel = 0;
        v->top = 0;
        sort_rows(ui, v);
        return UI_REDRAW;
    case ACT_ENTER:
        if (!ui->searched || v->sel >= ui->nlay)
            return UI_REDRAW;
        if (!app_search_current(ui)) {
            ui_status(ui, true,
                      "the plan changed since the search: r "
                      "searches again");
            return UI_REDRAW;
        }
        ui_switch(ui, VIEW_PLAN);
        return app_apply_layout(ui, v->order[v->sel]);
    default:
        return 0;
    }
}

static const struct view_ops search_view_ops = {
    .name = "search",
    .id = VIEW_SEARCH,
    .open = sv_open,
    .draw = sv_draw,
    .handle = sv_handle,
    .show = sv_show,
    .close = sv_close,
};
