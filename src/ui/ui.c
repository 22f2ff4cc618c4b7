/*
 * ui.c - the TUI's entry point: `llmplan tui` (its options and files),
 * setting the UI up (catalog, plan, theme, user keys, views), running the
 * loop (ui_loop.c) and tearing it down; and the small services the views
 * share (the current view, the status line, clickable regions).
 *
 * The rest of the TUI core: ui_loop.c (events), ui_modal.c (prompts,
 * confirmations, pickers), ui_frame.c (title, status and function bar),
 * ui_actions.c (the global actions: save, load, export, explain, quit).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "plan/hfconfig.h"
#include "ui/ui.h"
#include "util/fs.h"
#include "util/xalloc.h"

/* ---- small services for the views ------------------------------------- */

enum view_id ui_current(const struct ui *ui)
{
    return ui->stack[ui->depth - 1];
}

void ui_switch(struct ui *ui, enum view_id v)
{
    if (v == VIEW_HELP) {
        if (ui_current(ui) == VIEW_HELP)
            return;
        if (ui->depth < (int)(sizeof(ui->stack) / sizeof(ui->stack[0])))
            ui->stack[ui->depth++] = v;
    } else {
        ui->depth = 1;
        ui->stack[0] = v;
    }
    if (ui->views[v] && ui->views[v]->show)
        ui->views[v]->show(ui, ui->vdata[v]);
}

void ui_status(struct ui *ui, bool error, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(ui->status, sizeof(ui->status), fmt, ap);
    va_end(ap);
    ui->status_error = error;
}

void ui_hit(struct ui *ui, struct rect r, enum action a, int index)
{
    if (ui->nhits >= UI_HITS_MAX)
        return;
    ui->hits[ui->nhits].r = r;
    ui->hits[ui->nhits].action = a;
    ui->hits[ui->nhits].view = ui_current(ui);
    ui->hits[ui->nhits].index = index;
    ui->nhits++;
}

/* ---- set-up and tear-down ---------------------------------------------- */

static void load_user_keys(struct ui *ui)
{
    char path[4096], shown[4096];
    const char *home = getenv("HOME");
    size_t hl = home ? strlen(home) : 0;
    struct strbuf text, err;

    if (fs_xdg_config_path(path, sizeof(path), "keys", NULL))
        return;
    /* messages name it as a user would: ~/.config/llmplan/keys */
    if (hl > 1 && strncmp(path, home, hl) == 0 && path[hl] == '/')
        snprintf(shown, sizeof(shown), "~%s", path + hl);
    else
        snprintf(shown, sizeof(shown), "%s", path);
    strbuf_init(&text, 1 << 20);
    strbuf_init(&err, 0);
    if (!strbuf_read_file(&text, path) &&
        keymap_parse(&ui->km, shown, text.buf ? text.buf : "", &err)) {
        char *nl = strchr(err.buf, '\n');

        if (nl)
            *nl = '\0';
        ui_status(ui, true, "%s", err.buf);
    }
    strbuf_release(&text);
    strbuf_release(&err);
}

/* The model of a global --model-config over the starting plan. */
static enum cp_status start_model_config(struct ui *ui, struct diag *d)
{
    if (!ui->g->model_config)
        return CP_OK;
    return hfconfig_apply(&ui->plan, ui->g->model_config, "--model-config", d);
}

static enum cp_status start_plan(struct ui *ui, const char *plan_arg,
                                 struct diag *d)
{
    char *text = NULL, *name = NULL;
    enum cp_status st;

    if (plan_arg) {
        st = app_load_plan(ui, plan_arg, d);
        return st ? st : start_model_config(ui, d);
    }
    app_default_plan(&ui->plan);
    if (catalog_setting_get(ui->cat, "tui.plan", &text, NULL) == CP_OK) {
        struct plan *p = xcalloc(1, sizeof(*p));

        plan_init(p, "plan");
        if (plan_parse_ini(p, "tui.plan", text, NULL) == CP_OK) {
            ui->plan = *p;
            if (catalog_setting_get(ui->cat, "tui.plan_name", &name, NULL) ==
                    CP_OK &&
                name[0])
                snprintf(ui->plan.name, sizeof(ui->plan.name), "%s", name);
        }
        free(p);
    }
    free(text);
    free(name);
    return start_model_config(ui, d);
}

