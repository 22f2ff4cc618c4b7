/*
 * ui.h - the interactive TUI: entry points, and the state the views share.
 *
 * ui_main() and ui_cmd_tui() are called by main.c (never by src/cli: the
 * two front ends share only util/global.h).
 * Everything else here is for the files of src/ui: struct ui is the TUI's
 * model (the plan being edited, its evaluation, the comparison, the search
 * results, the modal prompt) plus the loop's machinery (terminal, canvas,
 * theme, keymap, view stack).
 *
 * Rules (STYLE B.11): only term_curses.c talks to curses; views draw into
 * the canvas and never compute a number - every evaluation goes through
 * the plan layer (plan_evaluate, plan_search, plan_eval_layout), called
 * from ui_loop.c and app.c, once per UI_RECOMPUTE.  Catalog edits go through
 * catalog_row_put/delete/import, exports through export/.
 *
 * Ownership: ui_cmd_tui/ui_main own a struct ui for the whole session and
 * release everything before they return.
 */
#ifndef LLMPLAN_UI_UI_H
#define LLMPLAN_UI_UI_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include "catalog/catalog.h"
#include "plan/plan.h"
#include "plan/resolve.h"
#include "plan/search.h"
#include "plan/size.h"
#include "ui/canvas.h"
#include "ui/keymap.h"
#include "ui/theme.h"
#include "util/global.h"

/* `llmplan` with no command on a terminal: the TUI on plan_arg (NULL: the
 * last plan used, else the default plan).  Returns the exit code. */
int ui_main(const struct global_opts *g, const char *plan_arg);

/* `llmplan tui [PLAN] [--ui-script F --ui-size WxH --ui-dump OUT]
 * [--check-theme FILE...] [--check-keys FILE...]`; argv[0] is "tui".
 * The --ui-* and --check-* options are for tests (not in --help). */
int ui_cmd_tui(const struct global_opts *g, int argc, char **argv);

/* ---- for src/ui only --------------------------------------------------- */

/* One input event. */
struct ui_event {
    int key;   /* a character, or enum ui_key */
    int x, y;  /* UK_MOUSE: the cell; UK_RESIZE: the new width, height */
    int index; /* UK_MOUSE: the index of the region clicked, or -1 */
};

struct term;
struct term_ops {
    /* Start (curses: initscr ...).  CP_ERR_IO when there is no terminal. */
    enum cp_status (*open)(struct term *t, struct diag *d);
    /* Restore the terminal; safe to call twice. */
    void (*close)(struct term *t);
    void (*size)(struct term *t, int *w, int *h);
    bool (*has_colors)(struct term *t);
    bool (*utf8)(struct term *t);
    /* Colour pairs for the theme's elements. */
    void (*set_theme)(struct term *t, const struct theme *th);
    /* Show the canvas. */
    void (*blit)(struct term *t, const struct canvas *c);
    /* The next event: 1 one event, 0 none within timeout_ms (< 0: wait),
     * -1 no more input (end of a script). */
    int (*read)(struct term *t, struct ui_event *ev, int timeout_ms);
    void (*free)(struct term *t);
};

struct term {
    const struct term_ops *ops;
    void *priv;
};

/* The curses terminal. */
struct term *term_curses_new(void);
/* A scripted terminal of w x h reading key names from path (see
 * term_script.c).  CP_ERR_IO when the script cannot be read. */
enum cp_status term_script_new(const char *path, int w, int h,
                               struct term **out /* OUT */, struct diag *d);

/* Reactions of handle() (htop Htop_Reaction). */
enum ui_reaction {
    UI_HANDLED = 1 << 0,
    UI_REDRAW = 1 << 1,
    UI_RECOMPUTE = 1 << 2,
    UI_QUIT = 1 << 3,
};

struct ui;

/* One view (tig view_ops); each view file ends with its instance. */
struct view_ops {
    const char *name; /* title line and key bindings */
    enum view_id id;  /* its binding table */
    /* Allocate the view's state (called once, at start). */
    void *(*open)(struct ui *ui);
    /* Draw the view into r (views never compute numbers). */
    void (*draw)(struct ui *ui, void *st, struct canvas *c, struct rect r);
    /* React to an action (ACT_NONE: a key with no binding, or a click on
     * a region the view registered); returns enum ui_reaction flags, 0
     * when not handled. */
    unsigned (*handle)(struct ui *ui, void *st, enum action a,
                       const struct ui_event *ev);
    /* The view became the current one. */
    void (*show)(struct ui *ui, void *st);
    /* Free the state. */
    void (*close)(struct ui *ui, void *st);
};

