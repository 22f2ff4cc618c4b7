/*
 * ui.c - the TUI's loop: read an event, look its key up in the keymap,
 * let the modal or the current view handle it, recompute once when asked
 * (UI_RECOMPUTE), draw every visible part into the canvas, show it.
 *
 * Frame: the title line with the views as tabs, the view, the status line
 * and the htop-style function bar.  Below 80x24 one line says the
 * terminal is too small.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "export/metrics.h"
#include "plan/hfconfig.h"
#include "ui/ui.h"
#include "ui/widgets.h"
#include "util/fs.h"
#include "util/xalloc.h"

#define MIN_W 80
#define MIN_H 24
#define DETAIL_LINES 4 /* a detail picker's note, wrapped */

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

/* ---- modals ------------------------------------------------------------ */

void ui_modal_close(struct ui *ui)
{
    size_t i;

    for (i = 0; i < ui->modal.nitems; i++) {
        free(ui->modal.items[i].text);
        free(ui->modal.items[i].note);
    }
    free(ui->modal.items);
    free(ui->modal.shown);
    memset(&ui->modal, 0, sizeof(ui->modal));
}

static void modal_start(struct ui *ui, enum modal_kind kind, int tag,
                        const char *title, const char *initial,
                        modal_done_fn done)
{
    ui_modal_close(ui);
    ui->modal.kind = kind;
    ui->modal.tag = tag;
    ui->modal.done = done;
    snprintf(ui->modal.title, sizeof(ui->modal.title), "%s", title);
    snprintf(ui->modal.text, sizeof(ui->modal.text), "%s",
             initial ? initial : "");
    ui->modal.len = strlen(ui->modal.text);
}

void ui_prompt(struct ui *ui, int tag, const char *title, const char *initial,
               modal_done_fn done, modal_change_fn change)
{
    modal_start(ui, MODAL_PROMPT, tag, title, initial, done);
    ui->modal.change = change;
}

void ui_confirm(struct ui *ui, int tag, const char *question,
                modal_done_fn done)
{
    modal_start(ui, MODAL_CONFIRM, tag, question, NULL, done);
}

bool ui_contains(const char *hay, const char *needle)
{
    size_t i, j, n = strlen(needle);

    if (!n)
        return true;
    for (i = 0; hay[i]; i++) {
        for (j = 0; j < n && hay[i + j]; j++) {
            char a = hay[i + j], b = needle[j];

            if (a >= 'A' && a <= 'Z')
                a = (char)(a - 'A' + 'a');
            if (b >= 'A' && b <= 'Z')
                b = (char)(b - 'A' + 'a');
            if (a != b)
                break;
        }
        if (j == n)
            return true;
    }
    return false;
}

static void picker_filter(struct ui *ui)
{
    struct modal *m = &ui->modal;
    size_t i;

    m->nshown = 0;
    for (i = 0; i < m->nitems; i++)
        if (ui_contains(m->items[i].text, m->text) ||
            (m->items[i].note && ui_contains(m->items[i].note, m->text)))
            m->shown[m->nshown++] = i;
    if (m->sel >= m->nshown)
        m->sel = m->nshown ? m->nshown - 1 : 0;
}

void ui_picker(struct ui *ui, int tag, const char *title,
               const struct ui_item *items, size_t n, size_t sel,
               modal_done_fn done)
{
    size_t i;

    modal_start(ui, MODAL_PICKER, tag, title, NULL, done);
    ui->modal.items = xcalloc(n ? n : 1, sizeof(*ui->modal.items));
    ui->modal.shown = xcalloc(n ? n : 1, sizeof(*ui->modal.shown));
    for (i = 0; i < n; i++) {
        ui->modal.items[i].text = xstrdup(items[i].text);
        ui->modal.items[i].note = items[i].note ? xstrdup(items[i].note) : NULL;
    }
    ui->modal.nitems = n;
    picker_filter(ui);
    ui->modal.sel = sel < ui->modal.nshown ? sel : 0;
}

