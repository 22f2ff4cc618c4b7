/*
 * app.c - the TUI's model: the plan being edited and everything computed
 * from it.  Every number comes from the plan layer (plan_evaluate,
 * plan_search, plan_eval_layout, which call scenario_eval); every catalog
 * and file change goes through catalog/ and export/, the functions the CLI
 * commands use.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "export/export.h"
#include "export/metrics.h"
#include "plan/apply.h"
#include "ui/ui.h"
#include "util/fs.h"
#include "util/xalloc.h"

void app_default_plan(struct plan *p)
{
    plan_init(p, "plan");
    plan_set_key(p, PK_MODEL_PRESET, "llama3-70b", NULL, NULL);
    plan_set_key(p, PK_HW_ACCELERATOR, "h100-sxm", NULL, NULL);
    plan_set_key(p, PK_HW_GPUS, "1024", NULL, NULL);
    plan_set_key(p, PK_TRAIN_TOKENS, "15T", NULL, NULL);
}

const char *ui_num(double v, char *buf, size_t n)
{
    return export_human_number(v, buf, n);
}

double app_metric(const struct result *r, const char *section, const char *key,
                  const char **text)
{
    size_t i, n;
    const struct metric *m = metrics_table(&n);

    for (i = 0; i < n; i++)
        if (strcmp(m[i].section, section) == 0 && strcmp(m[i].key, key) == 0) {
            if (text)
                *text = metric_text(&m[i], r);
            return metric_value(&m[i], r);
        }
    if (text)
        *text = "";
    return 0;
}

void app_compare_eval(struct ui *ui)
{
    size_t i;

    for (i = 0; i < ui->ncmp; i++) {
        struct ui_compare *c = &ui->cmp[i];
        char buf[256], *save = NULL, *tok;

        c->plan = ui->plan;
        diag_clear(&c->d);
        c->st = CP_OK;
        snprintf(buf, sizeof(buf), "%s", c->changes);
        for (tok = strtok_r(buf, " ,", &save); tok && !c->st;
             tok = strtok_r(NULL, " ,", &save))
            c->st = plan_set_assignment(&c->plan, tok, &c->d);
        if (!c->st)
            c->st =
                plan_evaluate(&c->plan, ui->cat, OBJECTIVE_TIME, &c->oc, &c->d);
    }
}

/* The search's progress during an evaluation: a key that arrives is
 * queued and cuts the evaluation short (the script backend never has one
 * waiting, so screen tests evaluate every time). */
static bool eval_progress(void *ctx, uint64_t done)
{
    struct ui *ui = ctx;
    struct ui_event ev;

    (void)done;
    while (ui->nevq < (int)(sizeof(ui->evq) / sizeof(ui->evq[0])) &&
           ui->term->ops->read(ui->term, &ev, 0) == 1) {
        ui->evq[ui->nevq++] = ev;
        ui->cancel = 1;
    }
    return !ui->cancel;
}

bool ui_results_stale(const struct ui *ui)
{
    return ui->have_result && (!ui->ok || ui->eval_pending);
}

/* The plan cannot be evaluated: mark the key at fault, say why. */
static void show_refusal(struct ui *ui)
{
    const struct diag *d = &ui->diag;
    enum plan_key k;

    if (plan_key_find(d->where, &k) == CP_OK) {
        ui->bad_key = (int)k;
        ui->bad_text[0] = '\0';
    }
    ui_status(ui, true, "%s%s%s", d->where, d->where[0] ? ": " : "",
              d->msg[0] ? d->msg : cp_status_str(ui->st));
}

