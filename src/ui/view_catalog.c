/*
 * view_catalog.c - browse and edit the catalog: one tab per kind, a table
 * of each row's compact columns with its source and as-of date, and the
 * selected row in full.  An edit writes only the cell edited (and marks
 * the row's source and as_of as a user edit) through catalog_row_update,
 * which re-reads the row in its transaction, so a concurrent import of
 * other columns is kept, and refuses when the cell itself changed; a
 * deletion removes that one row (one term of a cloud offer) through
 * catalog_row_delete_key; new rows (a copy of the selected one with a new
 * id) and CSV imports go through catalog_row_put and catalog_import_csv.
 * They validate; their message is shown when they refuse, and when
 * another process holds the catalog the status line says so.  Changes are
 * in the catalog at once, and the plan is evaluated again.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ui/ui.h"
#include "ui/widgets.h"
#include "util/xalloc.h"

static const struct view_ops catalog_view_ops; /* defined at the end */

const struct view_ops *view_catalog(void)
{
    return &catalog_view_ops;
}

#define COLS_MAX 48
#define CAT_UNDO_MAX 32

/* One cell edit, to undo: the cell and the provenance it rewrote, each
 * as it was before and as the edit left it. */
struct cat_undo {
    enum catalog_kind kind;
    char id[CP_ID_MAX], term[CP_ID_MAX];
    bool has_term, prov;
    size_t col, sc, dc; /* the cell, its source and date columns */
    char old_val[MODAL_TEXT_MAX], new_val[MODAL_TEXT_MAX];
    char old_src[CP_TEXT_MAX], new_src[CP_TEXT_MAX];
    char old_date[CP_DATE_MAX], new_date[CP_DATE_MAX];
};

struct gv {
    enum catalog_kind kind;
    struct ui_rows rows;
    size_t *shown, nshown;
    size_t sel, top;
    int focus; /* 0 table, 1 fields */
    size_t dsel, dtop;
    char filter[MODAL_TEXT_MAX];
    size_t cols[COLS_MAX]; /* the table's columns */
    size_t ncols;
    struct table_col tcols[COLS_MAX];
    struct cat_undo undo[CAT_UNDO_MAX]; /* the catalog's own undo (u) */
    size_t nundo;
};

static void refilter(struct gv *v)
{
    size_t i, j;

    v->nshown = 0;
    for (i = 0; i < v->rows.n; i++) {
        bool hit = !v->filter[0];

        for (j = 0; !hit && j < v->rows.ncols; j++)
            hit = ui_contains(ui_rows_cell(&v->rows, i, j), v->filter);
        if (hit)
            v->shown[v->nshown++] = i;
    }
    if (v->sel >= v->nshown)
        v->sel = v->nshown ? v->nshown - 1 : 0;
}

/* A column's table heading: its name, or the unit for a price per
 * accelerator-hour (the name is in the fields pane). */
static const char *col_title(const struct catalog_column *c)
{
    if (strcmp(c->name, "usd_per_gpu_hour") == 0)
        return "USD/GPU h";
    return c->name;
}

