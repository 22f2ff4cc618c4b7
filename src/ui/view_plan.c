/*
 * view_plan.c - the plan view: the plan's inputs as a form, grouped by
 * section in schema order (the plan key table), beside its results:
 * memory by component against capacity, step time by part, throughput,
 * time to train, goodput, energy, build and cloud cost.  At 160 columns
 * and more a third pane lists every metric of the metric table.
 *
 * Editing a field sets the plan key (app_set_key) and asks for
 * UI_RECOMPUTE; ui_loop.c evaluates once and every pane redraws.  Catalog ids,
 * enums and booleans open a picker; counts and numbers a prompt (typing a
 * digit starts one).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/metrics.h"
#include "plan/apply.h"
#include "ui/ui.h"
#include "ui/widgets.h"
#include "util/xalloc.h"

static const struct view_ops plan_view_ops; /* defined at the end */

const struct view_ops *view_plan(void)
{
    return &plan_view_ops;
}

#define LABEL_W 19
#define RESULTS_H 160
/* The row that stands for a preset model's architecture keys (layers,
 * hidden, heads, ...) while they are folded: at 80x24 the 19 of them
 * would push the workload and train.tokens below the first screen. */
#define ROW_ARCH PLAN_KEY_COUNT

struct pv {
    int rows[PLAN_KEY_COUNT + 16]; /* key, ROW_ARCH or -1 - section index */
    size_t nrows;
    size_t sel, top;
    int focus;               /* 0 form, 1 results, 2 metrics */
    size_t rtop, mtop;       /* results and metrics scroll */
    struct canvas off;       /* the results, drawn off screen */
    struct plan_value saved; /* the field as it was before typing */
    bool arch_open;          /* the architecture keys shown (Enter on it) */
};

/* A row the cursor stops on: a key or the architecture row. */
static bool is_key(const struct pv *pv, size_t i)
{
    return i < pv->nrows && pv->rows[i] >= 0;
}

/* The keys of the model's architecture: the model section but its preset
 * and parameter count. */
static bool is_arch_key(int k)
{
    return k >= 0 && k < PLAN_KEY_COUNT && k != PK_MODEL_PRESET &&
           k != PK_MODEL_PARAMS &&
           strcmp(plan_key_info((enum plan_key)k)->section, "model") == 0;
}

/* The architecture folds into one row while the model is a preset whose
 * architecture the plan does not change, until Enter opens it. */
static bool arch_folded(const struct ui *ui, const struct pv *pv)
{
    int k;

    if (pv->arch_open || !ui->plan.v[PK_MODEL_PRESET].set)
        return false;
    for (k = 0; k < PLAN_KEY_COUNT; k++)
        if (is_arch_key(k) && ui->plan.v[k].set)
            return false;
    return true;
}

/* The form's rows for the plan's workload: the train keys for training,
 * the serve keys for serving.  Keeps the selected key where it can. */
static void rows_build(struct ui *ui, struct pv *pv)
{
    enum workload_kind w =
        plan_is_serve(&ui->plan) ? WORKLOAD_SERVE : WORKLOAD_TRAIN;
    int keep = pv->nrows && pv->sel < pv->nrows ? pv->rows[pv->sel] : 0;
    bool folded = arch_folded(ui, pv);
    size_t s, i;
    int k;

    if (folded && is_arch_key(keep))
        keep = ROW_ARCH;
    else if (!folded && keep == ROW_ARCH)
        keep = PK_MODEL_LAYERS;
    pv->nrows = 0;
    for (s = 0; plan_sections[s]; s++) {
        if (!metric_section_applies(plan_sections[s], w))
            continue;
        pv->rows[pv->nrows++] = -1 - (int)s;
        for (k = 0; k < PLAN_KEY_COUNT; k++) {
            if (strcmp(plan_key_info((enum plan_key)k)->section,
                       plan_sections[s]) != 0)
                continue;
            if (folded && is_arch_key(k)) {
                if (pv->rows[pv->nrows - 1] != ROW_ARCH)
                    pv->rows[pv->nrows++] = ROW_ARCH;
                continue;
            }
            pv->rows[pv->nrows++] = k;
        }
    }
    for (i = 0; keep >= 0 && i < pv->nrows; i++)
        if (pv->rows[i] == keep)
            pv->sel = i;
    if (pv->sel >= pv->nrows)
        pv->sel = pv->nrows - 1;
}

static void *pv_open(struct ui *ui)
{
    struct pv *pv = xcalloc(1, sizeof(*pv));
    size_t s;

    rows_build(ui, pv);
    pv->sel = 1;
    /* start at the top, on the model: what the plan is about comes first
     * (model, workload, tokens), not a section half-way down */
    for (s = 0; s < pv->nrows; s++)
        if (pv->rows[s] == PK_MODEL_PRESET)
            pv->sel = s;
    pv->top = 0;
    canvas_init(&pv->off, 40, RESULTS_H, false);
    return pv;
}

static void pv_close(struct ui *ui, void *st)
{
    struct pv *pv = st;

    (void)ui;
    canvas_release(&pv->off);
    free(pv);
}

/* ---- the form ----------------------------------------------------------- */

/* A count as a plan would write it: "15T" when exact, else grouped. */
static const char *count_text(uint64_t u, char *buf, size_t n)
{
    static const struct {
        uint64_t div;
        char suf;
    } s[] = {{1000000000000ULL, 'T'}, {1000000000ULL, 'G'}, {1000000ULL, 'M'}};
    size_t i;

    for (i = 0; i < 3; i++)
        if (u >= s[i].div && u % s[i].div == 0) {
            snprintf(buf, n, "%llu%c", (unsigned long long)(u / s[i].div),
                     s[i].suf);
            return buf;
        }
    return ui_num((double)u, buf, n);
}

