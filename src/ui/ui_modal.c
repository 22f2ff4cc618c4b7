/*
 * ui_modal.c - the modal dialogs: prompt, confirmation and picker, their
 * keys and their drawing.  All of their state is the struct modal in
 * struct ui; each takes the ui it belongs to.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui/ui.h"
#include "ui/widgets.h"
#include "util/xalloc.h"

#define DETAIL_LINES 4 /* a detail picker's note, wrapped */

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

unsigned ui_modal_key(struct ui *ui, const struct ui_event *ev)
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

void ui_draw_picker(struct ui *ui)
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
