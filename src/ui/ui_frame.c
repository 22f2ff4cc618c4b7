/*
 * ui_frame.c - the frame around the views: the title line with the views
 * as tabs, the status line and the htop-style function bar; ui_redraw
 * draws them, the current view and an open modal.  Below 80x24 one line
 * says the terminal is too small.
 */
#include <stdio.h>

#include "ui/ui.h"
#include "ui/widgets.h"

/* ---- the frame --------------------------------------------------------- */

static const enum view_id tabs[] = {VIEW_PLAN, VIEW_COMPARE, VIEW_SEARCH,
                                    VIEW_SIZE, VIEW_CATALOG, VIEW_HELP};
static const enum action tab_actions[] = {ACT_VIEW_PLAN,    ACT_VIEW_COMPARE,
                                          ACT_VIEW_SEARCH,  ACT_VIEW_SIZE,
                                          ACT_VIEW_CATALOG, ACT_HELP};

/* The width of the tab bar: " k Label " and a space per tab. */
static int tabs_width(const struct ui *ui)
{
    size_t i;
    int w = 0;
    char key[16], label[32];

    for (i = 0; i < sizeof(tabs) / sizeof(tabs[0]); i++) {
        keymap_key_name(keymap_key_for(&ui->km, VIEW_GLOBAL, tab_actions[i]),
                        key, sizeof(key));
        snprintf(label, sizeof(label), " %s %s ", key,
                 action_label(tab_actions[i]));
        w += canvas_text_width(label) + 1;
    }
    return w;
}

/* The title's right end in at most avail columns: "plan (modified)
 * theme: default ", without the theme when it does not fit, the name cut
 * with '~' when even that does not. */
static void title_right(const struct ui *ui, int avail, char *out, size_t n)
{
    const char *mod = app_plan_modified(ui) ? " (modified)" : "";
    int name_w;

    snprintf(out, n, "%s%s  theme: %s ", ui->plan.name, mod,
             ui->colors ? ui->theme.name : "none (no colours)");
    if (canvas_text_width(out) + 9 <= avail)
        return;
    snprintf(out, n, "%s%s ", ui->plan.name, mod);
    if (canvas_text_width(out) <= avail)
        return;
    name_w = avail - canvas_text_width(mod) - 2;
    if (name_w < 1)
        name_w = 1;
    snprintf(out, n, "%.*s~%s ", name_w - 1 > 0 ? name_w - 1 : 0, ui->plan.name,
             mod);
}

static void draw_title(struct ui *ui)
{
    struct canvas *c = &ui->cv;
    size_t i;
    int x;
    char right[200];

    canvas_fill(c, (struct rect){0, 0, c->w, 1}, ' ', THEME_TITLE);
    /* The plan's name and state come before the program's name and the
     * theme: the theme gives way first, then "llmplan" (80 columns), then
     * the name is cut (with '~'), never "(modified)". */
    title_right(ui, c->w - tabs_width(ui) - 1, right, sizeof(right));
    x = 1;
    if (tabs_width(ui) + 9 + canvas_text_width(right) < c->w)
        x = canvas_text(c, 1, 0, -1, "llmplan", THEME_TITLE) + 2;
    for (i = 0; i < sizeof(tabs) / sizeof(tabs[0]); i++) {
        enum view_id v = tabs[i];
        char key[16], label[32];
        int w;

        keymap_key_name(keymap_key_for(&ui->km, VIEW_GLOBAL, tab_actions[i]),
                        key, sizeof(key));
        snprintf(label, sizeof(label), " %s %s ", key,
                 action_label(tab_actions[i]));
        w = canvas_text(c, x, 0, -1, label,
                        ui_current(ui) == v ? THEME_TAB_ACTIVE : THEME_TAB);
        ui_hit(ui, (struct rect){x, 0, w, 1}, tab_actions[i], -1);
        x += w + 1;
    }
    if (x + canvas_text_width(right) < c->w)
        canvas_text(c, c->w - canvas_text_width(right), 0, -1, right,
                    THEME_TITLE);
}