static const char *value_text(struct ui *ui, enum plan_key k, char *buf,
                              size_t n, int *el)
{
    const struct field_info *ki = plan_key_info(k);
    const struct plan_value *v = &ui->plan.v[k];
    char raw[64];

    buf[0] = '\0';
    *el = THEME_VALUE;
    if (ui->modal.kind == MODAL_PROMPT && ui->modal.tag == (int)k &&
        ui_current(ui) == VIEW_PLAN) {
        snprintf(buf, n, "%s_", ui->modal.text);
        *el = THEME_FIELD_EDIT;
        return buf;
    }
    if (ui->bad_key == (int)k && ui->bad_text[0]) {
        snprintf(buf, n, "%s", ui->bad_text);
        *el = THEME_FIELD_ERROR;
        return buf;
    }
    if (v->set && !v->is_auto) {
        if (ki->type == PT_COUNT)
            count_text(v->u, buf, n);
        else if (ki->type == PT_NUMBER)
            ui_num(v->d, buf, n);
        else
            plan_format_value(&ui->plan, k, buf, n);
    } else if (ui->have_result) {
        struct plan_echo e;

        plan_echo_value(&ui->oc->res.sc, &ui->oc->result, k, &e);
        switch (e.type) {
        case PT_COUNT:
            count_text(e.u, raw, sizeof(raw));
            break;
        case PT_NUMBER:
            ui_num(e.d, raw, sizeof(raw));
            break;
        case PT_BOOL:
            snprintf(raw, sizeof(raw), "%s", e.u ? "yes" : "no");
            break;
        default:
            snprintf(raw, sizeof(raw), "%s", e.s ? e.s : "");
            break;
        }
        snprintf(buf, n, "%s%s", v->is_auto ? "auto " : "", raw);
        *el = THEME_VALUE_DEFAULT;
    } else {
        snprintf(buf, n, "%s", v->is_auto ? "auto" : ki->def ? ki->def : "");
        *el = THEME_VALUE_DEFAULT;
    }
    if (ui->bad_key == (int)k)
        *el = THEME_FIELD_ERROR;
    return buf;
}

/* A form row's value into buf; returns its label.  The folded
 * architecture row says how deep the model is and that Enter opens it. */
static const char *row_text(struct ui *ui, int row, char *buf, size_t n,
                            int *el)
{
    char layers[64];

    if (row != ROW_ARCH) {
        value_text(ui, (enum plan_key)row, buf, n, el);
        return plan_key_info((enum plan_key)row)->key;
    }
    value_text(ui, PK_MODEL_LAYERS, layers, sizeof(layers), el);
    snprintf(buf, n, "%s layers: Enter", layers);
    return "architecture";
}

static void draw_form(struct ui *ui, struct pv *pv, struct canvas *c,
                      struct rect r)
{
    int row;
    size_t i;

    widget_heading(c, (struct rect){r.x, r.y, r.w, 1}, "Inputs",
                   pv->focus == 0);
    r.y++;
    r.h--;
    widget_scroll(pv->sel, pv->nrows, r.h, &pv->top);
    /* show the section heading above the first row when it fits */
    if (pv->top > 0 && pv->top == pv->sel && !is_key(pv, pv->top - 1))
        pv->top--;
    for (row = 0, i = pv->top; row < r.h && i < pv->nrows; row++, i++) {
        int y = r.y + row;

        if (pv->rows[i] < 0) {
            char b[32];
            size_t k;

            snprintf(b, sizeof(b), "%s", plan_sections[-1 - pv->rows[i]]);
            for (k = 0; b[k]; k++)
                if (b[k] >= 'a' && b[k] <= 'z')
                    b[k] = (char)(b[k] - 'a' + 'A');
            canvas_text(c, r.x + 1, y, r.w - 2, b, THEME_SECTION);
        } else {
            char buf[160];
            const char *label;
            int el;
            bool sel = i == pv->sel;
            int base =
                sel ? (pv->focus == 0 ? THEME_CURSOR : THEME_CURSOR_INACTIVE)
                    : THEME_NORMAL;

            if (sel)
                canvas_fill(c, (struct rect){r.x, y, r.w, 1}, ' ', base);
            label = row_text(ui, pv->rows[i], buf, sizeof(buf), &el);
            widget_text(c, r.x + 2, y, LABEL_W - 1, label,
                        sel ? base : THEME_LABEL, 0);
            if (sel && el != THEME_FIELD_EDIT && el != THEME_FIELD_ERROR)
                el = base;
            widget_text(c, r.x + 2 + LABEL_W, y, r.w - 3 - LABEL_W, buf, el, 0);
        }
        ui_hit(ui, (struct rect){r.x, y, r.w, 1}, ACT_NONE, (int)i);
    }
}

/* ---- the results -------------------------------------------------------- */

/* Items flowing along lines: "label value unit". */
struct flow {
    struct canvas *c;
    bool mono; /* no colours: bar shares get textures */
    int x0, x, y, w;
};

/* The glyph of a bar share: a full block in colour; without colours a
 * texture per share, so the parts stay apart. */
static uint32_t seg_glyph(const struct canvas *c, bool mono, int el)
{
    static const uint32_t utf8[] = {0x2588, 0x2593, 0x2592, 0x2591, 0x259E};
    static const char ascii[] = "#=+%*";
    /* the communication parts: a glyph each, in colour too, so that two
     * neighbours of similar colours still read apart */
    static const uint32_t comm_utf8[] = {0x2593, 0x2591, 0x259E, 0x259A,
                                         0x2596};
    static const char comm_ascii[] = "=%*&@";
    int i;

    if (el >= THEME_BAR_TP && el <= THEME_BAR_EP) {
        i = el - THEME_BAR_TP;
        return c->utf8 ? comm_utf8[i] : (uint32_t)comm_ascii[i];
    }

    switch (el) {
    case THEME_BAR_GRADIENTS:
    case THEME_BAR_COMM:
        i = 1;
        break;
    case THEME_BAR_OPTIMIZER:
    case THEME_BAR_BUBBLE:
        i = 2;
        break;
    case THEME_BAR_ACTIVATIONS:
        i = 3;
        break;
    case THEME_BAR_OVERHEAD:
        i = 4;
        break;
    default:
        i = 0;
        break;
    }
    if (!mono)
        return widget_glyph(c, GL_BLOCK);
    return c->utf8 ? utf8[i] : (uint32_t)ascii[i];
}

static void flow_item(struct flow *f, int mark_el, const char *label,
                      const char *value, const char *unit, int vel)
{
    int need = (mark_el >= 0 ? 2 : 0) + canvas_text_width(label) + 1 +
               canvas_text_width(value) + (unit && unit[0] ? 1 : 0) +
               canvas_text_width(unit ? unit : "") + 2;

    if (f->x > f->x0 && f->x + need > f->x0 + f->w) {
        f->y++;
        f->x = f->x0;
    }
    if (mark_el >= 0) {
        canvas_put(f->c, f->x, f->y, seg_glyph(f->c, f->mono, mark_el),
                   mark_el);
        f->x += 2;
    }
    f->x += canvas_text(f->c, f->x, f->y, -1, label, THEME_LABEL) + 1;
    f->x += canvas_text(f->c, f->x, f->y, -1, value, vel);
    if (unit && unit[0])
        f->x += canvas_text(f->c, f->x + 1, f->y, -1, unit, THEME_DIM) + 1;
    f->x += 2;
}

static void flow_newline(struct flow *f)
{
    if (f->x > f->x0)
        f->y++;
    f->x = f->x0;
}