/* Close the modal, then call its done callback (which may open another). */
static unsigned modal_finish(struct ui *ui, bool ok)
{
    modal_done_fn done = ui->modal.done;
    int tag = ui->modal.tag, index = -1;
    char value[MODAL_TEXT_MAX];
    bool have = ok;

    value[0] = '\0';
    if (ok && ui->modal.kind == MODAL_PICKER) {
        if (ui->modal.nshown == 0) {
            have = false;
        } else {
            index = (int)ui->modal.shown[ui->modal.sel];
            snprintf(value, sizeof(value), "%s", ui->modal.items[index].text);
        }
    } else if (ok) {
        snprintf(value, sizeof(value), "%s", ui->modal.text);
    }
    ui_modal_close(ui);
    if (!done)
        return UI_REDRAW;
    return done(ui, tag, have ? value : NULL, index) | UI_REDRAW;
}

static void text_backspace(struct modal *m)
{
    while (m->len > 0) {
        unsigned char c = (unsigned char)m->text[--m->len];

        if ((c & 0xC0) != 0x80)
            break;
    }
    m->text[m->len] = '\0';
}

static void text_add(struct modal *m, int key)
{
    char b[4];
    size_t n;

    if (key < 0x80) {
        b[0] = (char)key;
        n = 1;
    } else if (key < 0x800) {
        b[0] = (char)(0xC0 | (key >> 6));
        b[1] = (char)(0x80 | (key & 0x3F));
        n = 2;
    } else if (key < 0x10000) {
        b[0] = (char)(0xE0 | (key >> 12));
        b[1] = (char)(0x80 | ((key >> 6) & 0x3F));
        b[2] = (char)(0x80 | (key & 0x3F));
        n = 3;
    } else {
        b[0] = (char)(0xF0 | (key >> 18));
        b[1] = (char)(0x80 | ((key >> 12) & 0x3F));
        b[2] = (char)(0x80 | ((key >> 6) & 0x3F));
        b[3] = (char)(0x80 | (key & 0x3F));
        n = 4;
    }
    if (m->len + n >= sizeof(m->text))
        return;
    memcpy(m->text + m->len, b, n);
    m->len += n;
    m->text[m->len] = '\0';
}

static int picker_rows(const struct ui *ui)
{
    int h = ui->cv.h - 8;

    return h < 3 ? 3 : h;
}

static unsigned modal_key(struct ui *ui, const struct ui_event *ev)
{
    struct modal *m = &ui->modal;
    int key = ev->key;
    bool edited = false;

    if (key == UK_SIGNAL || key == UK_CTRL('c')) {
        ui_modal_close(ui);
        ui->quit = true;
        return UI_QUIT;
    }
    if (m->kind == MODAL_CONFIRM) {
        if (key == 'y' || key == 'Y')
            return modal_finish(ui, true);
        if (key == 'n' || key == 'N' || key == UK_ESC || key == UK_ENTER)
            return modal_finish(ui, false);
        return UI_HANDLED;
    }
    if (key == UK_ESC)
        return modal_finish(ui, false);
    if (key == UK_ENTER)
        return modal_finish(ui, true);
    if (key == UK_MOUSE && m->kind == MODAL_PICKER) {
        int i;

        for (i = ui->nhits - 1; i >= 0; i--) {
            const struct rect *r = &ui->hits[i].r;

            if (ui->hits[i].index >= 0 && ev->x >= r->x &&
                ev->x < r->x + r->w && ev->y >= r->y && ev->y < r->y + r->h &&
                ui->hits[i].view == VIEW_COUNT) {
                m->sel = (size_t)ui->hits[i].index;
                return modal_finish(ui, true);
            }
        }
        return UI_HANDLED;
    }
    if (key == UK_BACKSPACE) {
        text_backspace(m);
        edited = true;
    } else if (key == UK_CTRL('u')) {
        m->len = 0;
        m->text[0] = '\0';
        edited = true;
    } else if (key >= 32 && key < UK_BASE) {
        text_add(m, key);
        edited = true;
    } else if (m->kind == MODAL_PICKER) {
        size_t page = (size_t)picker_rows(ui);

        if (key == UK_UP && m->sel > 0)
            m->sel--;
        else if (key == UK_DOWN && m->sel + 1 < m->nshown)
            m->sel++;
        else if (key == UK_PGUP)
            m->sel = m->sel > page ? m->sel - page : 0;
        else if (key == UK_PGDN)
            m->sel = m->sel + page < m->nshown ? m->sel + page
                     : m->nshown               ? m->nshown - 1
                                               : 0;
        else if (key == UK_HOME)
            m->sel = 0;
        else if (key == UK_END)
            m->sel = m->nshown ? m->nshown - 1 : 0;
    }
    if (edited && m->kind == MODAL_PICKER) {
        m->sel = 0;
        m->top = 0;
        picker_filter(ui);
    }
    if (edited && m->kind == MODAL_PROMPT && m->change)
        return m->change(ui, m->tag, m->text) | UI_REDRAW;
    return UI_REDRAW;
}