bool app_recompute(struct ui *ui)
{
    struct plan_outcome *tmp;
    struct diag d;
    enum cp_status st;

    if (ui->eval_valid && ui->eval_gen == ui->catalog_gen &&
        plan_equal(&ui->plan, &ui->eval_plan)) {
        /* evaluated already (live while typing, then Enter): no second
         * evaluation, the same outcome */
        ui->eval_pending = false;
        if (!ui->ok)
            show_refusal(ui);
        if (ui_current(ui) == VIEW_COMPARE)
            app_compare_eval(ui);
        return true;
    }
    tmp = xcalloc(1, sizeof(*tmp));
    diag_clear(&d);
    ui->cancel = 0;
    st = plan_evaluate_ex(&ui->plan, ui->cat, OBJECTIVE_TIME, eval_progress,
                          ui, &ui->cancel, tmp, &d);
    if (st == CP_ERR_CANCELLED) {
        ui->eval_pending = true;
        free(tmp);
        return false;
    }
    ui->nevals++;
    ui->st = st;
    ui->eval_pending = false;
    ui->eval_valid = true;
    ui->eval_plan = ui->plan;
    ui->eval_gen = ui->catalog_gen;
    if (ui->st == CP_OK) {
        *ui->oc = *tmp;
        ui->ok = true;
        ui->have_result = true;
        if (ui->bad_key >= 0 && !ui->bad_text[0])
            ui->bad_key = -1;
        diag_clear(&ui->diag);
    } else {
        ui->ok = false;
        ui->diag = d;
        show_refusal(ui);
    }
    free(tmp);
    if (ui_current(ui) == VIEW_COMPARE)
        app_compare_eval(ui);
    return true;
}

unsigned app_set_key(struct ui *ui, enum plan_key k, const char *text)
{
    struct diag d;
    enum cp_status st;

    while (*text == ' ')
        text++;
    if (!*text)
        return app_unset_key(ui, k);
    diag_clear(&d);
    st = plan_set_key(&ui->plan, k, text, NULL, &d);
    if (st) {
        ui->bad_key = (int)k;
        snprintf(ui->bad_text, sizeof(ui->bad_text), "%s", text);
        ui_status(ui, true, "%s: %s",
                  d.where[0] ? d.where : plan_key_info(k)->name,
                  d.msg[0] ? d.msg : cp_status_str(st));
        return UI_REDRAW;
    }
    ui->bad_key = -1;
    ui->bad_text[0] = '\0';
    ui_status(ui, false, "%s = %s", plan_key_info(k)->name, text);
    return UI_RECOMPUTE | UI_REDRAW;
}

unsigned app_unset_key(struct ui *ui, enum plan_key k)
{
    ui->plan.v[k].set = false;
    ui->plan.v[k].is_auto = false;
    if (ui->bad_key == (int)k) {
        ui->bad_key = -1;
        ui->bad_text[0] = '\0';
    }
    ui_status(ui, false, "%s: default", plan_key_info(k)->name);
    return UI_RECOMPUTE | UI_REDRAW;
}

unsigned app_layout_auto(struct ui *ui)
{
    int k;

    /* The layout only: hardware.gpus (auto sizes a serving fleet, and a
     * training plan refuses it) and serve.max_batch are not layout keys. */
    for (k = 0; k < PLAN_KEY_COUNT; k++) {
        const struct field_info *ki = plan_key_info((enum plan_key)k);

        if ((ki->flags & PKF_AUTO) && strcmp(ki->section, "parallel") == 0)
            plan_set_key(&ui->plan, (enum plan_key)k, "auto", NULL, NULL);
    }
    plan_set_key(&ui->plan, PK_TRAIN_ATTENTION, "auto", NULL, NULL);
    if (ui->bad_key >= 0 &&
        (plan_key_info((enum plan_key)ui->bad_key)->flags & PKF_AUTO) &&
        strcmp(plan_key_info((enum plan_key)ui->bad_key)->section,
               "parallel") == 0) {
        ui->bad_key = -1;
        ui->bad_text[0] = '\0';
    }
    ui_status(ui, false, "every layout key is auto: the search chooses");
    return UI_RECOMPUTE | UI_REDRAW;
}

bool app_plan_modified(const struct ui *ui)
{
    return !plan_equal(&ui->plan, &ui->saved_plan);
}

void app_track_edit(struct ui *ui)
{
    if (ui->modal.kind != MODAL_NONE ||
        plan_equal(&ui->plan, &ui->undo_base))
        return;
    if (ui->nundo == UI_UNDO_MAX) {
        memmove(ui->undo, ui->undo + 1,
                (UI_UNDO_MAX - 1) * sizeof(ui->undo[0]));
        ui->nundo--;
    }
    ui->undo[ui->nundo++] = ui->undo_base;
    ui->undo_base = ui->plan;
}