/* A metric as text: numbers via the CLI's formatter, words as they are. */
static const char *mtext(const struct result *r, const char *sec,
                         const char *key, char *buf, size_t n)
{
    const char *t;
    double v = app_metric(r, sec, key, &t);

    if (t && t[0])
        return t;
    return ui_num(v, buf, n);
}

static void metric_item(struct flow *f, const struct result *r,
                        const char *label, const char *sec, const char *key,
                        const char *unit, int mark_el)
{
    char b[64];

    flow_item(f, mark_el, label, mtext(r, sec, key, b, sizeof(b)), unit,
              THEME_VALUE);
}

static void heading(struct flow *f, const char *title, const char *value,
                    int vel, const char *extra, int eel)
{
    int x;

    flow_newline(f);
    x = f->x0 + canvas_text(f->c, f->x0, f->y, -1, title, THEME_SECTION) + 2;
    if (value)
        x += canvas_text(f->c, x, f->y, -1, value, vel) + 2;
    if (extra)
        canvas_text(f->c, x, f->y, f->w - (x - f->x0), extra, eel);
    f->y++;
    f->x = f->x0;
}

/* Throughput per GPU (up) against one user's tokens/s (across) for the
 * batches of the serving curve; the operating point's batch is marked. */
static int draw_serve_curve(struct canvas *c, const struct serve_result *v,
                            int x0, int y0, int w, int h)
{
    double xmax = 0, ymax = 0;
    char lab[32];
    uint64_t i;
    int x, y, pw = w - 10, ph = h - 3;

    canvas_text(c, x0, y0, w, "THROUGHPUT PER GPU vs SPEED PER USER",
                THEME_SECTION);
    if (v->curve_n == 0 || pw < 8 || ph < 3)
        return 1;
    for (i = 0; i < v->curve_n; i++) {
        if (v->curve_user_tok_s[i] > xmax)
            xmax = v->curve_user_tok_s[i];
        if (v->curve_tok_s_gpu[i] > ymax)
            ymax = v->curve_tok_s_gpu[i];
    }
    if (!(xmax > 0) || !(ymax > 0))
        return 1;
    for (y = 0; y < ph; y++)
        canvas_put(c, x0 + 8, y0 + 1 + y, '|', THEME_DIM);
    for (x = 0; x < pw; x++)
        canvas_put(c, x0 + 9 + x, y0 + 1 + ph, '-', THEME_DIM);
    canvas_text(c, x0, y0 + 1, 8, ui_num(ymax, lab, sizeof(lab)), THEME_DIM);
    canvas_text(c, x0, y0 + ph, 8, "0", THEME_DIM);
    canvas_text(c, x0, y0 + 2 + ph, 9, "tok/s/gpu", THEME_DIM);
    snprintf(lab, sizeof(lab), "%.0f tok/s/user", xmax);
    canvas_text(c, x0 + 9 + pw - canvas_text_width(lab), y0 + 2 + ph, -1, lab,
                THEME_DIM);
    for (i = 0; i < v->curve_n; i++) {
        int px = (int)((pw - 1) * v->curve_user_tok_s[i] / xmax);
        int py = (int)((ph - 1) * (1 - v->curve_tok_s_gpu[i] / ymax));
        bool here = v->curve_batch[i] <= v->batch &&
                    (i + 1 == v->curve_n || v->curve_batch[i + 1] > v->batch);

        canvas_put(c, x0 + 9 + px, y0 + 1 + py, here ? '@' : '*',
                   here ? THEME_VALUE_GOOD : THEME_CHART_BUILD);
    }
    return h;
}

/* The serving results: replica memory, latency, fleet, money, curve. */
static int draw_serve_results(struct ui *ui, struct canvas *c, int w,
                              struct flow *f)
{
    const struct result *r = &ui->oc->result;
    const struct serve_result *v = &r->serve;
    char a[64], b[64], t[160];
    double cap;

    snprintf(t, sizeof(t), "%s of %s GiB",
             mtext(r, "memory", "total_gib", a, sizeof(a)),
             mtext(r, "memory", "capacity_gib", b, sizeof(b)));
    heading(f, "MEMORY PER GPU", t, THEME_VALUE,
            v->fits ? "fits" : "does not fit",
            v->fits ? THEME_VALUE_GOOD : THEME_VALUE_BAD);
    {
        struct bar_seg s[3] = {
            {r->memory.weights_bytes, THEME_BAR_WEIGHTS, 0},
            {r->memory.activations_bytes, THEME_BAR_ACTIVATIONS, 0},
            {r->memory.overhead_bytes, THEME_BAR_OVERHEAD, 0},
        };
        size_t k;

        for (k = 0; k < 3; k++)
            s[k].ch = seg_glyph(c, f->mono, s[k].el);
        cap = r->memory.capacity_bytes > r->memory.total_bytes
                  ? r->memory.capacity_bytes
                  : r->memory.total_bytes;
        widget_bar(c, 1, f->y, w - 2, s, 3, cap, THEME_BAR_FREE);
        f->y++;
    }
    metric_item(f, r, "weights", "serve", "weights_gib", "", THEME_BAR_WEIGHTS);
    metric_item(f, r, "activations", "memory", "activations_gib", "",
                THEME_BAR_ACTIVATIONS);
    /* overhead_gib holds the KV the largest batch uses, not the pool the
     * engine allocates (kv_gib): each named as the metric it shows */
    metric_item(f, r, "overhead (KV in use + reserve)", "memory",
                "overhead_gib", "GiB", THEME_BAR_OVERHEAD);
    metric_item(f, r, "KV pool", "serve", "kv_gib", "GiB", -1);
    metric_item(f, r, "max batch", "serve", "max_batch", "", -1);
    flow_newline(f);
    if (!v->fits && v->reason[0]) {
        widget_text(c, 1, f->y, w - 2, v->reason, THEME_VALUE_BAD, 0);
        f->y++;
    }
    f->y++;
    snprintf(t, sizeof(t), "TTFT %s ms, TPOT %s ms",
             mtext(r, "serve", "ttft_ms", a, sizeof(a)),
             mtext(r, "serve", "tpot_ms", b, sizeof(b)));
    heading(f, "LATENCY", t, THEME_VALUE, "means, TTFT incl. queueing",
            THEME_DIM);
    metric_item(f, r, "TTFT p99", "serve", "ttft_p99_ms", "ms", -1);
    metric_item(f, r, "TPOT p99", "serve", "tpot_p99_ms", "ms", -1);
    metric_item(f, r, "prefill", "serve", "prefill_ms", "ms", -1);
    metric_item(f, r, "queue", "serve", "queue_ms", "ms", -1);
    metric_item(f, r, "step", "serve", "decode_step_ms", "ms", -1);
    metric_item(f, r, "e2e", "serve", "e2e_s", "s", -1);
    metric_item(f, r, "batch", "serve", "batch", "", -1);
    flow_newline(f);
    f->y++;
    snprintf(t, sizeof(t), "%s GPUs", mtext(r, "serve", "gpus", a, sizeof(a)));
    heading(f, "FLEET", t, THEME_VALUE, NULL, THEME_DIM);
    metric_item(f, r, "replicas", "serve", "replicas", "", -1);
    metric_item(f, r, "out", "serve", "output_tokens_per_s", "tok/s", -1);
    metric_item(f, r, "per GPU", "serve", "output_tokens_per_s_per_gpu",
                "tok/s", -1);
    metric_item(f, r, "req", "serve", "requests_per_s", "/s", -1);
    metric_item(f, r, "utilization", "serve", "utilization", "", -1);
    flow_newline(f);
    f->y++;
    heading(f, "MONEY", NULL, THEME_VALUE, "per M output tokens", THEME_DIM);
    metric_item(f, r, "owned", "serve", "usd_per_mtok_build", "$", -1);
    metric_item(f, r, "cloud", "serve", "usd_per_mtok_cloud", "$", -1);
    metric_item(f, r, "energy", "serve", "wh_per_mtok", "Wh", -1);
    metric_item(f, r, "owned/day", "serve", "usd_per_day_build", "$", -1);
    metric_item(f, r, "cloud/day", "serve", "usd_per_day_cloud", "$", -1);
    if (v->owned_gpus > 0) {
        metric_item(f, r, "hybrid/day", "serve", "usd_per_day_hybrid", "$", -1);
        metric_item(f, r, "burst", "serve", "burst_gpu_hours_per_day",
                    "GPU h/day", -1);
        metric_item(f, r, "idle owned", "serve", "owned_idle_gpu_hours_per_day",
                    "GPU h/day", -1);
    }
    flow_newline(f);
    f->y++;
    f->y += draw_serve_curve(c, v, 1, f->y, w - 2, 12);
    return f->y + 1;
}