/* Load the rows of the current kind; keep the selection on id when given. */
static void reload(struct ui *ui, struct gv *v, const char *keep_id)
{
    const struct catalog_column *cc;
    struct diag d;
    size_t i, n, nkey;

    ui_rows_release(&v->rows);
    free(v->shown);
    diag_clear(&d);
    if (app_catalog_rows(ui, v->kind, &v->rows, &d))
        ui_status(ui, true, "%s: %s", catalog_kind_name(v->kind), d.msg);
    v->shown = xcalloc(v->rows.n + 1, sizeof(*v->shown));
    refilter(v);
    cc = catalog_columns(v->kind, &n);
    /* the key (id, term), the compact prices (a cloud offer's price must
     * show however narrow), as_of, the other compact columns, source
     * last */
    v->ncols = 0;
    for (i = 0; i < n && (cc[i].flags & CATCOL_KEY); i++)
        v->cols[v->ncols++] = i;
    nkey = v->ncols;
    for (i = nkey; i < n; i++)
        if (catalog_column_brief(v->kind, i) && strstr(cc[i].name, "usd"))
            v->cols[v->ncols++] = i;
    for (i = nkey; i < n; i++)
        if (strcmp(cc[i].name, "as_of") == 0)
            v->cols[v->ncols++] = i;
    for (i = nkey; i < n && v->ncols + 1 < COLS_MAX; i++)
        if (catalog_column_brief(v->kind, i) && !strstr(cc[i].name, "usd") &&
            strcmp(cc[i].name, "as_of") != 0 &&
            strcmp(cc[i].name, "source") != 0)
            v->cols[v->ncols++] = i;
    for (i = 1; i < n; i++)
        if (strcmp(cc[i].name, "source") == 0)
            v->cols[v->ncols++] = i;
    for (i = 0; i < v->ncols; i++) {
        size_t r;
        int w = canvas_text_width(col_title(&cc[v->cols[i]]));

        for (r = 0; r < v->rows.n; r++) {
            int cw = canvas_text_width(ui_rows_cell(&v->rows, r, v->cols[i]));

            if (cw > w)
                w = cw;
        }
        if (w > 24)
            w = 24;
        v->tcols[i].title = col_title(&cc[v->cols[i]]);
        v->tcols[i].width = w;
        v->tcols[i].align = cc[v->cols[i]].type == CATCOL_REAL ||
                            cc[v->cols[i]].type == CATCOL_COUNT;
    }
    if (keep_id)
        for (i = 0; i < v->nshown; i++)
            if (strcmp(ui_rows_cell(&v->rows, v->shown[i], 0), keep_id) == 0) {
                v->sel = i;
                break;
            }
    if (v->dsel >= v->rows.ncols)
        v->dsel = 0;
}

static void *gv_open(struct ui *ui)
{
    struct gv *v = xcalloc(1, sizeof(*v));

    (void)ui;
    v->kind = CATALOG_ACCELERATORS;
    return v;
}

static void gv_close(struct ui *ui, void *st)
{
    struct gv *v = st;

    (void)ui;
    ui_rows_release(&v->rows);
    free(v->shown);
    free(v);
}

static void gv_show(struct ui *ui, void *st)
{
    reload(ui, st, NULL);
}

static const char *cell(void *ctx, size_t i, size_t j, char *buf, size_t n,
                        int *el)
{
    struct gv *v = ctx;
    const struct catalog_column *cc;
    size_t nc;

    (void)buf;
    (void)n;
    cc = catalog_columns(v->kind, &nc);
    if (strcmp(cc[v->cols[j]].name, "source") == 0 ||
        strcmp(cc[v->cols[j]].name, "as_of") == 0) {
        int sc = app_catalog_col(v->kind, "source");

        /* a row edited by hand stands out from the sourced ones */
        *el = sc >= 0 && strncmp(ui_rows_cell(&v->rows, v->shown[i],
                                              (size_t)sc),
                                 "user edit", 9) == 0
                  ? THEME_VALUE_WARN
                  : THEME_DIM;
    }
    return ui_rows_cell(&v->rows, v->shown[i], v->cols[j]);
}

static void draw_fields(struct ui *ui, struct gv *v, struct canvas *c,
                        struct rect r)
{
    const struct catalog_column *cc;
    size_t n, i;
    int row, lw = 24;
    char title[96];

    cc = catalog_columns(v->kind, &n);
    snprintf(title, sizeof(title), "%s",
             v->nshown ? ui_rows_cell(&v->rows, v->shown[v->sel], 0)
                       : "(no row)");
    widget_heading(c, (struct rect){r.x, r.y, r.w, 1}, title, v->focus == 1);
    r.y++;
    r.h--;
    if (!v->nshown)
        return;
    widget_scroll(v->dsel, n, r.h, &v->dtop);
    for (row = 0, i = v->dtop; row < r.h && i < n; row++, i++) {
        int y = r.y + row;
        bool sel = v->focus == 1 && i == v->dsel;
        int base = sel ? THEME_CURSOR : THEME_NORMAL;
        int vw = r.w - lw - 2;

        if (sel)
            canvas_fill(c, (struct rect){r.x, y, r.w, 1}, ' ', base);
        widget_text(c, r.x + 1, y, lw - 1, cc[i].name, sel ? base : THEME_LABEL,
                    0);
        if (r.w >= 70)
            vw = 30;
        widget_text(c, r.x + lw, y, vw,
                    ui_rows_cell(&v->rows, v->shown[v->sel], i),
                    sel ? base : THEME_VALUE, 0);
        if (r.w >= 70)
            widget_text(c, r.x + lw + vw + 1, y, r.w - lw - vw - 2, cc[i].help,
                        sel ? base : THEME_DIM, 0);
        ui_hit(ui, (struct rect){r.x, y, r.w, 1}, ACT_NONE, 20000 + (int)i);
    }
}