unsigned app_undo(struct ui *ui)
{
    char name[sizeof(ui->plan.name)];

    if (ui->nundo == 0) {
        ui_status(ui, true, "nothing to undo");
        return UI_REDRAW;
    }
    snprintf(name, sizeof(name), "%s", ui->plan.name);
    ui->plan = ui->undo[--ui->nundo];
    snprintf(ui->plan.name, sizeof(ui->plan.name), "%s", name);
    ui->undo_base = ui->plan;
    ui->bad_key = -1;
    ui->bad_text[0] = '\0';
    ui_status(ui, false, "undone (%zu more level%s)", ui->nundo,
              ui->nundo == 1 ? "" : "s");
    return UI_RECOMPUTE | UI_REDRAW;
}

static double now_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static bool search_progress(void *ctx, uint64_t done)
{
    struct ui *ui = ctx;
    struct ui_event ev;
    double t = now_s();
    char b[32];

    if (t - ui->search_progress_t0 > 0.1) {
        ui->search_progress_t0 = t;
        ui_status(ui, false, "searching: %s layouts checked (Esc cancels)",
                  ui_num((double)done, b, sizeof(b)));
        ui_redraw(ui);
    }
    while (ui->term->ops->read(ui->term, &ev, 0) == 1) {
        if (ev.key == UK_ESC || ev.key == UK_CTRL('c') || ev.key == 'q' ||
            ev.key == UK_SIGNAL)
            ui->cancel = 1;
        if (ev.key == UK_RESIZE)
            canvas_resize(&ui->cv, ev.x, ev.y);
    }
    return !ui->cancel;
}

void app_search(struct ui *ui)
{
    struct plan_layouts *pl = xcalloc(1, sizeof(*pl));
    struct diag d;
    enum cp_status st;
    size_t i;
    char b[32];

    diag_clear(&d);
    ui->nlay = 0;
    ui->searched = false;
    ui->cancel = 0;
    ui->search_progress_t0 = now_s();
    /* the pipeline of `llmplan search`: the plan's own search space */
    st = plan_search_layouts(&ui->plan, ui->cat, OBJECTIVE_TIME, UI_SEARCH_TOP,
                             pl, search_progress, ui, &ui->cancel, &d);
    ui->search_st = st;
    ui->search_diag = d;
    if (st) {
        ui_status(ui, st != CP_ERR_CANCELLED, "search: %s",
                  st == CP_ERR_CANCELLED ? "cancelled"
                  : d.msg[0]             ? d.msg
                                         : cp_status_str(st));
        free(pl);
        return;
    }
    *ui->sr = pl->sr;
    *ui->search_res = pl->res;
    for (i = 0; i < pl->n && i < UI_SEARCH_TOP; i++) {
        ui->lay[i].hit = pl->sr.hits[i];
        ui->lay[i].sc = pl->sc[i];
        ui->lay[i].r = pl->r[i];
    }
    ui->nlay = i;
    ui->searched = true;
    ui->search_plan = ui->plan;
    ui->search_applied = false;
    ui_status(ui, false, "%s layouts checked, %s fit; best %zu shown",
              ui_num((double)ui->sr->candidates, b, sizeof(b)),
              ui_num((double)ui->sr->feasible, b + 16, sizeof(b) - 16),
              ui->nlay);
    free(pl);
}

bool app_search_current(const struct ui *ui)
{
    if (!ui->searched)
        return false;
    return plan_equal(&ui->plan, &ui->search_plan) ||
           (ui->search_applied && plan_equal(&ui->plan, &ui->applied_plan));
}

unsigned app_apply_layout(struct ui *ui, size_t i)
{
    const struct layout *l;
    bool current = app_search_current(ui);

    if (i >= ui->nlay)
        return 0;
    l = &ui->lay[i].hit.layout;
    plan_apply_hit(&ui->plan, &ui->lay[i].hit, NULL);
    if (plan_is_serve(&ui->plan)) {
        ui->bad_key = -1;
        ui->bad_text[0] = '\0';
        ui_status(ui, false, "replica %zu applied: tp %llu pp %llu", i + 1,
                  (unsigned long long)l->tp, (unsigned long long)l->pp);
        return UI_RECOMPUTE | UI_REDRAW;
    }
    /* the results still belong to this plan: one of them is applied */
    if (current) {
        ui->applied_plan = ui->plan;
        ui->search_applied = true;
    }
    ui->bad_key = -1;
    ui->bad_text[0] = '\0';
    ui_status(ui, false,
              "layout %zu applied: tp %llu pp %llu dp %llu cp %llu ep %llu",
              i + 1, (unsigned long long)l->tp, (unsigned long long)l->pp,
              (unsigned long long)l->dp, (unsigned long long)l->cp,
              (unsigned long long)l->ep);
    return UI_RECOMPUTE | UI_REDRAW;
}