#define NROWS(a) (sizeof(a) / sizeof((a)[0]))

/* One metric of a results section; a row with no label ends the line. */
struct metric_row {
    const char *label, *sec, *key, *unit;
    int mark_el; /* the bar share it names, or -1 */
};

#define ROW_BREAK                                                              \
    {                                                                          \
        NULL, NULL, NULL, NULL, -1                                             \
    }

/* Draw rows in order; a ROW_BREAK starts a new line. */
static void metric_rows(struct flow *f, const struct result *r,
                        const struct metric_row *rows, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++) {
        if (!rows[i].label)
            flow_newline(f);
        else
            metric_item(f, r, rows[i].label, rows[i].sec, rows[i].key,
                        rows[i].unit, rows[i].mark_el);
    }
}

/* A bar of n shares, each with its glyph, on the flow's line. */
static void share_bar(struct flow *f, struct bar_seg *s, size_t n, double total)
{
    size_t k;

    for (k = 0; k < n; k++)
        s[k].ch = seg_glyph(f->c, f->mono, s[k].el);
    widget_bar(f->c, 1, f->y, f->w, s, n, total, THEME_BAR_FREE);
}

static const struct metric_row memory_rows[] = {
    {"weights", "memory", "weights_gib", "", THEME_BAR_WEIGHTS},
    {"gradients", "memory", "gradients_gib", "", THEME_BAR_GRADIENTS},
    {"optimizer", "memory", "optimizer_gib", "", THEME_BAR_OPTIMIZER},
    {"activations", "memory", "activations_gib", "", THEME_BAR_ACTIVATIONS},
    {"overhead", "memory", "overhead_gib", "GiB", THEME_BAR_OVERHEAD},
    ROW_BREAK,
};

/* MEMORY PER GPU: the heading, the bar of shares against the capacity
 * (a '|' marks the capacity inside an overfull bar) and the shares. */
static void draw_train_memory(struct flow *f, const struct result *r)
{
    struct bar_seg s[5] = {
        {r->memory.weights_bytes, THEME_BAR_WEIGHTS, 0},
        {r->memory.gradients_bytes, THEME_BAR_GRADIENTS, 0},
        {r->memory.optimizer_bytes, THEME_BAR_OPTIMIZER, 0},
        {r->memory.activations_bytes, THEME_BAR_ACTIVATIONS, 0},
        {r->memory.overhead_bytes, THEME_BAR_OVERHEAD, 0},
    };
    char a[64], b[64], t[160];
    double cap;

    snprintf(t, sizeof(t), "%s of %s GiB",
             mtext(r, "memory", "total_gib", a, sizeof(a)),
             mtext(r, "memory", "capacity_gib", b, sizeof(b)));
    heading(f, "MEMORY PER GPU", t, THEME_VALUE,
            r->memory.fits ? "fits" : "does not fit",
            r->memory.fits ? THEME_VALUE_GOOD : THEME_VALUE_BAD);
    cap = r->memory.capacity_bytes > r->memory.total_bytes
              ? r->memory.capacity_bytes
              : r->memory.total_bytes;
    share_bar(f, s, 5, cap);
    if (!r->memory.fits && cap > 0) {
        int x = 1 + (int)((double)f->w * r->memory.capacity_bytes / cap);

        canvas_put(f->c, x, f->y, '|', THEME_VALUE_BAD);
    }
    f->y++;
    metric_rows(f, r, memory_rows, NROWS(memory_rows));
    f->y++;
}

static const struct metric_row time_rows[] = {
    {"compute", "time", "compute_s", "", THEME_BAR_COMPUTE},
    {"bubble", "time", "bubble_s", "", THEME_BAR_BUBBLE},
    {"tp", "time", "tp_comm_s", "", THEME_BAR_TP},
    {"pp", "time", "pp_comm_s", "", THEME_BAR_PP},
    {"dp", "time", "dp_comm_s", "", THEME_BAR_DP},
    {"cp", "time", "cp_comm_s", "", THEME_BAR_CP},
    {"ep", "time", "ep_comm_s", "s", THEME_BAR_EP},
    ROW_BREAK,
    {"throughput", "time", "tokens_per_s", "tok/s", -1},
    {"MFU", "time", "mfu", "", -1},
    {"HFU", "time", "hfu", "", -1},
    {"per GPU", "time", "model_tflops_per_gpu", "TFLOP/s", -1},
    ROW_BREAK,
    /* the layout evaluated (the search's choice for auto keys) */
    {"tp", "layout", "tp", "", -1},
    {"pp", "layout", "pp", "", -1},
    {"dp", "layout", "dp", "", -1},
    {"cp", "layout", "cp", "", -1},
    {"ep", "layout", "ep", "", -1},
    {"mb", "layout", "microbatch", "", -1},
    {"v", "layout", "interleave", "", -1},
    {"recompute", "layout", "recompute", "", -1},
    {"zero", "layout", "zero", "", -1},
    ROW_BREAK,
};

