/*
 * keymap.h - keys, actions and bindings.
 *
 * ACTION_LIST is the one table of things a key can do: its name (for
 * `bind` lines), a short label (function bar) and one line of help (the
 * help view is generated from it).  The default bindings are a table of
 * { view, key, action }; lookups try the current view, then the global
 * view.  Users add `bind <view> <key> <action>` lines in
 * $XDG_CONFIG_HOME/llmplan/keys ('#' comments); a bind replaces the
 * binding of the same view and key.  C-c always quits, in every view: a
 * keys file that unbinds q and F10 still leaves a way out, so binding C-c
 * to anything else is refused.
 *
 * Keys are terminal-independent codes: printable characters are their
 * code point, the rest are UK_* values.  keymap_key_parse/name convert
 * names ("Enter", "F1", "C-c", "PgDn", "a") both ways; the test key
 * scripts use the same names.
 *
 * CHECKLIST: an action added to ACTION_LIST needs a default binding (a
 * unit test checks every action is reachable and no view binds a key
 * twice) and a case in some view's handle() or in ui_actions.c.
 */
#ifndef LLMPLAN_UI_KEYMAP_H
#define LLMPLAN_UI_KEYMAP_H

#include <stdbool.h>
#include <stddef.h>

#include "core/diag.h"
#include "util/strbuf.h"

/* Special keys, above the Unicode range. */
enum ui_key {
    UK_NONE = 0,
    UK_BASE = 0x110000,
    UK_ENTER,
    UK_ESC,
    UK_TAB,
    UK_BTAB,
    UK_UP,
    UK_DOWN,
    UK_LEFT,
    UK_RIGHT,
    UK_PGUP,
    UK_PGDN,
    UK_HOME,
    UK_END,
    UK_BACKSPACE,
    UK_DELETE,
    UK_INSERT,
    UK_F0, /* UK_F0 + n is Fn, n = 1..12 */
    UK_F12 = UK_F0 + 12,
    UK_CTRL0, /* UK_CTRL0 + c is Ctrl+c, c = 'a'..'z' */
    UK_CTRL_LAST = UK_CTRL0 + 'z',
    UK_MOUSE,  /* a click: event x, y */
    UK_RESIZE, /* new size: event w, h */
    UK_SIGNAL, /* SIGTERM/SIGINT/SIGHUP arrived */
};

#define UK_F(n) (UK_F0 + (n))
#define UK_CTRL(c) (UK_CTRL0 + (c))

/* Views that have bindings.  GLOBAL applies in every view. */
#define VIEW_LIST(X)                                                           \
    X(GLOBAL, "global")                                                        \
    X(PLAN, "plan")                                                            \
    X(COMPARE, "compare")                                                      \
    X(SEARCH, "search")                                                        \
    X(SIZE, "size")                                                            \
    X(CATALOG, "catalog")                                                      \
    X(HELP, "help")

enum view_id {
#define VIEW_ENUM(id, name) VIEW_##id,
    VIEW_LIST(VIEW_ENUM)
#undef VIEW_ENUM
        VIEW_COUNT
};