static void draw_picker(struct ui *ui)
{
    struct canvas *c = &ui->cv;
    struct modal *m = &ui->modal;
    int w = c->w - 8 > 64 ? 64 : c->w - 8;
    int rows = picker_rows(ui);
    int h, x, y, i;
    char b[64];

    if (m->detail && rows > DETAIL_LINES + 2)
        rows -= DETAIL_LINES + 1; /* room for the note in full */
    if ((int)m->nshown < rows)
        rows = (int)m->nshown < 1 ? 1 : (int)m->nshown;
    h = rows + 3 + (m->detail ? DETAIL_LINES + 1 : 0);
    x = (c->w - w) / 2;
    y = (c->h - h) / 2;
    canvas_fill(c, (struct rect){x, y, w, h}, ' ', THEME_DIALOG);
    widget_text(c, x + 1, y, w - 2, m->title, THEME_DIALOG_TITLE, 0);
    snprintf(b, sizeof(b), "%zu/%zu", m->nshown, m->nitems);
    widget_text(c, x + w - 1 - (int)strlen(b), y, (int)strlen(b), b,
                THEME_DIALOG_TITLE, 0);
    canvas_printf(c, x + 1, y + 1, w - 2, THEME_DIALOG, "filter: %s", m->text);
    canvas_put(c, x + 9 + canvas_text_width(m->text), y + 1, '_',
               THEME_FIELD_EDIT);
    widget_scroll(m->sel, m->nshown, rows, &m->top);
    for (i = 0; i < rows && m->top + (size_t)i < m->nshown; i++) {
        size_t k = m->shown[m->top + (size_t)i];
        int el = m->top + (size_t)i == m->sel ? THEME_CURSOR : THEME_DIALOG;
        int tw;

        canvas_fill(c, (struct rect){x + 1, y + 2 + i, w - 2, 1}, ' ', el);
        tw = widget_text(c, x + 2, y + 2 + i, w / 2, m->items[k].text, el, 0);
        if (m->items[k].note)
            widget_text(c, x + 3 + (tw > w / 2 - 2 ? tw : w / 2 - 2), y + 2 + i,
                        w - 4 - (tw > w / 2 - 2 ? tw : w / 2 - 2),
                        m->items[k].note, el == THEME_CURSOR ? el : THEME_DIM,
                        0);
        if (ui->nhits < UI_HITS_MAX) {
            ui->hits[ui->nhits].r = (struct rect){x + 1, y + 2 + i, w - 2, 1};
            ui->hits[ui->nhits].action = ACT_NONE;
            ui->hits[ui->nhits].view = VIEW_COUNT; /* the picker */
            ui->hits[ui->nhits].index = (int)(m->top + (size_t)i);
            ui->nhits++;
        }
    }
    if (m->nshown == 0)
        canvas_text(c, x + 2, y + 2, w - 4, "(nothing matches)", THEME_DIM);
    if (m->detail && m->nshown) {
        /* the selected row's note, wrapped */
        const char *note = m->items[m->shown[m->sel]].note;
        int dy = y + 2 + rows + 1, line, cw = w - 4;

        canvas_fill(c, (struct rect){x + 1, dy - 1, w - 2, 1},
                    widget_glyph(c, GL_HLINE), THEME_DIALOG);
        for (line = 0; line < DETAIL_LINES && note && *note; line++) {
            const char *p = note;
            int n = 0, cut = -1;

            while (p[n] && n < cw) {
                if (p[n] == ' ')
                    cut = n;
                n++;
            }
            if (p[n] && cut > 0 && line < DETAIL_LINES - 1)
                n = cut;
            while (n > 0 && ((unsigned char)p[n] & 0xC0) == 0x80)
                n--; /* not inside a character */
            canvas_text(c, x + 2, dy + line, n, note, THEME_DIALOG);
            note += n;
            while (*note == ' ')
                note++;
        }
    }
}

/* ---- the frame --------------------------------------------------------- */