/* STEP TIME: the heading, the bar of its parts, the parts, throughput and
 * the layout evaluated. */
static void draw_train_time(struct flow *f, const struct result *r)
{
    struct bar_seg s[7] = {
        {r->time.compute_s, THEME_BAR_COMPUTE, 0},
        {r->time.bubble_s, THEME_BAR_BUBBLE, 0},
        {r->time.tp_comm_s, THEME_BAR_TP, 0},
        {r->time.pp_comm_s, THEME_BAR_PP, 0},
        {r->time.dp_comm_s, THEME_BAR_DP, 0},
        {r->time.cp_comm_s, THEME_BAR_CP, 0},
        {r->time.ep_comm_s, THEME_BAR_EP, 0},
    };
    char a[64], b[64], t[160];

    snprintf(t, sizeof(t), "%s s", mtext(r, "time", "step_s", a, sizeof(a)));
    snprintf(b, sizeof(b), "bottleneck: %s", r->bottleneck);
    heading(f, "STEP TIME", t, THEME_VALUE, b, THEME_DIM);
    share_bar(f, s, 7, r->time.step_s);
    f->y++;
    metric_rows(f, r, time_rows, NROWS(time_rows));
    f->y++;
}

static const struct metric_row train_rows[] = {
    {"steady", "time", "train_days", "d", -1},
    {"GPU hours", "time", "gpu_hours", "", -1},
    {"steps", "time", "steps", "", -1},
    ROW_BREAK,
    {"goodput", "reliability", "goodput", "", -1},
    {"failures", "reliability", "failures", "", -1},
    {"checkpoint every", "reliability", "checkpoint_interval_min", "min", -1},
    ROW_BREAK,
};

static const struct metric_row energy_rows[] = {
    {"facility", "energy", "facility_kw", "kW", -1},
    {"carbon", "energy", "tco2e", "tCO2e", -1},
    {"rack", "energy", "rack_kw", "kW", -1},
    {"cooling", "energy", "cooling", "", -1},
    ROW_BREAK,
};

static const struct metric_row build_rows[] = {
    {"capex", "cost.build", "capex_usd", "USD", -1},
    {"opex", "cost.build", "opex_usd_per_year", "USD/y", -1},
    {"", "cost.build", "usd_per_gpu_hour", "USD/GPU h", -1},
    ROW_BREAK,
};

static const struct metric_row cloud_rows[] = {
    {"", "cost.cloud", "usd_per_gpu_hour", "USD/GPU h", -1},
    {"term", "cost.cloud", "term", "", -1},
    {"offer", "cost.cloud", "offer", "", -1},
    ROW_BREAK,
    {"cheaper", "cost", "cheaper", "", -1},
    {"breakeven", "cost", "breakeven_months", "months", -1},
    {"at utilization", "cost", "breakeven_utilization", "", -1},
    ROW_BREAK,
};

/* A section: its heading with "value unit" of metric sec.key, its rows. */
static void draw_section(struct flow *f, const struct result *r,
                         const char *title, const char *sec, const char *key,
                         const char *unit, int vel,
                         const struct metric_row *rows, size_t n)
{
    char a[64], t[160];

    snprintf(t, sizeof(t), "%s %s", mtext(r, sec, key, a, sizeof(a)), unit);
    heading(f, title, t, vel, NULL, 0);
    metric_rows(f, r, rows, n);
}

/* TIME TO TRAIN, ENERGY, BUILD and CLOUD (the cheaper one in green). */
static void draw_train_totals(struct flow *f, const struct result *r)
{
    bool build = r->cost.build_cheaper;

    draw_section(f, r, "TIME TO TRAIN", "reliability", "effective_train_days",
                 "days", THEME_VALUE, train_rows, NROWS(train_rows));
    f->y++;
    draw_section(f, r, "ENERGY", "energy", "facility_mwh", "MWh", THEME_VALUE,
                 energy_rows, NROWS(energy_rows));
    f->y++;
    draw_section(f, r, "BUILD", "cost.build", "run_usd", "USD",
                 build ? THEME_VALUE_GOOD : THEME_VALUE, build_rows,
                 NROWS(build_rows));
    draw_section(f, r, "CLOUD", "cost.cloud", "run_usd", "USD",
                 build ? THEME_VALUE : THEME_VALUE_GOOD, cloud_rows,
                 NROWS(cloud_rows));
}

/* WARNINGS, when there are any. */
static void draw_warnings(struct flow *f, const struct result *r)
{
    size_t i;

    if (!r->nwarnings)
        return;
    f->y++;
    heading(f, "WARNINGS", NULL, 0, NULL, 0);
    for (i = 0; i < r->nwarnings; i++) {
        widget_text(f->c, 1, f->y, f->w, r->warnings[i], THEME_VALUE_WARN, 0);
        f->y++;
    }
}

/* Above results that are not the plan's own: why (the plan as edited
 * cannot be evaluated, or its evaluation is pending). */
static void draw_stale_note(struct ui *ui, struct flow *f)
{
    char t[160];

    if (!ui->ok) {
        widget_text(f->c, 1, f->y, f->w,
                    "the plan as edited cannot be "
                    "evaluated; the last result, dimmed:",
                    THEME_VALUE_BAD, 0);
        f->y++;
        snprintf(t, sizeof(t), "%s%s%s", ui->diag.where,
                 ui->diag.where[0] ? ": " : "", ui->diag.msg);
        widget_text(f->c, 1, f->y, f->w, t, THEME_VALUE_BAD, 0);
        f->y += 2;
    } else if (ui->eval_pending) {
        widget_text(f->c, 1, f->y, f->w,
                    "evaluating the plan as edited (a key cuts it short); "
                    "the last result, dimmed:",
                    THEME_VALUE_WARN, 0);
        f->y += 2;
    }
}

/* Draw every result into the off-screen canvas; returns the rows used.
 * Results that are not those of the plan as it is (ui_results_stale) are
 * dimmed below a line that says why. */
static int draw_results(struct ui *ui, struct canvas *c, int w)
{
    int stale_from, used;
    const struct result *r = &ui->oc->result;
    struct flow f = {c, ui->theme.mono, 1, 1, 0, w - 2};

    canvas_clear(c, THEME_NORMAL);
    if (!ui->have_result) {
        canvas_printf(c, 1, 0, w - 2, THEME_VALUE_BAD, "cannot evaluate: %s",
                      ui->diag.msg);
        return 1;
    }
    draw_stale_note(ui, &f);
    stale_from = f.y;
    if (r->workload == WORKLOAD_SERVE) {
        used = draw_serve_results(ui, c, w, &f);
    } else {
        draw_train_memory(&f, r);
        draw_train_time(&f, r);
        draw_train_totals(&f, r);
        draw_warnings(&f, r);
        used = f.y;
    }
    if (ui_results_stale(ui))
        canvas_paint(c, (struct rect){0, stale_from, w, used - stale_from},
                     THEME_DIM);
    return used;
}

