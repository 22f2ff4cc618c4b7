/*
 * ui_actions.c - the global actions of any view: theme, save, rename,
 * delete, load (asking over unsaved edits), new, export (asking before
 * replacing a file), explain and quit.  What a confirmation waits for is
 * kept in ui->pending.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/metrics.h"
#include "ui/ui.h"
#include "util/fs.h"
#include "util/xalloc.h"

/* ---- global actions ---------------------------------------------------- */

void ui_apply_theme(struct ui *ui)
{
    if (!ui->colors && !ui->theme.mono)
        theme_make_mono(&ui->theme);
    ui->term->ops->set_theme(ui->term, &ui->theme);
}

static unsigned save_done(struct ui *ui, int tag, const char *value, int idx)
{
    struct diag d;

    (void)tag;
    (void)idx;
    if (!value)
        return UI_REDRAW;
    diag_clear(&d);
    if (app_save_plan(ui, value, &d))
        ui_status(ui, true, "save: %s%s%s", d.where, d.where[0] ? ": " : "",
                  d.msg);
    else
        ui_status(ui, false, "plan saved as '%s'", value);
    return UI_REDRAW;
}

static unsigned rename_done(struct ui *ui, int tag, const char *value, int idx)
{
    struct diag d;

    (void)tag;
    (void)idx;
    if (!value || !value[0])
        return UI_REDRAW;
    diag_clear(&d);
    if (catalog_plan_rename(ui->cat, ui->pending.plan, value, &d)) {
        ui_status(ui, true, "rename: %s", d.msg);
    } else {
        if (strcmp(ui->plan.name, ui->pending.plan) == 0)
            snprintf(ui->plan.name, sizeof(ui->plan.name), "%s", value);
        ui_status(ui, false, "plan '%s' renamed to '%s'", ui->pending.plan,
                  value);
    }
    return UI_REDRAW;
}

static unsigned delete_done(struct ui *ui, int tag, const char *value, int idx)
{
    struct diag d;

    (void)tag;
    (void)idx;
    if (!value)
        return UI_REDRAW;
    diag_clear(&d);
    if (catalog_plan_delete(ui->cat, ui->pending.plan, &d))
        ui_status(ui, true, "delete: %s", d.msg);
    else
        ui_status(ui, false, "plan '%s' deleted", ui->pending.plan);
    return UI_REDRAW;
}

static unsigned load_now(struct ui *ui, const char *arg)
{
    struct diag d;

    diag_clear(&d);
    if (app_load_plan(ui, arg, &d)) {
        ui_status(ui, true, "%s%s%s", d.where, d.where[0] ? ": " : "", d.msg);
        return UI_REDRAW;
    }
    ui_status(ui, false, "plan '%s' loaded", ui->plan.name);
    return UI_RECOMPUTE | UI_REDRAW;
}

static unsigned load_confirmed(struct ui *ui, int tag, const char *value,
                               int idx)
{
    (void)tag;
    (void)idx;
    if (!value) {
        ui_status(ui, false, "not loaded: the edits stay");
        return UI_REDRAW;
    }
    return load_now(ui, ui->pending.load);
}

/* Load arg, asking first when that would drop unsaved edits. */
static unsigned load_checked(struct ui *ui, const char *arg)
{
    char q[200];

    if (!app_plan_modified(ui))
        return load_now(ui, arg);
    snprintf(ui->pending.load, sizeof(ui->pending.load), "%s", arg);
    snprintf(q, sizeof(q), "plan '%s' has unsaved edits: load over them?",
             ui->plan.name);
    ui_confirm(ui, 0, q, load_confirmed);
    return UI_REDRAW;
}

static unsigned file_done(struct ui *ui, int tag, const char *value, int idx)
{
    (void)tag;
    (void)idx;
    if (!value || !value[0])
        return UI_REDRAW;
    return load_checked(ui, value);
}