static const enum view_id tabs[] = {VIEW_PLAN,   VIEW_COMPARE, VIEW_SEARCH,
                                    VIEW_SIZE,   VIEW_CATALOG, VIEW_HELP};
static const enum action tab_actions[] = {
    ACT_VIEW_PLAN, ACT_VIEW_COMPARE, ACT_VIEW_SEARCH,
    ACT_VIEW_SIZE, ACT_VIEW_CATALOG, ACT_HELP};

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
    snprintf(out, n, "%.*s~%s ", name_w - 1 > 0 ? name_w - 1 : 0,
             ui->plan.name, mod);
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
    if (c->w < MIN_W || c->h < MIN_H) {
        char msg[96];

        snprintf(msg, sizeof(msg), "terminal too small: %dx%d, needs %dx%d",
                 c->w, c->h, MIN_W, MIN_H);
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
            draw_picker(ui);
    }
    ui->term->ops->blit(ui->term, c);
}

/* ---- global actions ---------------------------------------------------- */

static void apply_theme(struct ui *ui)
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

static char pending_plan[PLAN_NAME_MAX];

static unsigned rename_done(struct ui *ui, int tag, const char *value, int idx)
{
    struct diag d;

    (void)tag;
    (void)idx;
    if (!value || !value[0])
        return UI_REDRAW;
    diag_clear(&d);
    if (catalog_plan_rename(ui->cat, pending_plan, value, &d)) {
        ui_status(ui, true, "rename: %s", d.msg);
    } else {
        if (strcmp(ui->plan.name, pending_plan) == 0)
            snprintf(ui->plan.name, sizeof(ui->plan.name), "%s", value);
        ui_status(ui, false, "plan '%s' renamed to '%s'", pending_plan, value);
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
    if (catalog_plan_delete(ui->cat, pending_plan, &d))
        ui_status(ui, true, "delete: %s", d.msg);
    else
        ui_status(ui, false, "plan '%s' deleted", pending_plan);
    return UI_REDRAW;
}

/* What a load over unsaved edits waits for: "@name" or a path. */
static char pending_load[4096];

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
    return load_now(ui, pending_load);
}

/* Load arg, asking first when that would drop unsaved edits. */
static unsigned load_checked(struct ui *ui, const char *arg)
{
    char q[200];

    if (!app_plan_modified(ui))
        return load_now(ui, arg);
    snprintf(pending_load, sizeof(pending_load), "%s", arg);
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

        snprintf(arg, sizeof(arg), "@%s", pending_plan);
        return load_checked(ui, arg);
    }
    if (idx == 1) {
        ui_prompt(ui, 0, "new name", pending_plan, rename_done, NULL);
        return UI_REDRAW;
    }
    snprintf(q, sizeof(q), "delete the saved plan '%s'?", pending_plan);
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
    snprintf(pending_plan, sizeof(pending_plan), "%s", value);
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

/* the export waiting for "replace it?" */
static struct {
    char path[MODAL_TEXT_MAX];
    int tag;
    ui_export_fn write;
} pending_export;

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
                  pending_export.path);
        return UI_REDRAW;
    }
    return export_write(ui, pending_export.tag, pending_export.path,
                        pending_export.write);
}

