/*
 * view_compare.c - up to four plans side by side: column 1 is the plan
 * as it is, the others the same plan with changes ("key=value ...", e.g.
 * another accelerator or cloud term).  Each row is a metric of the metric
 * table; the better value (metric.better) is highlighted.  Below, the
 * cumulative cost of the selected column over 60 months, build against
 * cloud, with the crossover marked.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/metrics.h"
#include "ui/ui.h"
#include "ui/widgets.h"
#include "util/xalloc.h"

static const struct view_ops compare_view_ops; /* defined at the end */

const struct view_ops *view_compare(void)
{
    return &compare_view_ops;
}

/* The rows shown first: what a planner compares. */
static const char *const key_rows[][2] = {
    {"memory", "total_gib"},
    {"memory", "fits"},
    {"time", "step_s"},
    {"time", "mfu"},
    {"time", "tokens_per_s"},
    {"reliability", "effective_train_days"},
    {"reliability", "goodput"},
    {"energy", "facility_mwh"},
    {"energy", "tco2e"},
    {"cost.build", "capex_usd"},
    {"cost.build", "run_usd"},
    {"cost.cloud", "run_usd"},
    {"cost.cloud", "usd_per_gpu_hour"},
    {"cost", "breakeven_months"},
    {"cost", "cheaper"},
};

#define NKEY (sizeof(key_rows) / sizeof(key_rows[0]))

/* ... for a serving plan. */
static const char *const serve_rows[][2] = {
    {"serve", "fits"},
    {"serve", "gpus"},
    {"serve", "ttft_ms"},
    {"serve", "tpot_ms"},
    {"serve", "output_tokens_per_s_per_gpu"},
    {"serve", "usd_per_mtok_build"},
    {"serve", "usd_per_mtok_cloud"},
    {"serve", "usd_per_day_build"},
    {"serve", "usd_per_day_cloud"},
    {"serve", "usd_per_day_hybrid"},
    {"serve", "wh_per_mtok"},
    {"energy", "facility_kw"},
    {"cost.build", "capex_usd"},
};

#define NSERVE (sizeof(serve_rows) / sizeof(serve_rows[0]))

struct cv {
    const struct metric *rows[NKEY + 256];
    size_t nrows, sel, top;
    size_t col; /* the chart's column */
};

/* The key rows of the plan's workload, then every metric it has. */
static void rows_build(struct cv *v, enum workload_kind w)
{
    size_t i, j, n, nk = w == WORKLOAD_SERVE ? NSERVE : NKEY;
    const struct metric *m = metrics_table(&n);
    const char *const(*keys)[2] = w == WORKLOAD_SERVE ? serve_rows : key_rows;

    v->nrows = 0;
    for (i = 0; i < nk; i++)
        for (j = 0; j < n; j++)
            if (strcmp(m[j].section, keys[i][0]) == 0 &&
                strcmp(m[j].key, keys[i][1]) == 0)
                v->rows[v->nrows++] = &m[j];
    for (j = 0; j < n && v->nrows < sizeof(v->rows) / sizeof(v->rows[0]); j++)
        if (metric_section_applies(m[j].section, w))
            v->rows[v->nrows++] = &m[j];
    if (v->sel >= v->nrows)
        v->sel = 0;
}

static void *cv_open(struct ui *ui)
{
    struct cv *v = xcalloc(1, sizeof(*v));

    rows_build(v, ui->have_result ? ui->oc->result.workload : WORKLOAD_TRAIN);
    return v;
}

static void cv_close(struct ui *ui, void *st)
{
    (void)ui;
    free(st);
}

static void cv_show(struct ui *ui, void *st)
{
    static const char *const accels[] = {"h200-sxm", "b200", NULL};
    struct cv *v = st;
    size_t i;

    if (!ui->cmp_seeded) {
        const char *cur = ui->have_result ? ui->oc->res.sc.accel.id : "";
        char b[96];

        ui->cmp_seeded = true;
        ui->ncmp = 0;
        app_compare_add(ui, "", NULL);
        for (i = 0; accels[i]; i++)
            if (strcmp(cur, accels[i]) != 0 && ui->ncmp < 3) {
                snprintf(b, sizeof(b), "hardware.accelerator=%s", accels[i]);
                app_compare_add(ui, b, NULL);
            }
        app_compare_add(ui, "cloud.term=reserved_3y", NULL);
    }
    if (v->col >= ui->ncmp)
        v->col = 0;
    app_compare_eval(ui);
    rows_build(v, ui->have_result ? ui->oc->result.workload : WORKLOAD_TRAIN);
}