static void gv_draw(struct ui *ui, void *st, struct canvas *c, struct rect r)
{
    struct gv *v = st;
    int k, x = r.x + 1;
    int dh = r.w >= 120 ? 0 : 9;
    int dw = r.w >= 120 ? 62 : 0;
    char b[160];
    struct rect tr;

    if (!v->shown)
        reload(ui, v, NULL);
    canvas_fill(c, (struct rect){r.x, r.y, r.w, 1}, ' ', THEME_NORMAL);
    for (k = 0; k < CATALOG_KIND_COUNT; k++) {
        int w = canvas_printf(c, x, r.y, -1,
                              k == (int)v->kind ? THEME_TAB_ACTIVE : THEME_TAB,
                              " %s ", catalog_kind_name((enum catalog_kind)k));

        ui_hit(ui, (struct rect){x, r.y, w, 1}, ACT_NONE, 30000 + k);
        x += w + 1;
    }
    snprintf(b, sizeof(b), "%zu of %zu rows%s%s", v->nshown, v->rows.n,
             v->filter[0] ? ", filter: " : "", v->filter);
    tr = (struct rect){r.x, r.y + 1, r.w - dw - (dw ? 1 : 0), r.h - 1 - dh};
    widget_heading(c, (struct rect){tr.x, tr.y, tr.w, 1}, b, v->focus == 0);
    tr.y++;
    tr.h--;
    widget_scroll(v->sel, v->nshown, tr.h - 1, &v->top);
    widget_table(c, (struct rect){tr.x + 1, tr.y, tr.w - 2, tr.h}, v->tcols,
                 v->ncols, v->nshown, v->top, v->sel,
                 v->focus == 0 ? THEME_CURSOR : THEME_CURSOR_INACTIVE, -1, cell,
                 v);
    for (k = 0; (size_t)k + v->top < v->nshown && k < tr.h - 1; k++)
        ui_hit(ui, (struct rect){tr.x, tr.y + 1 + k, tr.w, 1}, ACT_NONE,
               (int)v->top + k);
    if (dw) {
        widget_vline(c, tr.x + tr.w, r.y + 1, r.h - 1);
        draw_fields(ui, v, c,
                    (struct rect){tr.x + tr.w + 1, r.y + 1, dw, r.h - 1});
    } else {
        draw_fields(ui, v, c, (struct rect){r.x, r.y + r.h - dh, r.w, dh});
    }
}

/* ---- edits -------------------------------------------------------------- */

/* How long an edit waits for another writer (an import) before saying
 * so. */
#define LOCK_WAIT_MS 1000

/* The key cells (id, and term for cloud) of shown row i into key[2]. */
static void row_key(const struct gv *v, size_t i, const char *key[2])
{
    size_t n;
    const struct catalog_column *cc = catalog_columns(v->kind, &n);

    key[0] = ui_rows_cell(&v->rows, i, 0);
    key[1] = n > 1 && (cc[1].flags & CATCOL_KEY) ? ui_rows_cell(&v->rows, i, 1)
                                                 : NULL;
}

static void show_error(struct ui *ui, enum cp_status st, const struct diag *d)
{
    ui_status(ui, true, "%s%s%s", d->where, d->where[0] ? ": " : "",
              d->msg[0] ? d->msg : cp_status_str(st));
}