static unsigned menu_done(struct ui *ui, int tag, const char *value, int idx)
{
    char q[200];

    (void)tag;
    if (!value)
        return UI_REDRAW;
    if (idx == 0) {
        char arg[PLAN_NAME_MAX + 1];

        snprintf(arg, sizeof(arg), "@%s", ui->pending.plan);
        return load_checked(ui, arg);
    }
    if (idx == 1) {
        ui_prompt(ui, 0, "new name", ui->pending.plan, rename_done, NULL);
        return UI_REDRAW;
    }
    snprintf(q, sizeof(q), "delete the saved plan '%s'?", ui->pending.plan);
    ui_confirm(ui, 0, q, delete_done);
    return UI_REDRAW;
}

static unsigned load_done(struct ui *ui, int tag, const char *value, int idx)
{
    static const struct ui_item menu[] = {
        {"load", "make it the current plan"},
        {"rename", "give it another name"},
        {"delete", "remove it from the catalog"},
    };

    (void)tag;
    if (!value)
        return UI_REDRAW;
    if (idx == 0) {
        ui_prompt(ui, 0, "plan file", "", file_done, NULL);
        return UI_REDRAW;
    }
    snprintf(ui->pending.plan, sizeof(ui->pending.plan), "%s", value);
    ui_picker(ui, 0, value, menu, 3, 0, menu_done);
    return UI_REDRAW;
}

struct plan_list {
    struct modal_item *items;
    size_t n, alloc;
};

static enum cp_status list_plan(void *ctx, const char *name,
                                const char *updated_at)
{
    struct plan_list *l = ctx;

    if (l->n == l->alloc) {
        l->alloc = l->alloc * 2 + 8;
        l->items = xrealloc(l->items, l->alloc * sizeof(*l->items));
    }
    l->items[l->n].text = xstrdup(name);
    l->items[l->n].note = xstrdup(updated_at ? updated_at : "");
    l->n++;
    return CP_OK;
}

static void open_plans(struct ui *ui)
{
    struct plan_list l = {NULL, 0, 0};
    struct ui_item *items;
    struct diag d;
    size_t i;

    diag_clear(&d);
    list_plan(&l, "(a plan file...)", "read an INI plan file");
    if (catalog_plan_list(ui->cat, list_plan, &l, &d))
        ui_status(ui, true, "plans: %s", d.msg);
    items = xcalloc(l.n, sizeof(*items));
    for (i = 0; i < l.n; i++) {
        items[i].text = l.items[i].text;
        items[i].note = l.items[i].note;
    }
    ui_picker(ui, 0, "saved plans", items, l.n, l.n > 1 ? 1 : 0, load_done);
    free(items);
    for (i = 0; i < l.n; i++) {
        free(l.items[i].text);
        free(l.items[i].note);
    }
    free(l.items);
}

static unsigned new_done(struct ui *ui, int tag, const char *value, int idx)
{
    (void)tag;
    (void)idx;
    if (!value)
        return UI_REDRAW;
    app_default_plan(&ui->plan);
    ui->saved_plan = ui->plan;
    ui->bad_key = -1;
    ui->bad_text[0] = '\0';
    ui_status(ui, false, "the default plan");
    return UI_RECOMPUTE | UI_REDRAW;
}

static unsigned export_write(struct ui *ui, int tag, const char *path,
                             ui_export_fn write)
{
    struct diag d;
    char abs[4096];

    diag_clear(&d);
    if (write(ui, tag, path, &d)) {
        ui_status(ui, true, "export: %s%s%s", d.where, d.where[0] ? ": " : "",
                  d.msg);
        return UI_REDRAW;
    }
    fs_abs_path(path, abs, sizeof(abs));
    ui_status(ui, false, "exported to %s", abs);
    return UI_REDRAW;
}

