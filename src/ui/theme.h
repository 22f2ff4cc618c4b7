/*
 * theme.h - semantic colour roles and the theme file parser.
 *
 * Code names roles (THEME_TITLE, THEME_VALUE_BAD ...), never colours; a
 * theme maps each role to a foreground, a background and attributes.  The
 * file format, one line per element, '#' starts a comment:
 *
 *     element  fg  bg  [bold|dim|reverse|underline|italic|standout]...
 *
 * Colours: default, black, red, green, yellow, blue, magenta, cyan, white,
 * bright-<name> and colorN (0..255).  Problems are reported as
 * "file:line: unknown element 'x'" (one line each, appended to an error
 * buffer); parsing continues and the first error's status is returned.
 *
 * themes/default.theme is embedded and always loaded first; a named or
 * user theme overlays it.  Monochrome (no colours on the terminal,
 * NO_COLOR, --no-color, --theme mono) keeps only the attributes of
 * mono.theme.
 *
 * CHECKLIST: an element added to THEME_ELEMENT_LIST needs a line in every
 * themes/NAME.theme (a unit test checks default.theme and mono.theme cover
 * every element) and fits in 62 elements (canvas_el_char).
 */
#ifndef LLMPLAN_UI_THEME_H
#define LLMPLAN_UI_THEME_H

#include <stdbool.h>

#include "core/diag.h"
#include "util/strbuf.h"

/* X(ID, "name", "help") */
#define THEME_ELEMENT_LIST(X)                                                  \
    X(NORMAL, "normal", "ordinary text and the background")                    \
    X(TITLE, "title", "the title line")                                        \
    X(TAB, "tab", "a view name in the title line")                             \
    X(TAB_ACTIVE, "tab_active", "the current view's name")                     \
    X(PANE_TITLE, "pane_title", "a pane's heading")                            \
    X(PANE_ACTIVE, "pane_active", "the heading of the pane with the focus")    \
    X(BORDER, "border", "lines between panes")                                 \
    X(SECTION, "section", "a section heading inside a pane")                   \
    X(LABEL, "label", "a field or metric name")                                \
    X(VALUE, "value", "a value set by the user or computed")                   \
    X(VALUE_DEFAULT, "value_default", "a value the plan leaves to defaults")   \
    X(VALUE_GOOD, "value_good", "a good outcome (fits, cheaper)")              \
    X(VALUE_WARN, "value_warn", "a warning")                                   \
    X(VALUE_BAD, "value_bad", "a bad outcome (does not fit)")                  \
    X(BEST, "best", "the better value of a compared row")                      \
    X(FIELD_EDIT, "field_edit", "the text being edited")                       \
    X(FIELD_ERROR, "field_error", "a field whose input is invalid")            \
    X(CURSOR, "cursor", "the selected row")                                    \
    X(CURSOR_INACTIVE, "cursor_inactive", "the selected row of another pane")  \
    X(TABLE_HEADER, "table_header", "column headings")                         \
    X(SORTED, "sorted", "the heading of the sort column")                      \
    X(DIM, "dim", "secondary text (units, sources, hints)")                    \
    X(BAR_WEIGHTS, "bar_weights", "memory bar: weights")                       \
    X(BAR_GRADIENTS, "bar_gradients", "memory bar: gradients")                 \
    X(BAR_OPTIMIZER, "bar_optimizer", "memory bar: optimizer state")           \
    X(BAR_ACTIVATIONS, "bar_activations", "memory bar: activations")           \
    X(BAR_OVERHEAD, "bar_overhead", "memory bar: overhead")                    \
    X(BAR_FREE, "bar_free", "memory bar: free capacity")                       \
    X(BAR_COMPUTE, "bar_compute", "step bar: compute")                         \
    X(BAR_COMM, "bar_comm", "step bar: exposed communication")                 \
    X(BAR_BUBBLE, "bar_bubble", "step bar: pipeline bubble")                   \
    X(CHART_AXIS, "chart_axis", "chart axes and labels")                       \
    X(CHART_BUILD, "chart_build", "chart: the owned build")                    \
    X(CHART_CLOUD, "chart_cloud", "chart: the cloud rental")                   \
    X(CHART_MARK, "chart_mark", "chart: the crossover")                        \
    X(STATUS, "status", "the status line")                                     \
    X(STATUS_ERROR, "status_error", "an error in the status line")             \
    X(KEY, "key", "a key in the function bar")                                 \
    X(KEY_LABEL, "key_label", "what the key does, in the function bar")        \
    X(DIALOG, "dialog", "a prompt or a picker")                                \
    X(DIALOG_TITLE, "dialog_title", "a prompt's or picker's title")            \
    X(PROGRESS, "progress", "the progress bar of a search")                    \
    X(BAR_TP, "bar_tp", "step bar: tensor-parallel communication")             \
    X(BAR_PP, "bar_pp", "step bar: pipeline-parallel communication")           \
    X(BAR_DP, "bar_dp", "step bar: data-parallel communication")               \
    X(BAR_CP, "bar_cp", "step bar: context-parallel communication")            \
    X(BAR_EP, "bar_ep", "step bar: expert-parallel communication")

enum theme_element {
#define THEME_ENUM(id, name, help) THEME_##id,
    THEME_ELEMENT_LIST(THEME_ENUM)
#undef THEME_ENUM
        THEME_COUNT
};

enum theme_attr {
    TA_BOLD = 1 << 0,
    TA_DIM = 1 << 1,
    TA_REVERSE = 1 << 2,
    TA_UNDERLINE = 1 << 3,
    TA_ITALIC = 1 << 4,
    TA_STANDOUT = 1 << 5,
};

#define THEME_COLOR_DEFAULT (-1)

struct theme_style {
    short fg, bg;   /* -1 default, 0..7, 8..15 bright, up to 255 */
    unsigned attrs; /* enum theme_attr */
};

#define THEME_NAME_MAX 64

struct theme {
    char name[THEME_NAME_MAX];
    bool mono; /* colours dropped */
    struct theme_style st[THEME_COUNT];
};

/* Names of the built-in themes, in the order `t` cycles them;
 * NULL-terminated. */
extern const char *const theme_builtin[];

/* Element name, "normal" for out-of-range values. */
const char *theme_element_name(int el);
/* Element by name; -1 when unknown. */
int theme_element_find(const char *name);

/* Everything default colours, no attributes. */
void theme_init(struct theme *t, const char *name);

/* Parse theme text over t.  name is used in messages.  Every problem adds
 * one "name:line: ..." line to errors (may be NULL) and parsing goes on;
 * returns CP_OK or the first problem's status (CP_ERR_PARSE). */
enum cp_status theme_parse(struct theme *t, const char *name, const char *text,
                           struct strbuf *errors);

/* Load a theme by built-in name ("light") or file path (anything with a
 * '/' or ending in ".theme"): default.theme first, then the theme over it.
 * CP_ERR_NOT_FOUND when neither a built-in nor a readable file. */
enum cp_status theme_load(struct theme *t, const char *name_or_path,
                          struct strbuf *errors);

/* Drop the colours, keeping the attributes of the built-in mono theme. */
void theme_make_mono(struct theme *t);

/* Validate a file (theme check): CP_OK or the first error; messages go to
 * errors. */
enum cp_status theme_check_file(const char *path, struct strbuf *errors);

#endif