/* Column title: the plan's name, or the values its changes set. */
static void col_title(const struct ui *ui, size_t i, char *buf, size_t n)
{
    const char *p = ui->cmp[i].changes;
    size_t len = 0;

    if (i == 0 || !p[0]) {
        snprintf(buf, n, "%s", ui->plan.name);
        return;
    }
    buf[0] = '\0';
    while (*p && len + 1 < n) {
        const char *eq = strchr(p, '=');
        const char *end;

        if (!eq)
            break;
        end = eq + 1;
        while (*end && *end != ' ' && *end != ',')
            end++;
        len += (size_t)snprintf(buf + len, n - len, "%s%.*s", len ? " " : "",
                                (int)(end - eq - 1), eq + 1);
        while (*end == ' ' || *end == ',')
            end++;
        p = end;
    }
    if (!buf[0])
        snprintf(buf, n, "%s", ui->cmp[i].changes);
}

static const char *cell(const struct ui *ui, const struct metric *m, size_t i,
                        char *buf, size_t n)
{
    const char *t;

    if (ui->cmp[i].st)
        return "-";
    t = metric_text(m, &ui->cmp[i].oc.result);
    if (t[0])
        return t;
    if (m->kind == MK_BOOL)
        return metric_value(m, &ui->cmp[i].oc.result) ? "yes" : "no";
    return ui_num(metric_value(m, &ui->cmp[i].oc.result), buf, n);
}

/* Whether column i holds the better value of row m. */
static bool best(const struct ui *ui, const struct metric *m, size_t i)
{
    double bv = 0, v;
    size_t j, nok = 0;
    bool differ = false;

    if (m->better == MB_NONE || ui->cmp[i].st)
        return false;
    for (j = 0; j < ui->ncmp; j++) {
        if (ui->cmp[j].st)
            continue;
        v = metric_value(m, &ui->cmp[j].oc.result);
        if (nok && v != bv)
            differ = true;
        if (!nok || (m->better == MB_LOWER ? v < bv : v > bv))
            bv = v;
        nok++;
    }
    return differ && nok > 1 && metric_value(m, &ui->cmp[i].oc.result) == bv;
}

static const char *money(double v, char *buf, size_t n)
{
    static const struct {
        double div;
        const char *suf;
    } s[] = {{1e9, "B"}, {1e6, "M"}, {1e3, "K"}};
    size_t i;

    for (i = 0; i < 3; i++)
        if (v >= s[i].div) {
            snprintf(buf, n, "$%.3g%s", v / s[i].div, s[i].suf);
            return buf;
        }
    snprintf(buf, n, "$%.3g", v);
    return buf;
}

static void draw_chart(struct ui *ui, struct cv *v, struct canvas *c,
                       struct rect r)
{
    const struct ui_compare *cc = &ui->cmp[v->col];
    const struct result *res = &cc->oc.result;
    struct chart_series s[2];
    char title[200], t[64], b[64];
    int x;