/* Put a copy of the selected row under a new id.  Returns the reaction. */
static unsigned copy_row(struct ui *ui, struct gv *v, const char *new_id)
{
    const char **vals;
    struct diag d;
    enum cp_status st;
    size_t j, i = v->shown[v->sel];
    char id[CP_ID_MAX * 2];

    for (j = 0; j < v->rows.n; j++)
        if (strcmp(ui_rows_cell(&v->rows, j, 0), new_id) == 0) {
            ui_status(ui, true, "id: '%s' is already in the catalog", new_id);
            return UI_REDRAW;
        }
    vals = xcalloc(v->rows.ncols, sizeof(*vals));
    for (j = 0; j < v->rows.ncols; j++)
        vals[j] = j == 0 ? new_id : ui_rows_cell(&v->rows, i, j);
    snprintf(id, sizeof(id), "%s", new_id);
    diag_clear(&d);
    st = catalog_row_put(ui->cat, v->kind, vals, v->rows.ncols, &d);
    free(vals);
    if (st) {
        show_error(ui, st, &d);
        return UI_REDRAW;
    }
    reload(ui, v, id);
    ui->catalog_gen++;
    ui_status(ui, false, "%s '%s' saved", catalog_kind_name(v->kind), id);
    return UI_RECOMPUTE | UI_REDRAW;
}

/* Today as YYYY-MM-DD (UTC); SOURCE_DATE_EPOCH, when set, stands for now
 * (reproducible screen tests). */
static void today(char *buf, size_t n)
{
    const char *env = getenv("SOURCE_DATE_EPOCH");
    time_t t = env && *env ? (time_t)strtoll(env, NULL, 10) : time(NULL);
    struct tm tm;

    if (!gmtime_r(&t, &tm) || !strftime(buf, n, "%Y-%m-%d", &tm))
        snprintf(buf, n, "1970-01-01");
}

/* "user edit (was: SOURCE)", cut on a character boundary to fit n. */
static void user_source(const char *old, char *buf, size_t n)
{
    size_t len;

    if (strncmp(old, "user edit", 9) == 0) {
        snprintf(buf, n, "%s", old);
        return;
    }
    snprintf(buf, n, "user edit (was: %s)", old[0] ? old : "none");
    len = strlen(buf);
    while (len > 0 && ((unsigned char)buf[len - 1] & 0xC0) == 0x80)
        len--; /* a cut inside a character: drop its start too */
    if (len > 0 && len < strlen(buf) && (unsigned char)buf[len - 1] >= 0xC0)
        len--;
    buf[len] = '\0';
}

static bool is_provenance(const char *name)
{
    return strcmp(name, "source") == 0 || strcmp(name, "as_of") == 0 ||
           strcmp(name, "price_source") == 0 ||
           strcmp(name, "price_as_of") == 0 || strcmp(name, "notes") == 0 ||
           strcmp(name, "confidence") == 0;
}

/* The oldest edit still on the undo stack of the cell u edits: what the
 * cell and its provenance were before the user touched it. */
static const struct cat_undo *first_edit(const struct gv *v,
                                         const struct cat_undo *u)
{
    size_t i;

    for (i = 0; i < v->nundo; i++) {
        const struct cat_undo *o = &v->undo[i];

        if (o->kind == u->kind && o->col == u->col && o->prov &&
            strcmp(o->id, u->id) == 0 && strcmp(o->term, u->term) == 0)
            return o;
    }
    return NULL;
}

/* Set column col of the selected row to value: only that cell (and the
 * row's provenance, now a user edit) is written, against the row as it is
 * stored now, and only if the cell still holds what the view showed; a
 * concurrent import of other columns is kept (catalog_row_update). */