/* X(ID, "name", "Label", "help"), grouped as the help view shows them. */
#define ACTION_LIST(X)                                                         \
    /* views */                                                                \
    X(HELP, "help", "Help", "Show the keys of this view")                      \
    X(VIEW_PLAN, "view-plan", "Plan", "The plan: inputs and results")          \
    X(VIEW_COMPARE, "view-compare", "Compare",                                 \
      "Up to 4 plans side by side, cost over time")                            \
    X(VIEW_SEARCH, "view-search", "Search", "The best parallel layouts")       \
    X(VIEW_SIZE, "view-size", "Size",                                          \
      "What to buy: accelerators, fleet sizes, owned or rented")               \
    X(VIEW_CATALOG, "view-catalog", "Catalog", "Browse and edit the catalog")  \
    X(QUIT, "quit", "Quit", "Quit the program")                                \
    X(CLOSE, "close", "Close", "Close this view")                              \
    X(THEME_NEXT, "theme-next", "Theme", "Switch to the next colour theme")    \
    /* moving */                                                               \
    X(PANE_NEXT, "pane-next", "Pane", "Move to the next pane")                 \
    X(PANE_PREV, "pane-prev", "Pane", "Move to the previous pane")             \
    X(UP, "up", "Up", "Move up")                                               \
    X(DOWN, "down", "Down", "Move down")                                       \
    X(LEFT, "left", "Left", "Move left")                                       \
    X(RIGHT, "right", "Right", "Move right")                                   \
    X(PAGE_UP, "page-up", "PgUp", "Move one page up")                          \
    X(PAGE_DOWN, "page-down", "PgDn", "Move one page down")                    \
    X(HOME, "home", "Top", "Move to the first row")                            \
    X(END, "end", "End", "Move to the last row")                               \
    /* editing */                                                              \
    X(ENTER, "enter", "Edit", "Edit or choose the selected item")              \
    X(CANCEL, "cancel", "Cancel", "Cancel, clear the filter")                  \
    X(FILTER, "filter", "Filter", "Filter the rows (type, Enter)")             \
    X(FIND, "find", "Find", "Find a key by name (type, Enter)")                \
    X(FIELD_DEFAULT, "field-default", "Reset",                                 \
      "Reset the field to its default")                                        \
    X(FIELD_AUTO, "field-auto", "Auto",                                        \
      "Let the layout search choose the field")                                \
    X(LAYOUT_AUTO, "layout-auto", "AllAuto",                                   \
      "Set the layout keys (parallel.*, train.attention) to auto")             \
    X(UNDO, "undo", "Undo", "Undo the last plan edit (Catalog: cell edit)")    \
    X(EXPLAIN, "explain", "Explain",                                           \
      "Explain a number: its formula, and the sources of the plan")            \
    /* plans */                                                                \
    X(PLAN_SAVE, "plan-save", "Save", "Save the plan in the catalog")          \
    X(PLAN_LOAD, "plan-load", "Load", "Load, rename or delete a saved plan")   \
    X(PLAN_NEW, "plan-new", "New", "Start again from the default plan")        \
    X(EXPORT, "export", "Export",                                              \
      "Export the plan or comparison to CSV or JSON")                          \
    /* compare */                                                              \
    X(COMPARE_ADD, "compare-add", "Add",                                       \
      "Add a plan: the current one with changes (key=value ...)")              \
    X(COMPARE_REMOVE, "compare-remove", "Remove",                              \
      "Remove the selected plan from the comparison")                          \
    /* search */                                                               \
    X(SEARCH_RUN, "search-run", "Run", "Search the layouts again")             \
    X(SORT_NEXT, "sort-next", "Sort", "Sort by the next column")               \
    X(SORT_REVERSE, "sort-reverse", "Order", "Reverse the sort order")         \
    /* size */                                                                 \
    X(SIZE_LIMITS, "size-limits", "Limits",                                    \
      "Deadline, budget, site power, objective, accelerators")                 \
    /* catalog */                                                              \
    X(ROW_ADD, "row-add", "Add", "Add a row (a copy of the selected one)")     \
    X(ROW_DELETE, "row-delete", "Delete", "Delete the selected row")           \
    X(IMPORT, "import", "Import", "Import rows from a CSV file")

enum action {
    ACT_NONE = 0,
#define ACTION_ENUM(id, name, label, help) ACT_##id,
    ACTION_LIST(ACTION_ENUM)
#undef ACTION_ENUM
        ACT_COUNT
};

struct binding {
    enum view_id view;
    int key;
    enum action action;
};

struct keymap {
    size_t n, alloc;
    struct binding *b; /* owned */
};

/* The default bindings and their count. */
const struct binding *keymap_defaults(size_t *n /* OUT */);

const char *action_name(enum action a);
const char *action_label(enum action a);
const char *action_help(enum action a);
/* ACT_NONE when unknown. */
enum action action_find(const char *name);
const char *view_name(enum view_id v);
/* -1 when unknown. */
int view_find(const char *name);

/* "Enter", "F1", "C-c", "a" -> key code; 0 when not a key name. */
int keymap_key_parse(const char *name);
/* Name of a key into buf ("Enter", "a", "F10"); returns buf. */
const char *keymap_key_name(int key, char *buf, size_t n);

/* The default bindings. */
void keymap_init(struct keymap *km);
void keymap_release(struct keymap *km);
/* Bind (replacing the same view and key). */
void keymap_bind(struct keymap *km, enum view_id v, int key, enum action a);

/* The action of key in view v, else in the global view; ACT_NONE. */
enum action keymap_lookup(const struct keymap *km, enum view_id v, int key);
/* The first key bound to a in v (or globally); 0 when none. */
int keymap_key_for(const struct keymap *km, enum view_id v, enum action a);

/* Parse `bind <view> <key> <action>` lines; problems add
 * "name:line: ..." lines to errors and parsing goes on; returns CP_OK or
 * the first problem's status (CP_ERR_PARSE). */
enum cp_status keymap_parse(struct keymap *km, const char *name,
                            const char *text, struct strbuf *errors);

#endif