    col_title(ui, v->col, t, sizeof(t));
    snprintf(title, sizeof(title), "Cumulative cost over %llu months: #%zu %s",
             (unsigned long long)(res->cost.series_months
                                      ? res->cost.series_months - 1
                                      : 0),
             v->col + 1, t);
    widget_heading(c, (struct rect){r.x, r.y, r.w, 1}, title, 0);
    if (cc->st) {
        canvas_printf(c, r.x + 1, r.y + 1, r.w - 2, THEME_VALUE_BAD,
                      "cannot evaluate: %s%s%s", cc->d.where,
                      cc->d.where[0] ? ": " : "", cc->d.msg);
        return;
    }
    s[0].y = res->cost.series_build_usd;
    s[0].n = res->cost.series_months;
    s[0].el = THEME_CHART_BUILD;
    s[0].ch = widget_glyph(c, GL_BUILD);
    s[0].name = "build";
    s[1].y = res->cost.series_cloud_usd;
    s[1].n = res->cost.series_months;
    s[1].el = THEME_CHART_CLOUD;
    s[1].ch = widget_glyph(c, GL_CLOUD);
    s[1].name = "cloud";
    /* legend */
    x = r.x + 1;
    canvas_put(c, x, r.y + 1, s[0].ch, s[0].el);
    x += 2 + canvas_text(c, x + 2, r.y + 1, -1, "build (own)", THEME_LABEL);
    canvas_put(c, x + 2, r.y + 1, s[1].ch, s[1].el);
    x += 4 + canvas_text(c, x + 4, r.y + 1, -1, "cloud (rent)", THEME_LABEL);
    canvas_put(c, x + 3, r.y + 1, widget_glyph(c, GL_VLINE), THEME_CHART_MARK);
    if (res->cost.breakeven_months_known &&
        res->cost.breakeven_months > 0 &&
        res->cost.breakeven_months < (double)res->cost.series_months)
        canvas_printf(c, x + 5, r.y + 1, r.x + r.w - x - 6, THEME_LABEL,
                      "discounted payback at %s months",
                      ui_num(res->cost.breakeven_months, b, sizeof(b)));
    else
        canvas_text(c, x + 5, r.y + 1, r.x + r.w - x - 6,
                    "no payback within the chart", THEME_DIM);
    widget_chart(c, (struct rect){r.x + 1, r.y + 2, r.w - 2, r.h - 2}, s, 2, 12,
                 "months", res->cost.breakeven_months, money);
}

static void cv_draw(struct ui *ui, void *st, struct canvas *c, struct rect r)
{
    struct cv *v = st;
    int th = r.h >= 40 ? r.h - r.h * 2 / 5 : r.h - 10;
    int cw, row, x, y, lw = 0, need = 10;
    size_t i, j;
    char b[64];
    const char *last = "";

    if (th > (int)v->nrows + 2)
        th = (int)v->nrows + 2;
    /* columns as wide as their numbers; the labels take what is left */
    for (i = 0; i < v->nrows; i++) {
        int w = canvas_text_width(v->rows[i]->section) + 1 +
                canvas_text_width(v->rows[i]->key) + 1 +
                canvas_text_width(v->rows[i]->unit);

        lw = w + 2 > lw ? w + 2 : lw;
        for (j = 0; j < ui->ncmp; j++) {
            w = canvas_text_width(cell(ui, v->rows[i], j, b, sizeof(b))) + 2;
            need = w > need ? w : need;
        }
    }
    if (ui->ncmp && lw > r.w - need * (int)ui->ncmp)
        lw = r.w - need * (int)ui->ncmp;
    if (lw < 12)
        lw = 12;
    cw = ui->ncmp ? (r.w - lw) / (int)ui->ncmp : 20;
    if (cw > 30 && cw > need)
        cw = need > 30 ? need : 30;
    widget_heading(c, (struct rect){r.x, r.y, r.w, 1},
                   "Compare (a add, Del remove, Enter change, Left/Right "
                   "chart)",
                   1);
    /* header */
    y = r.y + 1;
    canvas_fill(c, (struct rect){r.x, y, r.w, 1}, ' ', THEME_TABLE_HEADER);
    canvas_text(c, r.x + 1, y, lw - 2, "metric", THEME_TABLE_HEADER);
    for (i = 0; i < ui->ncmp; i++) {
        char t[64], h[80];

        col_title(ui, i, t, sizeof(t));
        snprintf(h, sizeof(h), "#%zu %s", i + 1, t);
        x = r.x + lw + (int)i * cw;
        widget_text(c, x, y, cw - 1, h,
                    i == v->col ? THEME_SORTED : THEME_TABLE_HEADER, 1);
        ui_hit(ui, (struct rect){x, y, cw, 1}, ACT_NONE, 10000 + (int)i);
    }
    /* rows */
    widget_scroll(v->sel, v->nrows, th - 2, &v->top);
    for (row = 0, i = v->top; row < th - 2 && i < v->nrows; row++, i++) {
        const struct metric *m = v->rows[i];
        int base = i == v->sel ? THEME_CURSOR : THEME_NORMAL;
        char label[96];

        y = r.y + 2 + row;
        if (i == v->sel)
            canvas_fill(c, (struct rect){r.x, y, r.w, 1}, ' ', base);
        if (i == NKEY)
            last = "";
        snprintf(label, sizeof(label), "%s%s%s",
                 strcmp(m->section, last) != 0 || i == v->top ? m->section : "",
                 strcmp(m->section, last) != 0 || i == v->top ? "." : " ",
                 m->key);
        last = m->section;
        widget_label_unit(c, r.x + 1, y, lw - 2, label, m->unit,
                          i == v->sel ? base : THEME_LABEL);
        for (j = 0; j < ui->ncmp; j++) {
            int el = best(ui, m, j)  ? THEME_BEST
                     : ui->cmp[j].st ? THEME_VALUE_BAD
                                     : THEME_VALUE;

            if (i == v->sel && el != THEME_BEST)
                el = base;
            widget_text(c, r.x + lw + (int)j * cw, y, cw - 1,
                        cell(ui, m, j, b, sizeof(b)), el, 1);
        }
        ui_hit(ui, (struct rect){r.x, y, r.w, 1}, ACT_NONE, (int)i);
    }
    if (ui->ncmp)
        draw_chart(ui, v, c, (struct rect){r.x, r.y + th, r.w, r.h - th});
}

