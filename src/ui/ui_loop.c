/*
 * ui_loop.c - the TUI's loop: read an event, look its key up in the
 * keymap, let the modal or the current view handle it, recompute once
 * when asked (UI_RECOMPUTE) and no key is waiting, redraw.
 */
#include <string.h>

#include "ui/ui.h"

/* ---- the loop ---------------------------------------------------------- */

static unsigned dispatch(struct ui *ui, struct ui_event *ev)
{
    enum view_id v = ui_current(ui);
    const struct view_ops *ops = ui->views[v];
    enum action a;
    unsigned r;
    bool small = ui->cv.w < UI_MIN_W || ui->cv.h < UI_MIN_H;

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
        return ui_modal_key(ui, ev);
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
                return r ? r : ui_global_action(ui, a);
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
    return ui_global_action(ui, a);
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
void ui_loop(struct ui *ui)
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
        n = next_event(ui, &ev, ui->headless ? -1 : ui->eval_pending ? 0 : 500);
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