/* The views (each file ends with its static view_ops). */
const struct view_ops *view_plan(void);
const struct view_ops *view_compare(void);
const struct view_ops *view_search(void);
const struct view_ops *view_size(void);
const struct view_ops *view_catalog(void);
const struct view_ops *view_help(void);

/* A modal line prompt or list picker, drawn over the view. */
enum modal_kind { MODAL_NONE, MODAL_PROMPT, MODAL_PICKER, MODAL_CONFIRM };

#define MODAL_TEXT_MAX 512

/* Called when the modal closes: value is the text entered or the item
 * chosen (NULL when cancelled); index is the picker row (-1 otherwise). */
typedef unsigned (*modal_done_fn)(struct ui *ui, int tag, const char *value,
                                  int index);
/* Called on every edit of a prompt (live filters). */
typedef unsigned (*modal_change_fn)(struct ui *ui, int tag, const char *value);

/* A picker row as given to ui_picker (copied). */
struct ui_item {
    const char *text;
    const char *note; /* may be NULL */
};

struct modal_item {
    char *text; /* owned */
    char *note; /* owned, may be NULL */
};

struct modal {
    enum modal_kind kind;
    int tag;
    char title[160];
    char text[MODAL_TEXT_MAX]; /* prompt input, picker filter */
    size_t len;
    modal_done_fn done;
    modal_change_fn change;
    /* picker */
    struct modal_item *items;
    size_t nitems, sel, top;
    size_t *shown; /* indexes matching the filter */
    size_t nshown;
    bool detail; /* picker: the selected row's note in full below */
};

/* A clickable region registered while drawing. */
struct ui_hit {
    struct rect r;
    enum action action; /* ACT_NONE: the view's handle gets the click */
    enum view_id view;
    int index;
};

#define UI_HITS_MAX 256
#define UI_UNDO_MAX 64
#define UI_COMPARE_MAX 4
#define UI_SEARCH_TOP 50

/* One column of the comparison: the current plan with changes. */
struct ui_compare {
    char changes[256]; /* "hardware.accelerator=h200-sxm ..."; "" = as is */
    struct plan plan;
    struct plan_outcome oc;
    enum cp_status st;
    struct diag d;
};

/* One evaluated layout of the search. */
struct ui_layout {
    struct search_hit hit;
    struct scenario sc;
    struct result r;
};

struct ui;

/* Writes an export of view tag to path (OK or an error in d). */
typedef enum cp_status (*ui_export_fn)(struct ui *ui, int tag, const char *path,
                                       struct diag *d);

/* What a global action's confirmation or prompt waits for (ui_actions.c). */
struct ui_pending {
    char plan[PLAN_NAME_MAX]; /* the saved plan picked: rename, delete */
    char load[4096];          /* a load over unsaved edits: "@name", path */
    char export_path[MODAL_TEXT_MAX]; /* the export waiting for "replace
                                         it?" */
    int export_tag;
    ui_export_fn export_write;
};

struct ui {
    const struct global_opts *g;
    struct catalog *cat;
    unsigned catalog_gen; /* bumped by every catalog change the TUI makes */
    struct term *term;
    struct canvas cv;
    struct keymap km;
    struct theme theme;
    int theme_idx; /* into theme_builtin; -1 for a --theme file */
    bool colors;   /* the terminal can show colours and may */
    bool quit;
    bool headless; /* a script drives it */

    /* the plan and its evaluation */
    struct plan plan;
    struct plan_outcome *oc;
    bool ok;                /* oc holds the evaluation of plan */
    bool have_result;       /* oc holds some earlier evaluation */
    struct plan saved_plan; /* as last loaded, saved or started: the
                               title marks the plan modified when it
                               differs */
    struct plan undo_base;  /* the plan when no prompt was last open */
    struct plan *undo;      /* UI_UNDO_MAX earlier plans, newest last */
    size_t nundo;
    bool eval_pending;       /* plan changed: evaluate when no key is waiting */
    bool eval_valid;         /* eval_plan and eval_gen say what was evaluated */
    struct plan eval_plan;   /* the plan last evaluated (or refused) */
    unsigned eval_gen;       /* catalog_gen then */
    unsigned long nevals;    /* evaluations run (LLMPLAN_TEST_EVALS) */
    struct ui_event evq[32]; /* keys that arrived during an evaluation */
    int nevq;
    enum cp_status st; /* of the last evaluation */
    struct diag diag;
    int bad_key;        /* plan key of a rejected input, or -1 */
    char bad_text[128]; /* what was typed there */