static unsigned changes_done(struct ui *ui, int tag, const char *value, int idx)
{
    struct cv *v = ui->vdata[VIEW_COMPARE];
    struct diag d;

    (void)idx;
    if (!value)
        return UI_REDRAW;
    diag_clear(&d);
    if (tag >= 1 && (size_t)tag < ui->ncmp) {
        char old[256];

        snprintf(old, sizeof(old), "%s", ui->cmp[tag].changes);
        snprintf(ui->cmp[tag].changes, sizeof(ui->cmp[tag].changes), "%s",
                 value);
        app_compare_eval(ui);
        if (ui->cmp[tag].st && ui->cmp[tag].st != CP_ERR_LAYOUT &&
            ui->cmp[tag].st != CP_ERR_RANGE) {
            ui_status(ui, true, "%s: %s", ui->cmp[tag].d.where,
                      ui->cmp[tag].d.msg);
            snprintf(ui->cmp[tag].changes, sizeof(ui->cmp[tag].changes), "%s",
                     old);
            app_compare_eval(ui);
        }
        return UI_REDRAW;
    }
    if (app_compare_add(ui, value, &d)) {
        ui_status(ui, true, "%s%s%s", d.where, d.where[0] ? ": " : "", d.msg);
        return UI_REDRAW;
    }
    v->col = ui->ncmp - 1;
    app_compare_eval(ui);
    ui_status(ui, false, "plan #%zu added", ui->ncmp);
    return UI_REDRAW;
}

static unsigned variant_done(struct ui *ui, int tag, const char *value, int idx)
{
    (void)tag;
    if (!value)
        return UI_REDRAW;
    if (idx == 0) {
        ui_prompt(ui, -1, "changes to the plan (key=value ...)", "",
                  changes_done, NULL);
        return UI_REDRAW;
    }
    return changes_done(ui, -1, value, -1);
}

/* A picker of ready-made changes (another accelerator, cloud term,
 * precision), or free text. */