static unsigned export_replace_done(struct ui *ui, int tag, const char *value,
                                    int idx)
{
    (void)tag;
    (void)idx;
    if (!value) {
        ui_status(ui, false, "not exported: '%s' is left as it was",
                  ui->pending.export_path);
        return UI_REDRAW;
    }
    return export_write(ui, ui->pending.export_tag, ui->pending.export_path,
                        ui->pending.export_write);
}

unsigned ui_export_to(struct ui *ui, int tag, const char *path,
                      ui_export_fn write)
{
    char q[MODAL_TEXT_MAX + 64];

    if (!fs_exists(path))
        return export_write(ui, tag, path, write);
    snprintf(ui->pending.export_path, sizeof(ui->pending.export_path), "%s",
             path);
    ui->pending.export_tag = tag;
    ui->pending.export_write = write;
    snprintf(q, sizeof(q), "'%s' exists: replace it?", path);
    ui_confirm(ui, 0, q, export_replace_done);
    return UI_REDRAW;
}

static enum cp_status export_view(struct ui *ui, int tag, const char *path,
                                  struct diag *d)
{
    return app_export(ui, (enum view_id)tag, path, d);
}

static unsigned export_done(struct ui *ui, int tag, const char *value, int idx)
{
    (void)idx;
    if (!value || !value[0])
        return UI_REDRAW;
    return ui_export_to(ui, tag, value, export_view);
}

/* ---- explain ----------------------------------------------------------- */

static unsigned explain_done(struct ui *ui, int tag, const char *value, int idx)
{
    (void)tag;
    (void)idx;
    if (value)
        ui_status(ui, false, "%s", value);
    return UI_REDRAW;
}

/* Every number of the plan's result with its formula (the quote --explain
 * table), then the catalog rows it came from with their source and date:
 * a picker to filter by name, the selected row's note in full below. */
static void open_explain(struct ui *ui)
{
    const struct plan_resolved *res = &ui->oc->res;
    const struct result *r = &ui->oc->result;
    size_t n, i, k = 0;
    const struct metric *m = metrics_table(&n);
    struct ui_item *items = xcalloc(n + PLAN_SOURCES_MAX, sizeof(*items));
    char(*text)[128] = xcalloc(n + PLAN_SOURCES_MAX, sizeof(*text));
    char(*note)[600] = xcalloc(n + PLAN_SOURCES_MAX, sizeof(*note));
    char title[160];

    if (!ui->have_result) {
        ui_status(ui, true, "explain: the plan has no result yet");
        goto out;
    }
    for (i = 0; i < n; i++, k++) {
        const char *t = metric_text(&m[i], r);
        char v[64];

        if (m[i].kind == MK_BOOL)
            t = metric_value(&m[i], r) ? "yes" : "no";
        if (!t[0])
            t = ui_num(metric_value(&m[i], r), v, sizeof(v));
        snprintf(text[k], sizeof(text[k]), "%s.%s = %s%s%s", m[i].section,
                 m[i].key, t, m[i].unit[0] ? " " : "", m[i].unit);
        snprintf(note[k], sizeof(note[k]), "= %s",
                 m[i].formula && m[i].formula[0] ? m[i].formula
                                                 : "an input of the plan");
        items[k].text = text[k];
        items[k].note = note[k];
    }
    for (i = 0; i < res->nsources && i < PLAN_SOURCES_MAX; i++, k++) {
        const struct plan_source *s = &res->sources[i];
        char row[CP_TEXT_MAX + 32], price[CP_TEXT_MAX + 32];

        snprintf(text[k], sizeof(text[k]), "source %s = %s", s->key, s->id);
        catalog_meta_text(&s->meta, false, row, sizeof(row));
        catalog_meta_text(&s->meta, true, price, sizeof(price));
        snprintf(note[k], sizeof(note[k]), "%s%s%s", row,
                 price[0] ? "; price: " : "", price);
        items[k].text = text[k];
        items[k].note = note[k];
    }
    snprintf(title, sizeof(title), "explain %s%s (type to filter)",
             ui->plan.name, ui_results_stale(ui) ? ", stale result" : "");
    ui_picker(ui, 0, title, items, k, 0, explain_done);
    ui->modal.detail = true;
out:
    free(items);
    free(text);
    free(note);
}