static enum cp_status start_theme(struct ui *ui, struct diag *d)
{
    struct strbuf err;
    char *saved = NULL;
    const char *name = ui->g->theme;
    enum cp_status st;
    int i;

    if (!name &&
        catalog_setting_get(ui->cat, "tui.theme", &saved, NULL) == CP_OK)
        name = saved;
    if (!name)
        name = "default";
    strbuf_init(&err, 0);
    st = theme_load(&ui->theme, name, &err);
    ui->theme_idx = -1;
    for (i = 0; theme_builtin[i]; i++)
        if (strcmp(theme_builtin[i], ui->theme.name) == 0)
            ui->theme_idx = i;
    if (st == CP_ERR_NOT_FOUND && ui->g->theme) {
        char *nl = strchr(err.buf, '\n');

        if (nl)
            *nl = '\0';
        diag_set(d, st, "--theme", "%s", err.buf);
    } else if (st == CP_ERR_NOT_FOUND) {
        theme_load(&ui->theme, "default", NULL);
        ui->theme_idx = 0;
        st = CP_OK;
    } else if (st) {
        char *nl = strchr(err.buf, '\n');

        if (nl)
            *nl = '\0';
        ui_status(ui, true, "%s", err.buf);
        st = CP_OK;
    }
    strbuf_release(&err);
    free(saved);
    return st;
}

struct run_opts {
    const char *plan;
    const char *script;
    const char *dump;
    int w, h;
};

static int run(const struct global_opts *g, const struct run_opts *o)
{
    struct ui *ui = xcalloc(1, sizeof(*ui));
    struct diag d;
    enum cp_status st;
    int rc = 0, w, h, i;

    diag_clear(&d);
    ui->g = g;
    ui->bad_key = -1;
    ui->depth = 1;
    ui->stack[0] = VIEW_PLAN;
    ui->oc = xcalloc(1, sizeof(*ui->oc));
    ui->cmp = xcalloc(UI_COMPARE_MAX, sizeof(*ui->cmp));
    ui->lay = xcalloc(UI_SEARCH_TOP, sizeof(*ui->lay));
    ui->sr = xcalloc(1, sizeof(*ui->sr));
    ui->search_res = xcalloc(1, sizeof(*ui->search_res));
    ui->undo = xcalloc(UI_UNDO_MAX, sizeof(*ui->undo));
    keymap_init(&ui->km);
    st = catalog_open(g->catalog_path, CATALOG_OPEN_DEFAULT, &ui->cat, &d);
    if (!st)
        st = start_theme(ui, &d);
    if (!st)
        st = start_plan(ui, o->plan, &d);
    if (!st) {
        if (o->script) {
            st = term_script_new(o->script, o->w, o->h, &ui->term, &d);
            ui->headless = true;
        } else {
            ui->term = term_curses_new();
        }
    }
    if (!st)
        st = ui->term->ops->open(ui->term, &d);
    if (st) {
        rc = report_error(st, &d);
        goto out;
    }
    load_user_keys(ui);
    ui->colors = ui->term->ops->has_colors(ui->term) && !g->no_color;
    ui_apply_theme(ui);
    ui->term->ops->size(ui->term, &w, &h);
    canvas_init(&ui->cv, w, h, ui->term->ops->utf8(ui->term));
    ui->views[VIEW_PLAN] = view_plan();
    ui->views[VIEW_COMPARE] = view_compare();
    ui->views[VIEW_SEARCH] = view_search();
    ui->views[VIEW_SIZE] = view_size();
    ui->views[VIEW_CATALOG] = view_catalog();
    ui->views[VIEW_HELP] = view_help();
    ui->views[VIEW_GLOBAL] = view_plan();
    for (i = 1; i < VIEW_COUNT; i++)
        ui->vdata[i] = ui->views[i]->open(ui);
    ui->saved_plan = ui->plan;
    ui->undo_base = ui->plan;
    ui->eval_pending = true;
    ui_loop(ui);
    if (getenv("LLMPLAN_TEST_EVALS"))
        fprintf(stderr, "llmplan: test: %lu evaluations\n", ui->nevals);
    ui_modal_close(ui);
    app_remember(ui);
    ui->term->ops->close(ui->term);
    if (o->dump) {
        struct strbuf sb = STRBUF_INIT;
        struct atomic_file af;

        canvas_dump(&ui->cv, &sb, theme_element_name);
        st = atomic_file_open(&af, o->dump, 0644, &d);
        if (!st && fwrite(sb.buf, 1, sb.len, af.fp) != sb.len) {
            atomic_file_abort(&af);
            st = diag_set(&d, CP_ERR_IO, o->dump, "cannot write");
        } else if (!st) {
            st = atomic_file_commit(&af, &d);
        }
        strbuf_release(&sb);
        if (st)
            rc = report_error(st, &d);
    }
    for (i = 1; i < VIEW_COUNT; i++)
        if (ui->vdata[i])
            ui->views[i]->close(ui, ui->vdata[i]);
    canvas_release(&ui->cv);
out:
    if (ui->term)
        ui->term->ops->free(ui->term);
    if (ui->cat)
        catalog_close(ui->cat);
    keymap_release(&ui->km);
    free(ui->sr);
    free(ui->search_res);
    free(ui->undo);
    free(ui->lay);
    free(ui->cmp);
    free(ui->oc);
    free(ui);
    return rc;
}