static void open_variants(struct ui *ui)
{
    struct ui_rows rows;
    struct ui_item *items;
    char(*text)[96];
    size_t n = 0, i, cap, nterm = 0, nprec = 0;
    const struct field_info *term = plan_key_info(PK_CLOUD_TERM);
    const struct field_info *prec = plan_key_info(PK_TRAIN_PRECISION);
    int name_col = app_catalog_col(CATALOG_ACCELERATORS, "name");

    if (app_catalog_rows(ui, CATALOG_ACCELERATORS, &rows, NULL))
        memset(&rows, 0, sizeof(rows));
    nterm = plan_enum_count(term);
    nprec = plan_enum_count(prec);
    cap = 1 + rows.n + nterm + nprec;
    items = xcalloc(cap, sizeof(*items));
    text = xcalloc(cap, sizeof(*text));
    items[n].text = "(type changes...)";
    items[n++].note = "key=value ... of the plan schema";
    for (i = 0; i < rows.n; i++) {
        snprintf(text[n], sizeof(text[n]), "hardware.accelerator=%s",
                 ui_rows_cell(&rows, i, 0));
        items[n].text = text[n];
        items[n].note =
            name_col >= 0 ? ui_rows_cell(&rows, i, (size_t)name_col) : NULL;
        n++;
    }
    for (i = 0; i < nterm; i++) {
        char c[32];

        snprintf(text[n], sizeof(text[n]), "cloud.term=%s",
                 plan_enum_choice(term, i, c, sizeof(c)));
        items[n].text = text[n];
        items[n++].note = "cloud pricing term";
    }
    for (i = 0; i < nprec; i++) {
        char c[32];

        snprintf(text[n], sizeof(text[n]), "train.precision=%s",
                 plan_enum_choice(prec, i, c, sizeof(c)));
        items[n].text = text[n];
        items[n++].note = "matmul precision";
    }
    ui_picker(ui, 0, "add a plan: the current one with (type to filter)", items,
              n, 0, variant_done);
    free(items);
    free(text);
    ui_rows_release(&rows);
}

static unsigned cv_handle(struct ui *ui, void *st, enum action a,
                          const struct ui_event *ev)
{
    struct cv *v = st;
    size_t page = (size_t)(ui->cv.h > 24 ? ui->cv.h / 2 : 8);

    if (widget_list_move(&v->sel, v->nrows, page, a))
        return UI_REDRAW;
    switch (a) {
    case ACT_NONE:
        if (ev->key != UK_MOUSE)
            return 0;
        if (ev->index >= 10000) {
            v->col = (size_t)(ev->index - 10000);
            return UI_REDRAW;
        }
        if (ev->index >= 0)
            v->sel = (size_t)ev->index;
        return UI_REDRAW;
    case ACT_LEFT:
    case ACT_PANE_PREV:
        if (ui->ncmp)
            v->col = (v->col + ui->ncmp - 1) % ui->ncmp;
        return UI_REDRAW;
    case ACT_RIGHT:
    case ACT_PANE_NEXT:
        if (ui->ncmp)
            v->col = (v->col + 1) % ui->ncmp;
        return UI_REDRAW;
    case ACT_COMPARE_ADD:
        if (ui->ncmp >= UI_COMPARE_MAX) {
            ui_status(ui, true, "compare: at most %d plans; Del removes one",
                      UI_COMPARE_MAX);
            return UI_REDRAW;
        }
        open_variants(ui);
        return UI_REDRAW;
    case ACT_ENTER:
        if (v->col == 0) {
            ui_status(ui, false,
                      "plan #1 is the plan itself: edit it in the "
                      "plan view (p)");
            return UI_REDRAW;
        }
        ui_prompt(ui, (int)v->col, "changes to the plan (key=value ...)",
                  ui->cmp[v->col].changes, changes_done, NULL);
        return UI_REDRAW;
    case ACT_COMPARE_REMOVE:
        if (v->col == 0) {
            ui_status(ui, true, "plan #1 is the plan itself and stays");
            return UI_REDRAW;
        }
        app_compare_remove(ui, v->col);
        if (v->col >= ui->ncmp)
            v->col = ui->ncmp - 1;
        return UI_REDRAW;
    default:
        return 0;
    }
}

static const struct view_ops compare_view_ops = {
    .name = "compare",
    .id = VIEW_COMPARE,
    .open = cv_open,
    .draw = cv_draw,
    .handle = cv_handle,
    .show = cv_show,
    .close = cv_close,
};