static unsigned edit_cell(struct ui *ui, struct gv *v, size_t col,
                          const char *value)
{
    const struct catalog_column *cc;
    struct catalog_cell_edit e[3];
    const char *key[2];
    char id[CP_ID_MAX * 2], src[CP_TEXT_MAX], date[CP_DATE_MAX];
    size_t ncols, ne = 0, i = v->shown[v->sel];
    struct diag d;
    enum cp_status st;
    struct cat_undo u;

    cc = catalog_columns(v->kind, &ncols);
    if (col >= ncols)
        return UI_REDRAW;
    row_key(v, i, key);
    snprintf(id, sizeof(id), "%s", key[0]);
    if (strcmp(ui_rows_cell(&v->rows, i, col), value) == 0) {
        ui_status(ui, false, "%s unchanged", cc[col].name);
        return UI_REDRAW;
    }
    memset(&u, 0, sizeof(u));
    u.kind = v->kind;
    snprintf(u.id, sizeof(u.id), "%s", key[0]);
    u.has_term = key[1] != NULL;
    snprintf(u.term, sizeof(u.term), "%s", key[1] ? key[1] : "");
    u.col = col;
    snprintf(u.old_val, sizeof(u.old_val), "%s",
             ui_rows_cell(&v->rows, i, col));
    snprintf(u.new_val, sizeof(u.new_val), "%s", value);
    e[ne].col = col;
    e[ne].expect = ui_rows_cell(&v->rows, i, col);
    e[ne++].value = value;
    if (!is_provenance(cc[col].name)) {
        /* a price has its own provenance where the kind keeps one */
        bool price = strstr(cc[col].name, "usd") &&
                     app_catalog_col(v->kind, "price_source") >= 0;
        int sc = app_catalog_col(v->kind, price ? "price_source" : "source");
        int dc = app_catalog_col(v->kind, price ? "price_as_of" : "as_of");

        if (sc >= 0 && dc >= 0) {
            const struct cat_undo *first = first_edit(v, &u);

            user_source(ui_rows_cell(&v->rows, i, (size_t)sc), src,
                        sizeof(src));
            today(date, sizeof(date));
            if (first && strcmp(first->old_val, value) == 0) {
                /* typed back to what the catalog said: its provenance too */
                snprintf(src, sizeof(src), "%s", first->old_src);
                snprintf(date, sizeof(date), "%s", first->old_date);
            }
            u.prov = true;
            u.sc = (size_t)sc;
            u.dc = (size_t)dc;
            snprintf(u.old_src, sizeof(u.old_src), "%s",
                     ui_rows_cell(&v->rows, i, (size_t)sc));
            snprintf(u.old_date, sizeof(u.old_date), "%s",
                     ui_rows_cell(&v->rows, i, (size_t)dc));
            snprintf(u.new_src, sizeof(u.new_src), "%s", src);
            snprintf(u.new_date, sizeof(u.new_date), "%s", date);
            e[ne].col = (size_t)sc;
            e[ne].expect = NULL;
            e[ne++].value = src;
            e[ne].col = (size_t)dc;
            e[ne].expect = NULL;
            e[ne++].value = date;
        }
    }
    diag_clear(&d);
    st = catalog_row_update(ui->cat, v->kind, key, e, ne, LOCK_WAIT_MS, &d);
    if (st) {
        show_error(ui, st, &d);
        if (st == CP_ERR_CONFLICT || st == CP_ERR_NOT_FOUND)
            reload(ui, v, id); /* show what is stored now */
        return UI_REDRAW;
    }
    if (v->nundo == CAT_UNDO_MAX) {
        memmove(v->undo, v->undo + 1, (CAT_UNDO_MAX - 1) * sizeof(v->undo[0]));
        v->nundo--;
    }
    v->undo[v->nundo++] = u;
    reload(ui, v, id);
    ui->catalog_gen++;
    ui_status(ui, false, "%s '%s': %s saved", catalog_kind_name(v->kind), id,
              cc[col].name);
    return UI_RECOMPUTE | UI_REDRAW;
}

static void set_kind(struct ui *ui, struct gv *v, int k);

/* Undo the last cell edit: the cell and its provenance back to what they
 * were, only if they still hold what the edit wrote (another edit or an
 * import since then is not overwritten). */
static unsigned undo_edit(struct ui *ui, struct gv *v)
{
    struct cat_undo *u;
    struct catalog_cell_edit e[3];
    const char *key[2];
    const struct catalog_column *cc;
    size_t ncols, ne = 0;
    struct diag d;
    enum cp_status st;

    if (v->nundo == 0) {
        ui_status(ui, true,
                  "no catalog edit to undo (u in the Plan view undoes the "
                  "plan's)");
        return UI_REDRAW;
    }
    u = &v->undo[--v->nundo];
    cc = catalog_columns(u->kind, &ncols);
    key[0] = u->id;
    key[1] = u->has_term ? u->term : NULL;
    e[ne].col = u->col;
    e[ne].expect = u->new_val;
    e[ne++].value = u->old_val;
    if (u->prov) {
        e[ne].col = u->sc;
        e[ne].expect = u->new_src;
        e[ne++].value = u->old_src;
        e[ne].col = u->dc;
        e[ne].expect = u->new_date;
        e[ne++].value = u->old_date;
    }
    diag_clear(&d);
    st = catalog_row_update(ui->cat, u->kind, key, e, ne, LOCK_WAIT_MS, &d);
    if (u->kind != v->kind)
        set_kind(ui, v, (int)u->kind);
    reload(ui, v, u->id);
    if (st) {
        show_error(ui, st, &d);
        return UI_REDRAW;
    }
    ui->catalog_gen++;
    ui_status(ui, false, "undone: %s '%s' %s back to '%s'",
              catalog_kind_name(u->kind), u->id, cc[u->col].name, u->old_val);
    return UI_RECOMPUTE | UI_REDRAW;
}

