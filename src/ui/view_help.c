/*
 * view_help.c - the keys of the view underneath, generated from the
 * action table and the keymap (defaults plus the user's bind lines), so
 * the help can never disagree with what the keys do.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui/ui.h"
#include "ui/widgets.h"
#include "util/xalloc.h"

static const struct view_ops help_view_ops; /* defined at the end */

const struct view_ops *view_help(void)
{
    return &help_view_ops;
}

struct hv {
    size_t top;
};

/* The first action of each group of ACTION_LIST, and its heading. */
static const struct {
    enum action first;
    const char *title;
} groups[] = {
    {ACT_HELP, "VIEWS"},          {ACT_PANE_NEXT, "MOVING"},
    {ACT_ENTER, "EDITING"},       {ACT_PLAN_SAVE, "PLANS"},
    {ACT_COMPARE_ADD, "COMPARE"}, {ACT_SEARCH_RUN, "SEARCH"},
    {ACT_SIZE_LIMITS, "SIZE"},    {ACT_ROW_ADD, "CATALOG"},
};

/* The group of actions that belongs to view v. */
static size_t own_group(enum view_id v)
{
    switch (v) {
    case VIEW_COMPARE:
        return 4;
    case VIEW_SEARCH:
        return 5;
    case VIEW_SIZE:
        return 6;
    case VIEW_CATALOG:
        return 7;
    default:
        return 2;
    }
}

static void *hv_open(struct ui *ui)
{
    (void)ui;
    return xcalloc(1, sizeof(struct hv));
}

static void hv_close(struct ui *ui, void *st)
{
    (void)ui;
    free(st);
}

/* The keys that run a in view v, as "? F1". */
static void keys_for(const struct ui *ui, enum view_id v, enum action a,
                     char *buf, size_t n)
{
    size_t i, len = 0;

    buf[0] = '\0';
    for (i = 0; i < ui->km.n; i++) {
        const struct binding *b = &ui->km.b[i];
        char k[16];

        if (b->action != a || (b->view != v && b->view != VIEW_GLOBAL))
            continue;
        if (keymap_lookup(&ui->km, v, b->key) != a)
            continue;
        keymap_key_name(b->key, k, sizeof(k));
        if (strstr(buf, k) && strlen(k) > 1)
            continue;
        len += (size_t)snprintf(buf + len, len < n ? n - len : 0, "%s%s",
                                len ? " " : "", k);
        if (len >= n)
            break;
    }
}

static void hv_draw(struct ui *ui, void *st, struct canvas *c, struct rect r)
{
    struct hv *hv = st;
    enum view_id v = ui->depth >= 2 ? ui->stack[ui->depth - 2] : VIEW_PLAN;
    char title[128], keys[ACT_COUNT][64];
    int lines[ACT_COUNT * 2]; /* > 0: an action; <= 0: -group heading */
    size_t nlines = 0, g, i, k, head;
    int a, cols, cw, help_w = 0;

    snprintf(title, sizeof(title),
             "Keys of the %s view (bind lines in $XDG_CONFIG_HOME/llmplan/"
             "keys)",
             view_name(v));
    widget_heading(c, (struct rect){r.x, r.y, r.w, 1}, title, 1);
    r.y++;
    r.h--;
    /* the lines: a group's heading when some action of it has a key; the
     * view's own group first */
    for (k = 0; k <= sizeof(groups) / sizeof(groups[0]); k++) {
        int last;

        g = k == 0 ? own_group(v) : k - 1;
        if (k > 0 && g == own_group(v))
            continue;
        last = g + 1 < sizeof(groups) / sizeof(groups[0])
                   ? (int)groups[g + 1].first
                   : ACT_COUNT;
        head = nlines;

        lines[nlines++] = -(int)g;
        for (a = (int)groups[g].first; a < last; a++) {
            keys_for(ui, v, (enum action)a, keys[a], sizeof(keys[a]));
            if (keys[a][0])
                lines[nlines++] = a;
        }
        if (nlines == head + 1)
            nlines = head;
    }
    /* Two columns only when each holds the longest help line whole. */
    for (i = 0; i < nlines; i++)
        if (lines[i] > 0 &&
            canvas_text_width(action_help((enum action)lines[i])) > help_w)
            help_w = canvas_text_width(action_help((enum action)lines[i]));
    cols = r.w / 2 >= 34 + help_w ? 2 : 1;
    cw = r.w / cols;
    if (hv->top + (size_t)(r.h * cols) > nlines)
        hv->top =
            nlines > (size_t)(r.h * cols) ? nlines - (size_t)(r.h * cols) : 0;
    for (i = hv->top; i < nlines && i - hv->top < (size_t)(r.h * cols); i++) {
        int row = (int)(i - hv->top) % r.h;
        int x = r.x + (int)((i - hv->top) / (size_t)r.h) * cw;
        int y = r.y + row;

        if (lines[i] <= 0) {
            canvas_text(c, x + 1, y, cw - 2, groups[-lines[i]].title,
                        THEME_SECTION);
            continue;
        }
        a = lines[i];
        widget_text(c, x + 2, y, 14, keys[a], THEME_KEY, 0);
        widget_text(c, x + 17, y, 15, action_name((enum action)a), THEME_LABEL,
                    0);
        widget_text(c, x + 33, y, cw - 34, action_help((enum action)a),
                    THEME_NORMAL, 0);
    }
}

static unsigned hv_handle(struct ui *ui, void *st, enum action a,
                          const struct ui_event *ev)
{
    struct hv *hv = st;

    (void)ui;
    (void)ev;
    switch (a) {
    case ACT_UP:
    case ACT_PAGE_UP:
        hv->top = hv->top > 10 && a == ACT_PAGE_UP ? hv->top - 10
                  : hv->top > 0                    ? hv->top - 1
                                                   : 0;
        return UI_REDRAW;
    case ACT_DOWN:
        if (hv->top < ACT_COUNT)
            hv->top++;
        return UI_REDRAW;
    case ACT_PAGE_DOWN:
        hv->top = hv->top + 10 < ACT_COUNT ? hv->top + 10 : hv->top;
        return UI_REDRAW;
    case ACT_HOME:
        hv->top = 0;
        return UI_REDRAW;
    default:
        return 0;
    }
}

static void hv_show(struct ui *ui, void *st)
{
    (void)ui;
    ((struct hv *)st)->top = 0;
}

static const struct view_ops help_view_ops = {
    .name = "help",
    .id = VIEW_HELP,
    .open = hv_open,
    .draw = hv_draw,
    .handle = hv_handle,
    .show = hv_show,
    .close = hv_close,
};