    /* comparison: column 0 is the plan as it is */
    struct ui_compare *cmp; /* UI_COMPARE_MAX */
    size_t ncmp;
    bool cmp_seeded;

    /* search */
    struct ui_layout *lay; /* UI_SEARCH_TOP */
    size_t nlay;
    struct search_result *sr;
    bool searched;                    /* lay holds a search */
    struct plan_resolved *search_res; /* the plan the layouts belong to */
    struct plan search_plan;          /* the plan searched */
    struct plan applied_plan;         /* search_plan with a layout applied */
    bool search_applied;              /* applied_plan is set */
    enum cp_status search_st;
    struct diag search_diag;
    volatile int cancel;
    double search_progress_t0;

    /* views */
    const struct view_ops *views[VIEW_COUNT];
    void *vdata[VIEW_COUNT];
    enum view_id stack[8];
    int depth;

    struct modal modal;
    struct ui_pending pending;
    char status[256];
    bool status_error;
    struct ui_hit hits[UI_HITS_MAX];
    int nhits;
};

/* The view on top of the stack. */
enum view_id ui_current(const struct ui *ui);
/* Make v the current view (help is pushed, the others replace). */
void ui_switch(struct ui *ui, enum view_id v);

/* Status line text; error colours it. */
/* True when needle occurs in hay, ignoring ASCII case ("" always does):
 * the filters of pickers and of the catalog view. */
bool ui_contains(const char *hay, const char *needle);