/* Copy rows [top, top + r.h) of src into r of dst. */
static void copy_rows(struct canvas *dst, struct rect r,
                      const struct canvas *src, int top)
{
    int x, y;

    for (y = 0; y < r.h; y++)
        for (x = 0; x < r.w; x++) {
            const struct cell *cl = canvas_at(src, x, top + y);

            if (cl)
                canvas_put(dst, r.x + x, r.y + y, cl->ch, cl->el);
        }
}

/* A metric's value as the All metrics pane shows it, into b. */
static const char *metric_shown(const struct metric *m, const struct result *r,
                                char *b, size_t n)
{
    const char *t = metric_text(m, r);

    if (m->kind == MK_BOOL)
        t = metric_value(m, r) ? "yes" : "no";
    if (!t[0])
        t = ui_num(metric_value(m, r), b, n);
    return t;
}

/* Every metric: the value and unit columns as wide as the widest value
 * and unit shown, so no number is cut; the name takes the rest (cut with
 * an ellipsis when the pane is narrow). */
static void draw_metrics(struct ui *ui, struct pv *pv, struct canvas *c,
                         struct rect r)
{
    size_t i, n, row = 0, total = 0;
    const struct metric *m = metrics_table(&n);
    const struct result *res = &ui->oc->result;
    const char *last = "";
    int vw = 1, uw = 0;

    widget_heading(c, (struct rect){r.x, r.y, r.w, 1}, "All metrics",
                   pv->focus == 2);
    r.y++;
    r.h--;
    if (!ui->have_result)
        return;
    for (i = 0; i < n; i++)
        if (metric_section_applies(m[i].section, res->workload)) {
            char b[64];
            int w = canvas_text_width(metric_shown(&m[i], res, b, sizeof(b)));

            total += 1 + (strcmp(m[i].section, last) != 0);
            last = m[i].section;
            if (!metric_text(&m[i], res)[0]) /* numbers; words may be cut */
                vw = w > vw ? w : vw;
            w = canvas_text_width(m[i].unit);
            uw = w > uw ? w : uw;
        }
    last = "";
    if (pv->mtop + (size_t)r.h > total)
        pv->mtop = total > (size_t)r.h ? total - (size_t)r.h : 0;
    for (i = 0; i < n; i++) {
        char b[64];
        int y, vx = r.w - 1 - uw - (uw ? 1 : 0) - vw;

        if (!metric_section_applies(m[i].section, res->workload))
            continue;
        if (strcmp(m[i].section, last) != 0) {
            last = m[i].section;
            if (row >= pv->mtop && row - pv->mtop < (size_t)r.h)
                canvas_text(c, r.x + 1, r.y + (int)(row - pv->mtop), r.w - 2,
                            last, THEME_SECTION);
            row++;
        }
        if (row >= pv->mtop && row - pv->mtop < (size_t)r.h) {
            const char *t = metric_shown(&m[i], res, b, sizeof(b));
            int lw;

            y = r.y + (int)(row - pv->mtop);
            lw = widget_text(c, r.x + 2, y, vx - 3, m[i].key, THEME_LABEL, 0);

            /* a word (an offer id) may use the room the name leaves */
            if (metric_text(&m[i], res)[0] && canvas_text_width(t) > vw)
                widget_text(c, r.x + 3 + lw, y, vx + vw - 3 - lw, t,
                            ui_results_stale(ui) ? THEME_DIM : THEME_VALUE, 1);
            else
                widget_text(c, r.x + vx, y, vw, t,
                            ui_results_stale(ui) ? THEME_DIM : THEME_VALUE, 1);
            widget_text(c, r.x + vx + vw + 1, y, uw, m[i].unit, THEME_DIM, 0);
        }
        row++;
    }
}

static const char *money(double v, char *buf, size_t n)
{
    if (v >= 1e9)
        snprintf(buf, n, "$%.3gB", v / 1e9);
    else if (v >= 1e6)
        snprintf(buf, n, "$%.3gM", v / 1e6);
    else
        snprintf(buf, n, "$%.3gK", v / 1e3);
    return buf;
}

static void draw_cost_chart(struct ui *ui, struct canvas *c, struct rect r)
{
    const struct result *res = &ui->oc->result;
    struct chart_series s[2] = {
        {res->cost.series_build_usd, res->cost.series_months, THEME_CHART_BUILD,
         widget_glyph(c, GL_BUILD), "build"},
        {res->cost.series_cloud_usd, res->cost.series_months, THEME_CHART_CLOUD,
         widget_glyph(c, GL_CLOUD), "cloud"},
    };
    int x = r.x + 1;

    canvas_text(c, r.x + 1, r.y, r.w - 2, "CUMULATIVE COST", THEME_SECTION);
    x += 17;
    canvas_put(c, x, r.y, s[0].ch, s[0].el);
    x += 2 + canvas_text(c, x + 2, r.y, -1, "build", THEME_LABEL);
    canvas_put(c, x + 2, r.y, s[1].ch, s[1].el);
    canvas_text(c, x + 4, r.y, -1, "cloud", THEME_LABEL);
    widget_chart(c, (struct rect){r.x + 1, r.y + 1, r.w - 2, r.h - 1}, s, 2, 12,
                 "months", res->cost.breakeven_months, money);
}