static unsigned field_done(struct ui *ui, int tag, const char *value, int idx)
{
    struct gv *v = ui->vdata[VIEW_CATALOG];

    (void)idx;
    if (!value || !v->nshown)
        return UI_REDRAW;
    return edit_cell(ui, v, (size_t)tag, value);
}

static unsigned add_done(struct ui *ui, int tag, const char *value, int idx)
{
    struct gv *v = ui->vdata[VIEW_CATALOG];

    (void)tag;
    (void)idx;
    if (!value || !value[0] || !v->nshown)
        return UI_REDRAW;
    return copy_row(ui, v, value);
}

/* Delete the selected row: that row only (one term of a cloud offer). */
static unsigned delete_done(struct ui *ui, int tag, const char *value, int idx)
{
    struct gv *v = ui->vdata[VIEW_CATALOG];
    const char *key[2];
    char id[CP_ID_MAX * 2], what[CP_ID_MAX * 2 + 40];
    struct diag d;
    enum cp_status st;

    (void)tag;
    (void)idx;
    if (!value || !v->nshown)
        return UI_REDRAW;
    row_key(v, v->shown[v->sel], key);
    snprintf(id, sizeof(id), "%s", key[0]);
    snprintf(what, sizeof(what), "'%s'%s%s", key[0], key[1] ? " " : "",
             key[1] ? key[1] : "");
    diag_clear(&d);
    st = catalog_row_delete_key(ui->cat, v->kind, key, LOCK_WAIT_MS, &d);
    if (st) {
        show_error(ui, st, &d);
        return UI_REDRAW;
    }
    reload(ui, v, id);
    ui->catalog_gen++;
    ui_status(ui, false, "%s %s deleted", catalog_kind_name(v->kind), what);
    return UI_RECOMPUTE | UI_REDRAW;
}

static unsigned import_done(struct ui *ui, int tag, const char *value, int idx)
{
    struct gv *v = ui->vdata[VIEW_CATALOG];
    struct diag d;
    char path[4096];
    const char *home = getenv("HOME");

    (void)tag;
    (void)idx;
    if (!value || !value[0])
        return UI_REDRAW;
    if (value[0] == '~' && value[1] == '/' && home)
        snprintf(path, sizeof(path), "%s%s", home, value + 1);
    else
        snprintf(path, sizeof(path), "%s", value);
    diag_clear(&d);
    if (catalog_import_csv(ui->cat, v->kind, path, &d)) {
        ui_status(ui, true, "import: %s%s%s", d.where, d.where[0] ? ": " : "",
                  d.msg);
        return UI_REDRAW;
    }
    reload(ui, v, NULL);
    ui->catalog_gen++;
    ui_status(ui, false, "imported %s into %s", value,
              catalog_kind_name(v->kind));
    return UI_RECOMPUTE | UI_REDRAW;
}

static unsigned filter_change(struct ui *ui, int tag, const char *value)
{
    struct gv *v = ui->vdata[VIEW_CATALOG];

    (void)tag;
    snprintf(v->filter, sizeof(v->filter), "%s", value);
    v->sel = 0;
    refilter(v);
    return UI_REDRAW;
}

static unsigned filter_done(struct ui *ui, int tag, const char *value, int idx)
{
    (void)idx;
    if (!value) /* Esc: no filter */
        return filter_change(ui, tag, "");
    return UI_REDRAW;
}

static void set_kind(struct ui *ui, struct gv *v, int k)
{
    v->kind =
        (enum catalog_kind)((k + CATALOG_KIND_COUNT) % CATALOG_KIND_COUNT);
    v->sel = 0;
    v->top = 0;
    v->dsel = 0;
    v->dtop = 0;
    reload(ui, v, NULL);
}