void ui_status(struct ui *ui, bool error, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Draw everything and show it (the search's progress calls it). */
void ui_redraw(struct ui *ui);
/* Register a clickable region. */
void ui_hit(struct ui *ui, struct rect r, enum action a, int index);

/* Modals.  Items are copied. */
void ui_prompt(struct ui *ui, int tag, const char *title, const char *initial,
               modal_done_fn done, modal_change_fn change);
void ui_confirm(struct ui *ui, int tag, const char *question,
                modal_done_fn done);
void ui_picker(struct ui *ui, int tag, const char *title,
               const struct ui_item *items, size_t n, size_t sel,
               modal_done_fn done);
void ui_modal_close(struct ui *ui);

/* Export through write to path, asking first when path exists; the status
 * line then names the file by its full path, or says what went wrong. */
unsigned ui_export_to(struct ui *ui, int tag, const char *path,
                      ui_export_fn write);

/* ---- inside the TUI core (ui.c, ui_loop.c, ui_modal.c, ui_frame.c,
 * ui_actions.c) ---------------------------------------------------------- */

#define UI_MIN_W 80 /* below this size one line says the terminal is too */
#define UI_MIN_H 24 /* small */

/* The open modal's answer to a key (UI_* flags). */
unsigned ui_modal_key(struct ui *ui, const struct ui_event *ev);
/* Draw the open picker over the view. */
void ui_draw_picker(struct ui *ui);
/* Run a global action (UI_* flags). */
unsigned ui_global_action(struct ui *ui, enum action a);
/* Apply the current theme's colours to the terminal. */
void ui_apply_theme(struct ui *ui);
/* Read and handle events until the UI quits. */
void ui_loop(struct ui *ui);

/* ---- app.c: the model; every computation goes through plan/ ------------ */

/* Evaluate the plan (and the comparison when the compare view is shown):
 * the one place that calls plan_evaluate.  A plan already evaluated
 * against the same catalog is not evaluated again.  On a terminal a key
 * that arrives meanwhile cuts the layout search short: the key is queued
 * (ui->evq), the evaluation stays pending and false is returned. */
bool app_recompute(struct ui *ui);
/* Whether the results on screen are not those of the plan as it is now
 * (it cannot be evaluated, or its evaluation is still pending): views dim
 * them. */
bool ui_results_stale(const struct ui *ui);
/* Evaluate the comparison columns. */
void app_compare_eval(struct ui *ui);
/* Set key k of the plan from text ("" unsets it, "auto" for layout keys);
 * on error the plan is unchanged, the field is marked and the status line
 * says why.  Returns UI_RECOMPUTE | UI_REDRAW, or UI_REDRAW. */
unsigned app_set_key(struct ui *ui, enum plan_key k, const char *text);
/* Unset key k. */
unsigned app_unset_key(struct ui *ui, enum plan_key k);
/* Every layout key (PKF_AUTO) and train.attention to auto. */
unsigned app_layout_auto(struct ui *ui);
/* Whether the plan differs from the one last loaded or saved. */
bool app_plan_modified(const struct ui *ui);
/* After each event: a finished edit (no prompt open) that changed the
 * plan becomes one undo level. */
void app_track_edit(struct ui *ui);
/* Back to the plan before the last edit (its name kept). */
unsigned app_undo(struct ui *ui);
/* The default plan (llama3-70b, 1024 h100-sxm, 15T tokens). */
void app_default_plan(struct plan *p);
/* Run the layout search for the plan (progress on screen, cancellable):
 * plan_search_layouts, the pipeline of `llmplan search`, so layout keys
 * the plan fixes are held and the rest searched. */
void app_search(struct ui *ui);
/* Whether the search results belong to the plan: it is the plan searched,
 * or that plan with one of the layouts applied. */
bool app_search_current(const struct ui *ui);
/* Apply layout i of the search to the plan. */
unsigned app_apply_layout(struct ui *ui, size_t i);
/* Add a comparison column with changes ("key=value ..."). */
enum cp_status app_compare_add(struct ui *ui, const char *changes,
                               struct diag *d);
void app_compare_remove(struct ui *ui, size_t i);
/* Export the plan (or the comparison when compare, the layouts when
 * search) to path: JSON when it ends in .json, else CSV. */
enum cp_status app_export(struct ui *ui, enum view_id what, const char *path,
                          struct diag *d);
/* Load a saved plan or a plan file ("@name" or a path). */
enum cp_status app_load_plan(struct ui *ui, const char *arg, struct diag *d);
/* Save the plan in the catalog under name. */
enum cp_status app_save_plan(struct ui *ui, const char *name, struct diag *d);
/* Remember the plan and theme in the catalog settings. */
void app_remember(struct ui *ui);

/* ---- app_size.c: the Size view's model ---------------------------------- */

/* size_run for the plan (the pipeline of `llmplan size`); the status line
 * says how it went. */
enum cp_status app_size(struct ui *ui, const struct size_opts *o,
                        struct size_result *out /* OUT */, struct diag *d);
/* The limits prompt: "objective=cost deadline=60 budget=2e7 site_mw=10
 * rack_kw=40 gpus_max=4096 accel=h100-sxm,b200" into o (the limits not
 * named are cleared); o is unchanged on error. */
enum cp_status app_size_limits_parse(const char *text, struct size_opts *o,
                                     struct diag *d);
void app_size_limits_text(const struct size_opts *o, char *buf, size_t n);
/* Write the size answer to path (JSON when it ends in .json, else CSV)
 * through the exporters of `llmplan size`, atomically. */
enum cp_status app_size_export(struct ui *ui, const struct size_result *res,
                               const char *path, struct diag *d);
/* Make a frontier point the plan (accelerator, system, GPUs, layout,
 * offer and term). */
unsigned app_size_apply(struct ui *ui, const struct size_point *pt);

/* Catalog rows as text (catalog_foreach), owned. */
struct ui_rows {
    size_t n, ncols, alloc;
    char **cells; /* n * ncols strings */
};
enum cp_status app_catalog_rows(struct ui *ui, enum catalog_kind k,
                                struct ui_rows *out /* OUT */, struct diag *d);
void ui_rows_release(struct ui_rows *r);
/* Cell (i, j), "" when out of range. */
const char *ui_rows_cell(const struct ui_rows *r, size_t i, size_t j);
/* Index of column name of kind k, or -1. */
int app_catalog_col(enum catalog_kind k, const char *name);

/* The value of metric "section.key" of r (metric table), 0 when unknown;
 * text metrics into *text when not NULL. */
double app_metric(const struct result *r, const char *section, const char *key,
                  const char **text);

/* Format a number for display as the CLI tables do. */
const char *ui_num(double v, char *buf, size_t n);

#endif