static void pv_draw(struct ui *ui, void *st, struct canvas *c, struct rect r)
{
    struct pv *pv = st;
    int fw = r.w >= 160 ? 52 : r.w >= 120 ? 46 : 38;
    int mw = r.w >= 160 ? 48 : 0;
    int rw = r.w - fw - mw - 1 - (mw ? 1 : 0);
    int used;
    struct rect rr = {r.x + fw + 1, r.y, rw, r.h};

    rows_build(ui, pv);
    draw_form(ui, pv, c, (struct rect){r.x, r.y, fw, r.h});
    widget_vline(c, r.x + fw, r.y, r.h);
    widget_heading(c, (struct rect){rr.x, rr.y, rr.w, 1}, "Results",
                   pv->focus == 1);
    if (pv->off.w != rw)
        canvas_resize(&pv->off, rw, RESULTS_H);
    pv->off.utf8 = c->utf8;
    used = draw_results(ui, &pv->off, rw);
    if (pv->rtop + (size_t)(r.h - 1) > (size_t)used)
        pv->rtop = used > r.h - 1 ? (size_t)(used - (r.h - 1)) : 0;
    copy_rows(c, (struct rect){rr.x, rr.y + 1, rr.w, rr.h - 1}, &pv->off,
              (int)pv->rtop);
    /* room to spare below the results: the cost over time */
    if (ui->have_result && !ui_results_stale(ui) && pv->rtop == 0 &&
        r.h - 1 - used >= 12 && ui->oc->result.workload != WORKLOAD_SERVE)
        draw_cost_chart(
            ui, c, (struct rect){rr.x, rr.y + 1 + used, rr.w, r.h - 1 - used});
    ui_hit(ui, (struct rect){rr.x, rr.y, rr.w, rr.h}, ACT_NONE, -2);
    if (mw) {
        widget_vline(c, rr.x + rw, r.y, r.h);
        draw_metrics(ui, pv, c, (struct rect){rr.x + rw + 1, r.y, mw, r.h});
        ui_hit(ui, (struct rect){rr.x + rw + 1, r.y, mw, r.h}, ACT_NONE, -3);
    }
}

/* ---- editing ------------------------------------------------------------ */

/* Typing in a number field: every valid prefix is evaluated at once, so
 * the results move as you type (invalid text waits for Enter). */
static unsigned live_change(struct ui *ui, int tag, const char *value)
{
    struct plan_value before = ui->plan.v[tag];

    if (!value[0] ||
        plan_set_key(&ui->plan, (enum plan_key)tag, value, NULL, NULL) != CP_OK)
        return UI_REDRAW;
    if (before.set == ui->plan.v[tag].set &&
        before.is_auto == ui->plan.v[tag].is_auto &&
        before.u == ui->plan.v[tag].u && before.d == ui->plan.v[tag].d)
        return UI_REDRAW;
    return UI_RECOMPUTE | UI_REDRAW;
}

static unsigned live_done(struct ui *ui, int tag, const char *value, int idx)
{
    struct pv *pv = ui->vdata[VIEW_PLAN];

    (void)idx;
    if (!value) { /* Esc: the field as it was */
        ui->plan.v[tag] = pv->saved;
        ui_status(ui, false, "%s unchanged", plan_key_info(tag)->name);
        return UI_RECOMPUTE | UI_REDRAW;
    }
    /* from the field as it was: a rejected input leaves it so */
    ui->plan.v[tag] = pv->saved;
    return app_set_key(ui, (enum plan_key)tag, value) | UI_RECOMPUTE;
}

static unsigned edit_done(struct ui *ui, int tag, const char *value, int idx)
{
    (void)idx;
    if (!value)
        return UI_REDRAW;
    if (strcmp(value, "(default)") == 0)
        return app_unset_key(ui, (enum plan_key)tag);
    return app_set_key(ui, (enum plan_key)tag, value);
}

static unsigned find_change(struct ui *ui, int tag, const char *value)
{
    struct pv *pv = ui->vdata[VIEW_PLAN];
    size_t i;

    int k;

    (void)tag;
    if (!value[0])
        return UI_REDRAW;
    for (i = 0; i < pv->nrows; i++)
        if (is_key(pv, i) && pv->rows[i] != ROW_ARCH &&
            strstr(plan_key_info((enum plan_key)pv->rows[i])->name, value)) {
            pv->sel = i;
            return UI_REDRAW;
        }
    /* no row shown matches: a folded architecture key opens them */
    for (k = 0; k < PLAN_KEY_COUNT && !pv->arch_open; k++)
        if (is_arch_key(k) &&
            strstr(plan_key_info((enum plan_key)k)->name, value)) {
            pv->arch_open = true;
            rows_build(ui, pv);
            return find_change(ui, tag, value);
        }
    return UI_REDRAW;
}

static void edit_id(struct ui *ui, enum plan_key k)
{
    enum catalog_kind kind = plan_key_kind(plan_key_info(k));
    struct ui_rows rows;
    struct ui_item *items;
    struct diag d;
    size_t i, n = 0, sel = 0;
    int name_col = app_catalog_col(kind, "name");
    int inst_col = app_catalog_col(kind, "instance");
    char title[96];

    diag_clear(&d);
    if (app_catalog_rows(ui, kind, &rows, &d)) {
        ui_status(ui, true, "%s: %s", catalog_kind_name(kind), d.msg);
        return;
    }
    items = xcalloc(rows.n + 1, sizeof(*items));
    items[n].text = "(default)";
    items[n++].note = "let the plan choose";
    for (i = 0; i < rows.n; i++) {
        const char *id = ui_rows_cell(&rows, i, 0);

        if (n > 1 && strcmp(items[n - 1].text, id) == 0)
            continue; /* cloud: one row per term */
        items[n].text = id;
        items[n].note = name_col >= 0 ? ui_rows_cell(&rows, i, (size_t)name_col)
                        : inst_col >= 0
                            ? ui_rows_cell(&rows, i, (size_t)inst_col)
                            : NULL;
        if (ui->plan.v[k].set && strcmp(ui->plan.v[k].id, id) == 0)
            sel = n;
        n++;
    }
    snprintf(title, sizeof(title), "%s (type to filter)",
             plan_key_info(k)->name);
    ui_picker(ui, (int)k, title, items, n, sel, edit_done);
    free(items);
    ui_rows_release(&rows);
}

static void edit_choice(struct ui *ui, enum plan_key k)
{
    const struct field_info *ki = plan_key_info(k);
    struct ui_item items[16];
    char choices[16][32];
    size_t i, n = 0, sel = 0;
    char cur[64];

    plan_format_value(&ui->plan, k, cur, sizeof(cur));
    items[n].text = "(default)";
    items[n++].note = ki->def;
    if (ki->flags & PKF_AUTO) {
        items[n].text = "auto";
        items[n++].note = "the layout search chooses";
    }
    if (ki->type == PT_BOOL) {
        items[n].text = "yes";
        items[n++].note = NULL;
        items[n].text = "no";
        items[n++].note = NULL;
    } else {
        size_t m = plan_enum_count(ki);

        for (i = 0; i < m && n < 16; i++) {
            plan_enum_choice(ki, i, choices[i], sizeof(choices[i]));
            items[n].text = choices[i];
            items[n++].note = NULL;
        }
    }
    for (i = 0; i < n; i++)
        if (ui->plan.v[k].set && strcmp(items[i].text, cur) == 0)
            sel = i;
    ui_picker(ui, (int)k, ki->name, items, n, sel, edit_done);
}