static unsigned gv_handle(struct ui *ui, void *st, enum action a,
                          const struct ui_event *ev)
{
    struct gv *v = st;
    size_t page = (size_t)(ui->cv.h > 16 ? ui->cv.h - 16 : 2);
    size_t ncolumns;
    const struct catalog_column *cc = catalog_columns(v->kind, &ncolumns);
    char b[256];

    if (a == ACT_NONE) {
        if (ev->key != UK_MOUSE)
            return 0;
        if (ev->index >= 30000) {
            set_kind(ui, v, ev->index - 30000);
        } else if (ev->index >= 20000) {
            v->focus = 1;
            v->dsel = (size_t)(ev->index - 20000);
        } else if (ev->index >= 0) {
            v->focus = 0;
            v->sel = (size_t)ev->index;
        }
        return UI_REDRAW;
    }
    if (v->focus == 1) {
        switch (a) {
        case ACT_UP:
            if (v->dsel > 0)
                v->dsel--;
            return UI_REDRAW;
        case ACT_DOWN:
            if (v->dsel + 1 < ncolumns)
                v->dsel++;
            return UI_REDRAW;
        case ACT_HOME:
            v->dsel = 0;
            return UI_REDRAW;
        case ACT_END:
            v->dsel = ncolumns - 1;
            return UI_REDRAW;
        case ACT_ENTER:
            if (!v->nshown)
                return UI_REDRAW;
            snprintf(b, sizeof(b), "%s.%s (%s)", catalog_kind_name(v->kind),
                     cc[v->dsel].name, cc[v->dsel].help);
            ui_prompt(ui, (int)v->dsel, b,
                      ui_rows_cell(&v->rows, v->shown[v->sel], v->dsel),
                      field_done, NULL);
            return UI_REDRAW;
        case ACT_CANCEL:
        case ACT_LEFT:
            v->focus = 0;
            return UI_REDRAW;
        default:
            break;
        }
    }
    if (widget_list_move(&v->sel, v->nshown, page, a))
        return UI_REDRAW;
    switch (a) {
    case ACT_PANE_NEXT:
    case ACT_PANE_PREV:
        v->focus = !v->focus;
        return UI_REDRAW;
    case ACT_LEFT:
        set_kind(ui, v, (int)v->kind - 1);
        return UI_REDRAW;
    case ACT_RIGHT:
        set_kind(ui, v, (int)v->kind + 1);
        return UI_REDRAW;
    case ACT_ENTER:
        v->focus = 1;
        return UI_REDRAW;
    case ACT_FILTER:
        ui_prompt(ui, 0, "filter rows", v->filter, filter_done, filter_change);
        return UI_REDRAW;
    case ACT_UNDO:
        return undo_edit(ui, v);
    case ACT_CANCEL:
        if (v->filter[0])
            return filter_change(ui, 0, "");
        return 0;
    case ACT_ROW_ADD:
        if (!v->nshown) {
            ui_status(ui, true,
                      "add: select a row to copy (import adds "
                      "rows to an empty table)");
            return UI_REDRAW;
        }
        snprintf(b, sizeof(b), "id of the new %s row (a copy of '%s')",
                 catalog_kind_name(v->kind),
                 ui_rows_cell(&v->rows, v->shown[v->sel], 0));
        ui_prompt(ui, 0, b, "", add_done, NULL);
        return UI_REDRAW;
    case ACT_ROW_DELETE:
        if (!v->nshown)
            return UI_REDRAW;
        {
            const char *key[2];

            row_key(v, v->shown[v->sel], key);
            snprintf(b, sizeof(b), "delete %s '%s'%s%s?",
                     catalog_kind_name(v->kind), key[0], key[1] ? " " : "",
                     key[1] ? key[1] : "");
        }
        ui_confirm(ui, 0, b, delete_done);
        return UI_REDRAW;
    case ACT_IMPORT:
        snprintf(b, sizeof(b), "import %s from a CSV file",
                 catalog_kind_name(v->kind));
        ui_prompt(ui, 0, b, "", import_done, NULL);
        return UI_REDRAW;
    default:
        return 0;
    }
}

static const struct view_ops catalog_view_ops = {
    .name = "catalog",
    .id = VIEW_CATALOG,
    .open = gv_open,
    .draw = gv_draw,
    .handle = gv_handle,
    .show = gv_show,
    .close = gv_close,
};