unsigned ui_export_to(struct ui *ui, int tag, const char *path,
                      ui_export_fn write)
{
    char q[MODAL_TEXT_MAX + 64];

    if (!fs_exists(path))
        return export_write(ui, tag, path, write);
    snprintf(pending_export.path, sizeof(pending_export.path), "%s", path);
    pending_export.tag = tag;
    pending_export.write = write;
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

static unsigned explain_done(struct ui *ui, int tag, const char *value,
                             int idx)
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

static unsigned global_action(struct ui *ui, enum action a)
{
    enum view_id v = ui_current(ui);
    char b[PLAN_NAME_MAX + 160];
    int i;

    switch (a) {
    case ACT_HELP:
        if (v == VIEW_HELP) {
            ui->depth--;
            return UI_REDRAW;
        }
        ui_switch(ui, VIEW_HELP);
        return UI_REDRAW;
    case ACT_VIEW_PLAN:
        ui_switch(ui, VIEW_PLAN);
        return UI_REDRAW;
    case ACT_VIEW_COMPARE:
        ui_switch(ui, VIEW_COMPARE);
        return UI_REDRAW;
    case ACT_VIEW_SEARCH:
        ui_switch(ui, VIEW_SEARCH);
        return UI_REDRAW;
    case ACT_VIEW_SIZE:
        ui_switch(ui, VIEW_SIZE);
        return UI_REDRAW;
    case ACT_VIEW_CATALOG:
        ui_switch(ui, VIEW_CATALOG);
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
        apply_theme(ui);
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

/* ---- the loop ---------------------------------------------------------- */

static unsigned dispatch(struct ui *ui, struct ui_event *ev)
{
    enum view_id v = ui_current(ui);
    const struct view_ops *ops = ui->views[v];
    enum action a;
    unsigned r;
    bool small = ui->cv.w < MIN_W || ui->cv.h < MIN_H;

    if (ev->key == UK_RESIZE) {
        canvas_resize(&ui->cv, ev->x, ev->y);
        return UI_REDRAW;
    }
    if (ev->key == UK_SIGNAL) {
        ui->quit = true;
        return UI_QUIT;
    }
    if (small) {
        a = keymap_lookup(&ui->km, v, ev->key);
        if (a == ACT_QUIT || ev->key == UK_CTRL('c')) {
            ui->quit = true;
            return UI_QUIT;
        }
        return 0;
    }
    if (ui->modal.kind != MODAL_NONE)
        return modal_key(ui, ev);
    ui->status[0] = '\0';
    ev->index = -1;
    if (ev->key == UK_MOUSE) {
        int i;

        for (i = ui->nhits - 1; i >= 0; i--) {
            const struct rect *hr = &ui->hits[i].r;

            if (ev->x < hr->x || ev->x >= hr->x + hr->w || ev->y < hr->y ||
                ev->y >= hr->y + hr->h)
                continue;
            if (ui->hits[i].action != ACT_NONE) {
                a = ui->hits[i].action;
                r = ops->handle(ui, ui->vdata[v], a, ev);
                return r ? r : global_action(ui, a);
            }
            ev->index = ui->hits[i].index;
            return ops->handle(ui, ui->vdata[v], ACT_NONE, ev);
        }
        return 0;
    }
    a = keymap_lookup(&ui->km, v, ev->key);
    r = ops->handle(ui, ui->vdata[v], a, ev);
    if (r)
        return r;
    return global_action(ui, a);
}

/* The next event: one queued during an evaluation, else the terminal's. */
static int next_event(struct ui *ui, struct ui_event *ev, int timeout_ms)
{
    if (ui->nevq > 0) {
        *ev = ui->evq[0];
        ui->nevq--;
        memmove(ui->evq, ui->evq + 1, (size_t)ui->nevq * sizeof(ui->evq[0]));
        return 1;
    }
    return ui->term->ops->read(ui->term, ev, timeout_ms);
}

/* A key already waiting (typed in a burst, pasted): queue it, so that the
 * evaluation waits until the typing stops. */
static bool key_waiting(struct ui *ui)
{
    struct ui_event ev;

    if (ui->nevq > 0)
        return true;
    if (ui->term->ops->read(ui->term, &ev, 0) != 1)
        return false;
    ui->evq[ui->nevq++] = ev;
    return true;
}

/* Keys never wait for an evaluation: an edit asks for one (UI_RECOMPUTE
 * marks it pending), the screen shows the edit at once with the old
 * results dimmed, and the plan is evaluated once no key is waiting - a
 * key arriving during a long layout search cuts it short, and the newest
 * plan is evaluated after it. */
static void loop(struct ui *ui)
{
    struct ui_event ev;
    int n;

    while (!ui->quit) {
        unsigned r;

        if (ui->eval_pending && !key_waiting(ui)) {
            if (!ui->headless)
                ui_redraw(ui); /* the edit first, the results dimmed */
            app_recompute(ui);
        }
        if (ui->nevq == 0)
            ui_redraw(ui);
        n = next_event(ui, &ev,
                       ui->headless       ? -1
                       : ui->eval_pending ? 0
                                          : 500);
        if (n < 0)
            break;
        if (n == 0)
            continue;
        r = dispatch(ui, &ev);
        if (r & UI_QUIT)
            break;
        app_track_edit(ui);
        if (r & UI_RECOMPUTE)
            ui->eval_pending = true;
    }
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
    apply_theme(ui);
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
    loop(ui);
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