static unsigned edit(struct ui *ui, enum plan_key k, const char *initial)
{
    const struct field_info *ki = plan_key_info(k);
    char cur[64];
    char title[128];

    switch (ki->type) {
    case PT_ID:
        edit_id(ui, k);
        break;
    case PT_ENUM:
    case PT_BOOL:
        edit_choice(ui, k);
        break;
    default:
        if (!initial)
            initial = ui->bad_key == (int)k && ui->bad_text[0]
                          ? ui->bad_text
                          : plan_format_value(&ui->plan, k, cur, sizeof(cur));
        snprintf(title, sizeof(title), "%s (%s; empty: default%s)", ki->name,
                 ki->help, ki->flags & PKF_AUTO ? ", auto" : "");
        ((struct pv *)ui->vdata[VIEW_PLAN])->saved = ui->plan.v[k];
        ui_prompt(ui, (int)k, title, initial, live_done, live_change);
        break;
    }
    return UI_REDRAW;
}

static void move(struct pv *pv, int delta)
{
    long i = (long)pv->sel;
    int step = delta > 0 ? 1 : -1;
    int n = delta > 0 ? delta : -delta;

    while (n-- > 0) {
        long j = i + step;

        while (j >= 0 && j < (long)pv->nrows && !is_key(pv, (size_t)j))
            j += step;
        if (j < 0 || j >= (long)pv->nrows)
            break;
        i = j;
    }
    pv->sel = (size_t)i;
}

/* Open the folded architecture, the cursor on its first key. */
static unsigned arch_open(struct ui *ui, struct pv *pv)
{
    pv->arch_open = true;
    rows_build(ui, pv);
    return UI_REDRAW;
}

/* The architecture row's keys: Enter, -> or a click open it; the keys
 * that change a value say so (0: not handled here). */
static unsigned arch_handle(struct ui *ui, struct pv *pv, enum action a,
                            const struct ui_event *ev)
{
    switch (a) {
    case ACT_ENTER:
    case ACT_RIGHT:
        return arch_open(ui, pv);
    case ACT_FIELD_AUTO:
    case ACT_FIELD_DEFAULT:
        ui_status(ui, true, "architecture: Enter shows its keys");
        return UI_REDRAW;
    case ACT_NONE: /* a digit starts no edit here */
        return (ev->key >= '0' && ev->key <= '9') || ev->key == '.' ? UI_REDRAW
                                                                    : 0;
    default:
        return 0;
    }
}

static unsigned pv_handle(struct ui *ui, void *st, enum action a,
                          const struct ui_event *ev)
{
    struct pv *pv = st;
    enum plan_key k = (enum plan_key)pv->rows[pv->sel];
    unsigned r;
    int page = ui->cv.h - 6;
    size_t *scroll = pv->focus == 1 ? &pv->rtop : &pv->mtop;

    if (a == ACT_NONE && ev->key == UK_MOUSE) {
        if (ev->index >= 0) {
            size_t i = (size_t)ev->index;

            pv->focus = 0;
            if (!is_key(pv, i))
                return UI_REDRAW;
            if (i == pv->sel)
                return (int)k == ROW_ARCH ? arch_open(ui, pv)
                                          : edit(ui, k, NULL);
            pv->sel = i;
            return UI_REDRAW;
        }
        pv->focus = ev->index == -2 ? 1 : 2;
        return UI_REDRAW;
    }
    if (pv->focus > 0) {
        switch (a) {
        case ACT_UP:
            if (*scroll > 0)
                (*scroll)--;
            return UI_REDRAW;
        case ACT_DOWN:
            (*scroll)++;
            return UI_REDRAW;
        case ACT_PAGE_UP:
            *scroll = *scroll > (size_t)page ? *scroll - (size_t)page : 0;
            return UI_REDRAW;
        case ACT_PAGE_DOWN:
            *scroll += (size_t)page;
            return UI_REDRAW;
        case ACT_HOME:
            *scroll = 0;
            return UI_REDRAW;
        case ACT_END:
            *scroll = RESULTS_H;
            return UI_REDRAW;
        case ACT_ENTER:
        case ACT_LEFT:
            pv->focus = 0;
            return UI_REDRAW;
        default:
            break;
        }
    }
    if ((int)k == ROW_ARCH && (r = arch_handle(ui, pv, a, ev)) != 0)
        return r;
    switch (a) {
    case ACT_PANE_NEXT:
        pv->focus = (pv->focus + 1) % (ui->cv.w >= 160 ? 3 : 2);
        return UI_REDRAW;
    case ACT_PANE_PREV:
        pv->focus =
            (pv->focus + (ui->cv.w >= 160 ? 2 : 1)) % (ui->cv.w >= 160 ? 3 : 2);
        return UI_REDRAW;
    case ACT_UP:
        move(pv, -1);
        return UI_REDRAW;
    case ACT_DOWN:
        move(pv, 1);
        return UI_REDRAW;
    case ACT_PAGE_UP:
        move(pv, -page);
        return UI_REDRAW;
    case ACT_PAGE_DOWN:
        move(pv, page);
        return UI_REDRAW;
    case ACT_HOME:
        pv->sel = 0;
        move(pv, 1);
        return UI_REDRAW;
    case ACT_END:
        pv->sel = pv->nrows - 1;
        return UI_REDRAW;
    case ACT_RIGHT:
        pv->focus = 1;
        return UI_REDRAW;
    case ACT_ENTER:
        return edit(ui, k, NULL);
    case ACT_FIELD_AUTO:
        if (!(plan_key_info(k)->flags & PKF_AUTO)) {
            ui_status(ui, true, "%s: only layout keys can be auto",
                      plan_key_info(k)->name);
            return UI_REDRAW;
        }
        return app_set_key(ui, k, "auto");
    case ACT_FIELD_DEFAULT:
        return app_unset_key(ui, k);
    case ACT_FIND:
        ui_prompt(ui, -1, "find key", "", NULL, find_change);
        return UI_REDRAW;
    case ACT_CANCEL:
        if (ui->bad_key >= 0 && ui->bad_text[0]) {
            ui->bad_key = -1;
            ui->bad_text[0] = '\0';
            return UI_REDRAW;
        }
        return 0;
    case ACT_NONE:
        /* a digit on a number field starts editing with it */
        if (((ev->key >= '0' && ev->key <= '9') || ev->key == '.') &&
            (plan_key_info(k)->type == PT_COUNT ||
             plan_key_info(k)->type == PT_NUMBER)) {
            char b[2] = {(char)ev->key, 0};

            return edit(ui, k, b);
        }
        return 0;
    default:
        return 0;
    }
}

static const struct view_ops plan_view_ops = {
    .name = "plan",
    .id = VIEW_PLAN,
    .open = pv_open,
    .draw = pv_draw,
    .handle = pv_handle,
    .show = NULL,
    .close = pv_close,
};