enum cp_status app_compare_add(struct ui *ui, const char *changes,
                               struct diag *d)
{
    struct plan p = ui->plan;
    char buf[256], *save = NULL, *tok;
    enum cp_status st = CP_OK;

    if (ui->ncmp >= UI_COMPARE_MAX)
        return diag_set(d, CP_ERR_RANGE, "compare", "at most %d plans",
                        UI_COMPARE_MAX);
    snprintf(buf, sizeof(buf), "%s", changes);
    for (tok = strtok_r(buf, " ,", &save); tok && !st;
         tok = strtok_r(NULL, " ,", &save))
        st = plan_set_assignment(&p, tok, d);
    if (st)
        return st;
    memset(&ui->cmp[ui->ncmp], 0, sizeof(ui->cmp[0]));
    snprintf(ui->cmp[ui->ncmp].changes, sizeof(ui->cmp[0].changes), "%s",
             changes);
    ui->ncmp++;
    return CP_OK;
}

void app_compare_remove(struct ui *ui, size_t i)
{
    if (i == 0 || i >= ui->ncmp)
        return;
    memmove(&ui->cmp[i], &ui->cmp[i + 1],
            (ui->ncmp - i - 1) * sizeof(ui->cmp[0]));
    ui->ncmp--;
}

/* "~/x" -> "$HOME/x". */
static void expand_path(const char *in, char *out, size_t n)
{
    const char *home = getenv("HOME");

    if (in[0] == '~' && in[1] == '/' && home)
        snprintf(out, n, "%s%s", home, in + 1);
    else
        snprintf(out, n, "%s", in);
}

static bool ends_with(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);

    return a >= b && strcmp(s + a - b, suf) == 0;
}

enum cp_status app_export(struct ui *ui, enum view_id what, const char *path,
                          struct diag *d)
{
    struct export_item items[UI_SEARCH_TOP];
    struct export_search es;
    struct atomic_file af;
    char full[4096];
    bool json;
    size_t n = 0, i;
    enum cp_status st;

    expand_path(path, full, sizeof(full));
    json = ends_with(full, ".json");
    if (what == VIEW_SEARCH) {
        if (!app_search_current(ui) || ui->nlay == 0)
            return diag_set(d, CP_ERR_USAGE, "export",
                            "no search results to export");
        for (i = 0; i < ui->nlay; i++) {
            items[n].name = ui->plan.name;
            items[n].sc = &ui->lay[i].sc;
            items[n].r = &ui->lay[i].r;
            items[n].res = ui->search_res;
            n++;
        }
    } else if (what == VIEW_COMPARE) {
        for (i = 0; i < ui->ncmp; i++) {
            if (ui->cmp[i].st)
                return diag_set(d, ui->cmp[i].st, "export",
                                "plan %zu cannot be evaluated: %s", i + 1,
                                ui->cmp[i].d.msg);
            items[n].name = i == 0 ? ui->plan.name : ui->cmp[i].changes;
            items[n].sc = &ui->cmp[i].oc.res.sc;
            items[n].r = &ui->cmp[i].oc.result;
            items[n].res = &ui->cmp[i].oc.res;
            n++;
        }
    } else {
        if (!ui->ok)
            return diag_set(d, ui->st, "export",
                            "the plan cannot be evaluated: %s", ui->diag.msg);
        items[0].name = ui->plan.name;
        items[0].sc = &ui->oc->res.sc;
        items[0].r = &ui->oc->result;
        items[0].res = &ui->oc->res;
        n = 1;
    }
    if (n == 0)
        return diag_set(d, CP_ERR_USAGE, "export", "nothing to export");
    st = atomic_file_open(&af, full, 0644, d);
    if (st)
        return st;
    if (what == VIEW_SEARCH) {
        es.evaluated = ui->sr->candidates;
        es.feasible = ui->sr->feasible;
        es.elapsed_s = ui->sr->elapsed_s;
        es.objective = objective_name(OBJECTIVE_TIME);
        st = json ? export_json_search_ex(af.fp, &es, ui->sr->stopped_early,
                                          items, n, d)
                  : export_csv_search(af.fp, items, n, d);
    } else if (what == VIEW_COMPARE) {
        st = json ? export_json_compare(af.fp, items, n, d)
                  : export_csv_metrics(af.fp, items, n, d);
    } else {
        st = json ? export_json_quote(af.fp, &items[0], d)
                  : export_csv_metrics(af.fp, items, 1, d);
    }
    if (st) {
        atomic_file_abort(&af);
        return st;
    }
    return atomic_file_commit(&af, d);
}