static unsigned quit_done(struct ui *ui, int tag, const char *value, int idx)
{
    (void)tag;
    (void)idx;
    if (!value)
        return UI_REDRAW;
    ui->quit = true;
    return UI_QUIT;
}

/* The actions that go to a view. */
static const struct {
    enum action a;
    enum view_id v;
} view_actions[] = {
    {ACT_VIEW_PLAN, VIEW_PLAN},     {ACT_VIEW_COMPARE, VIEW_COMPARE},
    {ACT_VIEW_SEARCH, VIEW_SEARCH}, {ACT_VIEW_SIZE, VIEW_SIZE},
    {ACT_VIEW_CATALOG, VIEW_CATALOG},
};

unsigned ui_global_action(struct ui *ui, enum action a)
{
    enum view_id v = ui_current(ui);
    char b[PLAN_NAME_MAX + 160];
    int i;

    for (i = 0; i < (int)(sizeof(view_actions) / sizeof(view_actions[0]));
         i++)
        if (view_actions[i].a == a) {
            ui_switch(ui, view_actions[i].v);
            return UI_REDRAW;
        }
    switch (a) {
    case ACT_HELP:
        if (v == VIEW_HELP) {
            ui->depth--;
            return UI_REDRAW;
        }
        ui_switch(ui, VIEW_HELP);
        return UI_REDRAW;
    case ACT_QUIT:
        if (app_plan_modified(ui)) {
            /* the edits are not lost (app_remember), only unsaved */
            snprintf(b, sizeof(b),
                     "'%s' has unsaved edits (the next start has them): "
                     "quit?",
                     ui->plan.name);
            ui_confirm(ui, 0, b, quit_done);
            return UI_REDRAW;
        }
        ui->quit = true;
        return UI_QUIT;
    case ACT_UNDO:
        return app_undo(ui);
    case ACT_EXPLAIN:
        open_explain(ui);
        return UI_REDRAW;
    case ACT_LAYOUT_AUTO:
        return app_layout_auto(ui);
    case ACT_CLOSE:
    case ACT_CANCEL:
        if (ui->depth > 1)
            ui->depth--;
        ui->status[0] = '\0';
        return UI_REDRAW;
    case ACT_THEME_NEXT:
        for (i = 0; theme_builtin[i]; i++)
            ;
        ui->theme_idx = ui->theme_idx < 0 ? 0 : (ui->theme_idx + 1) % i;
        theme_load(&ui->theme, theme_builtin[ui->theme_idx], NULL);
        ui_apply_theme(ui);
        ui_status(ui, false, "theme: %s%s", ui->theme.name,
                  ui->colors ? "" : " (no colours)");
        return UI_REDRAW;
    case ACT_PLAN_SAVE:
        ui_prompt(ui, 0, "save plan as", ui->plan.name, save_done, NULL);
        return UI_REDRAW;
    case ACT_PLAN_LOAD:
        open_plans(ui);
        return UI_REDRAW;
    case ACT_PLAN_NEW:
        ui_confirm(ui, 0,
                   app_plan_modified(ui)
                       ? "drop the unsaved edits and start again from the "
                         "default plan?"
                       : "start again from the default plan?",
                   new_done);
        return UI_REDRAW;
    case ACT_EXPORT:
        snprintf(b, sizeof(b), "%s%s.csv", ui->plan.name,
                 v == VIEW_COMPARE  ? "-compare"
                 : v == VIEW_SEARCH ? "-layouts"
                                    : "");
        ui_prompt(ui,
                  v == VIEW_COMPARE || v == VIEW_SEARCH ? (int)v : VIEW_PLAN,
                  "export to (.csv or .json)", b, export_done, NULL);
        return UI_REDRAW;
    default:
        return 0;
    }
}