int ui_main(const struct global_opts *g, const char *plan_arg)
{
    struct run_opts o = {plan_arg, NULL, NULL, 80, 24};

    return run(g, &o);
}

static int check_files(int argc, char **argv, int i, bool keys)
{
    int rc = 0;

    for (; i < argc && argv[i][0] != '-'; i++) {
        struct strbuf err;
        enum cp_status st;

        strbuf_init(&err, 0);
        if (keys) {
            struct strbuf text;
            struct keymap km;

            strbuf_init(&text, 1 << 20);
            keymap_init(&km);
            if (strbuf_read_file(&text, argv[i])) {
                strbuf_addf(&err, "%s: cannot read\n", argv[i]);
                st = CP_ERR_NOT_FOUND;
            } else {
                st = keymap_parse(&km, argv[i], text.buf ? text.buf : "", &err);
            }
            keymap_release(&km);
            strbuf_release(&text);
        } else {
            st = theme_check_file(argv[i], &err);
        }
        if (err.len)
            fputs(err.buf, stderr);
        if (st)
            rc = 2;
        strbuf_release(&err);
    }
    return rc;
}

static int tui_usage(FILE *out)
{
    fprintf(out, "usage: llmplan [GLOBAL] tui [PLAN]\n\n"
                 "start the interactive TUI, optionally with a plan loaded "
                 "(a file or @NAME)\n");
    return out == stdout ? 0 : 2;
}

int ui_cmd_tui(const struct global_opts *g, int argc, char **argv)
{
    struct run_opts o = {NULL, NULL, NULL, 80, 24};
    int i;

    for (i = 1; i < argc; i++) {
        const char *a = argv[i];

        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0)
            return tui_usage(stdout);
        if (strcmp(a, "--check-theme") == 0 || strcmp(a, "--check-keys") == 0)
            return check_files(argc, argv, i + 1,
                               strcmp(a, "--check-keys") == 0);
        if (strcmp(a, "--ui-script") == 0 && i + 1 < argc) {
            o.script = argv[++i];
        } else if (strcmp(a, "--ui-dump") == 0 && i + 1 < argc) {
            o.dump = argv[++i];
        } else if (strcmp(a, "--ui-size") == 0 && i + 1 < argc) {
            char x;

            if (sscanf(argv[++i], "%d%c%d", &o.w, &x, &o.h) != 3 || x != 'x' ||
                o.w < 1 || o.h < 1 || o.w > 1000 || o.h > 1000) {
                fprintf(stderr,
                        "llmplan: --ui-size: expected WxH, got "
                        "'%.32s'\n",
                        argv[i]);
                return 2;
            }
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "llmplan: tui: %.64s: unknown option\n", a);
            return tui_usage(stderr);
        } else if (!o.plan) {
            o.plan = a;
        } else {
            fprintf(stderr, "llmplan: tui: %.64s: takes one plan\n", a);
            return 2;
        }
    }
    if (!o.script && (!isatty(0) || !isatty(1))) {
        fprintf(stderr, "llmplan: tui: needs a terminal (stdin and "
                        "stdout)\n");
        return 2;
    }
    return run(g, &o);
}