enum cp_status app_load_plan(struct ui *ui, const char *arg, struct diag *d)
{
    struct plan *p = xcalloc(1, sizeof(*p));
    enum cp_status st;

    plan_init(p, NULL);
    if (arg[0] == '@') {
        char *text = NULL;

        st = catalog_plan_load(ui->cat, arg + 1, &text, d);
        if (st == CP_ERR_NOT_FOUND)
            diag_set(d, st, arg, "no saved plan of that name");
        if (!st)
            st = plan_parse_ini(p, arg, text, d);
        free(text);
        if (!st)
            snprintf(p->name, sizeof(p->name), "%s", arg + 1);
    } else {
        char full[4096];

        expand_path(arg, full, sizeof(full));
        st = plan_load_file(p, full, d);
    }
    if (!st) {
        ui->plan = *p;
        ui->saved_plan = *p;
        ui->bad_key = -1;
        ui->bad_text[0] = '\0';
    }
    free(p);
    return st;
}

enum cp_status app_save_plan(struct ui *ui, const char *name, struct diag *d)
{
    struct strbuf sb = STRBUF_INIT;
    enum cp_status st;

    st = plan_write_ini(&ui->plan, &sb);
    if (!st)
        st = catalog_plan_save(ui->cat, name, sb.buf ? sb.buf : "", d);
    strbuf_release(&sb);
    if (!st) {
        snprintf(ui->plan.name, sizeof(ui->plan.name), "%s", name);
        ui->saved_plan = ui->plan;
    }
    return st;
}

void app_remember(struct ui *ui)
{
    struct strbuf sb = STRBUF_INIT;

    if (!plan_write_ini(&ui->plan, &sb)) {
        catalog_setting_put(ui->cat, "tui.plan", sb.buf ? sb.buf : "", NULL);
        catalog_setting_put(ui->cat, "tui.plan_name", ui->plan.name, NULL);
    }
    strbuf_release(&sb);
    if (ui->theme_idx >= 0)
        catalog_setting_put(ui->cat, "tui.theme", theme_builtin[ui->theme_idx],
                            NULL);
}

static enum cp_status add_row(void *ctx, const char *const *values, size_t n)
{
    struct ui_rows *r = ctx;
    size_t j;

    if (r->ncols == 0)
        r->ncols = n;
    if (r->n == r->alloc) {
        r->alloc = r->alloc * 2 + 16;
        r->cells = xrealloc(r->cells, r->alloc * r->ncols * sizeof(char *));
    }
    for (j = 0; j < r->ncols; j++)
        r->cells[r->n * r->ncols + j] =
            xstrdup(j < n && values[j] ? values[j] : "");
    r->n++;
    return CP_OK;
}

enum cp_status app_catalog_rows(struct ui *ui, enum catalog_kind k,
                                struct ui_rows *out, struct diag *d)
{
    size_t ncols;

    memset(out, 0, sizeof(*out));
    catalog_columns(k, &ncols);
    out->ncols = ncols;
    return catalog_foreach(ui->cat, k, NULL, add_row, out, d);
}

void ui_rows_release(struct ui_rows *r)
{
    size_t i;

    for (i = 0; i < r->n * r->ncols; i++)
        free(r->cells[i]);
    free(r->cells);
    memset(r, 0, sizeof(*r));
}

const char *ui_rows_cell(const struct ui_rows *r, size_t i, size_t j)
{
    if (i >= r->n || j >= r->ncols)
        return "";
    return r->cells[i * r->ncols + j];
}

int app_catalog_col(enum catalog_kind k, const char *name)
{
    size_t i, n;
    const struct catalog_column *c = catalog_columns(k, &n);

    for (i = 0; i < n; i++)
        if (strcmp(c[i].name, name) == 0)
            return (int)i;
    return -1;
}