/* A hint for the status line when there is nothing to say. */
static const char *view_hint(enum view_id v)
{
    switch (v) {
    case VIEW_PLAN:
        return "Enter edit  a auto  A all auto  u undo  Del default  "
               "w save  o open  x export";
    case VIEW_COMPARE:
        return "a add a plan (key=value ...)  Del remove  Left/Right "
               "choose the chart's plan";
    case VIEW_SEARCH:
        return "Enter apply the layout  > sort by next column  < reverse  "
               "r search again";
    case VIEW_SIZE:
        return "Enter make the point the plan  l limits  r size again";
    case VIEW_CATALOG:
        return "Left/Right kind  / filter  Tab fields  Enter edit  u undo  "
               "a add  Del delete  i import";
    default:
        return "Esc close";
    }
}

static void draw_status(struct ui *ui)
{
    struct canvas *c = &ui->cv;
    int y = c->h - 2;
    struct modal *m = &ui->modal;

    canvas_fill(c, (struct rect){0, y, c->w, 1}, ' ', THEME_STATUS);
    if (m->kind == MODAL_PROMPT) {
        int n =
            canvas_printf(c, 0, y, -1, THEME_DIALOG_TITLE, " %s: ", m->title);
        int tw = canvas_text_width(m->text);
        int room = c->w - n - 2;
        const char *t = m->text;

        /* show the end of a long input */
        while (tw > room && *t) {
            t++;
            while ((*t & 0xC0) == 0x80)
                t++;
            tw--;
        }
        canvas_text(c, n, y, room, t, THEME_FIELD_EDIT);
        canvas_put(c, n + tw, y, '_', THEME_FIELD_EDIT);
        return;
    }
    if (m->kind == MODAL_CONFIRM) {
        canvas_printf(c, 0, y, -1, THEME_DIALOG_TITLE, " %s (y/n) ", m->title);
        return;
    }
    if (ui->status[0])
        canvas_printf(c, 0, y, -1,
                      ui->status_error ? THEME_STATUS_ERROR : THEME_STATUS,
                      " %s", ui->status);
    else if (!ui->ok && ui_current(ui) == VIEW_PLAN)
        canvas_printf(c, 0, y, -1, THEME_STATUS_ERROR, " %s%s%s",
                      ui->diag.where, ui->diag.where[0] ? ": " : "",
                      ui->diag.msg);
    else
        canvas_printf(c, 0, y, -1, THEME_STATUS, " %s",
                      view_hint(ui_current(ui)));
}

static void draw_funcbar(struct ui *ui)
{
    struct funckey k[12];
    enum action acts[12];
    char names[12][8];
    int xs[13];
    size_t n = 0, i, shown;
    int f;
    enum view_id v = ui_current(ui);

    for (f = 1; f <= 12; f++) {
        enum action a = keymap_lookup(&ui->km, v, UK_F(f));

        if (a == ACT_NONE)
            continue;
        snprintf(names[n], sizeof(names[n]), "F%d", f);
        k[n].key = names[n];
        k[n].label = action_label(a);
        acts[n] = a;
        n++;
    }
    shown = widget_funcbar(&ui->cv, ui->cv.h - 1, ui->cv.w, k, n, xs);
    for (i = 0; i < shown; i++)
        ui_hit(ui, (struct rect){xs[i], ui->cv.h - 1, xs[i + 1] - xs[i], 1},
               acts[i], -1);
}

void ui_redraw(struct ui *ui)
{
    struct canvas *c = &ui->cv;
    enum view_id v = ui_current(ui);

    ui->nhits = 0;
    canvas_clear(c, THEME_NORMAL);
    if (c->w < UI_MIN_W || c->h < UI_MIN_H) {
        char msg[96];

        snprintf(msg, sizeof(msg), "terminal too small: %dx%d, needs %dx%d",
                 c->w, c->h, UI_MIN_W, UI_MIN_H);
        canvas_text(c, 0, 0, -1,
                    canvas_text_width(msg) <= c->w ? msg : "terminal too small",
                    THEME_STATUS_ERROR);
    } else {
        draw_title(ui);
        ui->views[v]->draw(ui, ui->vdata[v], c,
                           (struct rect){0, 1, c->w, c->h - 3});
        draw_status(ui);
        draw_funcbar(ui);
        if (ui->modal.kind == MODAL_PICKER)
            ui_draw_picker(ui);
    }
    ui->term->ops->blit(ui->term, c);
}
