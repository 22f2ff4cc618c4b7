/*
 * keymap.c - key names, the action table, default bindings, `bind` lines.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui/keymap.h"
#include "util/linewords.h"
#include "util/xalloc.h"

static const struct {
    const char *name, *label, *help;
} actions[] = {{"none", "", ""},
#define ACTION_ROW(id, name, label, help) {name, label, help},
               ACTION_LIST(ACTION_ROW)
#undef ACTION_ROW
};

static const char *const view_names[] = {
#define VIEW_NAME(id, name) name,
    VIEW_LIST(VIEW_NAME)
#undef VIEW_NAME
};

/* The defaults.  No view binds a key twice (unit-tested); the global
 * rows apply wherever a view has no row of its own for the key. */
static const struct binding defaults[] = {
    {VIEW_GLOBAL, '?', ACT_HELP},
    {VIEW_GLOBAL, UK_F(1), ACT_HELP},
    {VIEW_GLOBAL, 'p', ACT_VIEW_PLAN},
    {VIEW_GLOBAL, 'c', ACT_VIEW_COMPARE},
    {VIEW_GLOBAL, 's', ACT_VIEW_SEARCH},
    {VIEW_GLOBAL, 'b', ACT_VIEW_SIZE},
    {VIEW_GLOBAL, 'g', ACT_VIEW_CATALOG},
    {VIEW_GLOBAL, 'q', ACT_QUIT},
    {VIEW_GLOBAL, UK_F(10), ACT_QUIT},
    {VIEW_GLOBAL, UK_CTRL('c'), ACT_QUIT},
    {VIEW_GLOBAL, 't', ACT_THEME_NEXT},
    {VIEW_GLOBAL, UK_TAB, ACT_PANE_NEXT},
    {VIEW_GLOBAL, UK_BTAB, ACT_PANE_PREV},
    {VIEW_GLOBAL, UK_UP, ACT_UP},
    {VIEW_GLOBAL, UK_DOWN, ACT_DOWN},
    {VIEW_GLOBAL, UK_LEFT, ACT_LEFT},
    {VIEW_GLOBAL, UK_RIGHT, ACT_RIGHT},
    {VIEW_GLOBAL, UK_PGUP, ACT_PAGE_UP},
    {VIEW_GLOBAL, UK_PGDN, ACT_PAGE_DOWN},
    {VIEW_GLOBAL, UK_HOME, ACT_HOME},
    {VIEW_GLOBAL, UK_END, ACT_END},
    {VIEW_GLOBAL, UK_ENTER, ACT_ENTER},
    {VIEW_GLOBAL, UK_ESC, ACT_CANCEL},
    {VIEW_GLOBAL, '/', ACT_FILTER},
    {VIEW_GLOBAL, UK_F(4), ACT_FILTER},
    {VIEW_GLOBAL, UK_F(2), ACT_PLAN_SAVE},
    {VIEW_GLOBAL, 'w', ACT_PLAN_SAVE},
    {VIEW_GLOBAL, UK_F(3), ACT_PLAN_LOAD},
    {VIEW_GLOBAL, 'o', ACT_PLAN_LOAD},
    {VIEW_GLOBAL, 'N', ACT_PLAN_NEW},
    {VIEW_GLOBAL, 'x', ACT_EXPORT},
    {VIEW_GLOBAL, UK_F(9), ACT_EXPORT},
    {VIEW_GLOBAL, 'u', ACT_UNDO},
    {VIEW_GLOBAL, 'e', ACT_EXPLAIN},
    {VIEW_PLAN, '/', ACT_FIND}, /* the plan's rows are found, not filtered */
    {VIEW_PLAN, UK_F(4), ACT_FIND},
    {VIEW_PLAN, 'a', ACT_FIELD_AUTO},
    {VIEW_PLAN, 'A', ACT_LAYOUT_AUTO},
    {VIEW_PLAN, UK_DELETE, ACT_FIELD_DEFAULT},
    {VIEW_PLAN, UK_F(8), ACT_FIELD_DEFAULT},
    {VIEW_COMPARE, 'a', ACT_COMPARE_ADD},
    {VIEW_COMPARE, UK_F(5), ACT_COMPARE_ADD},
    {VIEW_COMPARE, UK_DELETE, ACT_COMPARE_REMOVE},
    {VIEW_COMPARE, UK_F(8), ACT_COMPARE_REMOVE},
    {VIEW_SEARCH, 'r', ACT_SEARCH_RUN},
    {VIEW_SEARCH, UK_F(5), ACT_SEARCH_RUN},
    {VIEW_SEARCH, '>', ACT_SORT_NEXT},
    {VIEW_SEARCH, UK_F(6), ACT_SORT_NEXT},
    {VIEW_SEARCH, '<', ACT_SORT_REVERSE},
    {VIEW_SEARCH, UK_F(7), ACT_SORT_REVERSE},
    {VIEW_SIZE, 'r', ACT_SEARCH_RUN},
    {VIEW_SIZE, UK_F(5), ACT_SEARCH_RUN},
    {VIEW_SIZE, 'l', ACT_SIZE_LIMITS},
    {VIEW_SIZE, UK_F(6), ACT_SIZE_LIMITS},
    {VIEW_CATALOG, 'a', ACT_ROW_ADD},
    {VIEW_CATALOG, UK_F(5), ACT_ROW_ADD},
    {VIEW_CATALOG, UK_DELETE, ACT_ROW_DELETE},
    {VIEW_CATALOG, UK_F(8), ACT_ROW_DELETE},
    {VIEW_CATALOG, 'i', ACT_IMPORT},
    {VIEW_CATALOG, UK_F(7), ACT_IMPORT},
    {VIEW_HELP, UK_ESC, ACT_CLOSE},
    {VIEW_HELP, 'q', ACT_CLOSE},
};

const struct binding *keymap_defaults(size_t *n)
{
    *n = sizeof(defaults) / sizeof(defaults[0]);
    return defaults;
}

const char *action_name(enum action a)
{
    return a > 0 && a < ACT_COUNT ? actions[a].name : "none";
}

const char *action_label(enum action a)
{
    return a > 0 && a < ACT_COUNT ? actions[a].label : "";
}

const char *action_help(enum action a)
{
    return a > 0 && a < ACT_COUNT ? actions[a].help : "";
}

enum action action_find(const char *name)
{
    int i;

    for (i = 1; i < ACT_COUNT; i++)
        if (strcmp(actions[i].name, name) == 0)
            return (enum action)i;
    return ACT_NONE;
}

const char *view_name(enum view_id v)
{
    return v < VIEW_COUNT ? view_names[v] : "global";
}

int view_find(const char *name)
{
    int i;

    for (i = 0; i < VIEW_COUNT; i++)
        if (strcmp(view_names[i], name) == 0)
            return i;
    return -1;
}

static const struct {
    const char *name;
    int key;
} key_names[] = {
    {"Enter", UK_ENTER},   {"Esc", UK_ESC},
    {"Tab", UK_TAB},       {"BTab", UK_BTAB},
    {"S-Tab", UK_BTAB},    {"Up", UK_UP},
    {"Down", UK_DOWN},     {"Left", UK_LEFT},
    {"Right", UK_RIGHT},   {"PgUp", UK_PGUP},
    {"PgDn", UK_PGDN},     {"Home", UK_HOME},
    {"End", UK_END},       {"Backspace", UK_BACKSPACE},
    {"Delete", UK_DELETE}, {"Insert", UK_INSERT},
    {"Space", ' '},        {"Return", UK_ENTER},
    {"Escape", UK_ESC},    {"Hash", '#'},
};

int keymap_key_parse(const char *name)
{
    size_t i, len = strlen(name);

    if (len == 1 && (unsigned char)name[0] > 32 && (unsigned char)name[0] < 127)
        return (unsigned char)name[0];
    for (i = 0; i < sizeof(key_names) / sizeof(key_names[0]); i++)
        if (strcmp(key_names[i].name, name) == 0)
            return key_names[i].key;
    if (name[0] == 'F' && len >= 2 && len <= 3) {
        char *end;
        long n = strtol(name + 1, &end, 10);

        if (!*end && n >= 1 && n <= 12 && name[1] != '0')
            return UK_F((int)n);
    }
    if (len == 3 && name[0] == 'C' && name[1] == '-' && name[2] >= 'a' &&
        name[2] <= 'z')
        return UK_CTRL(name[2]);
    return 0;
}

const char *keymap_key_name(int key, char *buf, size_t n)
{
    size_t i;

    for (i = 0; i < sizeof(key_names) / sizeof(key_names[0]); i++)
        if (key_names[i].key == key && key != ' ' && key != '#') {
            snprintf(buf, n, "%s", key_names[i].name);
            return buf;
        }
    if (key == ' ')
        snprintf(buf, n, "Space");
    else if (key > 32 && key < 127)
        snprintf(buf, n, "%c", key);
    else if (key > UK_F0 && key <= UK_F12)
        snprintf(buf, n, "F%d", key - UK_F0);
    else if (key >= UK_CTRL('a') && key <= UK_CTRL('z'))
        snprintf(buf, n, "C-%c", key - UK_CTRL0);
    else
        snprintf(buf, n, "?");
    return buf;
}

void keymap_init(struct keymap *km)
{
    size_t i, n;
    const struct binding *d = keymap_defaults(&n);

    km->n = 0;
    km->alloc = n + 16;
    km->b = xcalloc(km->alloc, sizeof(*km->b));
    for (i = 0; i < n; i++)
        km->b[km->n++] = d[i];
}

void keymap_release(struct keymap *km)
{
    free(km->b);
    km->b = NULL;
    km->n = 0;
    km->alloc = 0;
}

void keymap_bind(struct keymap *km, enum view_id v, int key, enum action a)
{
    size_t i;

    for (i = 0; i < km->n; i++)
        if (km->b[i].view == v && km->b[i].key == key) {
            km->b[i].action = a;
            return;
        }
    if (km->n == km->alloc) {
        km->alloc = km->alloc * 2 + 8;
        km->b = xrealloc(km->b, km->alloc * sizeof(*km->b));
    }
    km->b[km->n].view = v;
    km->b[km->n].key = key;
    km->b[km->n].action = a;
    km->n++;
}

enum action keymap_lookup(const struct keymap *km, enum view_id v, int key)
{
    size_t i;

    /* One way out that no keys file can take away. */
    if (key == UK_CTRL('c'))
        return ACT_QUIT;

    for (i = 0; i < km->n; i++)
        if (km->b[i].view == v && km->b[i].key == key)
            return km->b[i].action;
    for (i = 0; i < km->n; i++)
        if (km->b[i].view == VIEW_GLOBAL && km->b[i].key == key)
            return km->b[i].action;
    return ACT_NONE;
}

int keymap_key_for(const struct keymap *km, enum view_id v, enum action a)
{
    size_t i;

    for (i = 0; i < km->n; i++)
        if (km->b[i].view == v && km->b[i].action == a)
            return km->b[i].key;
    for (i = 0; i < km->n; i++)
        if (km->b[i].view == VIEW_GLOBAL && km->b[i].action == a &&
            keymap_lookup(km, v, km->b[i].key) == a)
            return km->b[i].key;
    return 0;
}

enum cp_status keymap_parse(struct keymap *km, const char *name,
                            const char *text, struct strbuf *errors)
{
    struct linewords lw;
    struct lw_words w;

    linewords_init(&lw, name, text, errors);
    /* "bind <view> # <action>": the key may be '#' */
    while (linewords_next(&lw, &w, 5, 2)) {
        int v, key;
        enum action a;

        if (w.toolong || w.n != 4 || strcmp(w.w[0], "bind") != 0) {
            linewords_problem(&lw, "expected 'bind <view> <key> <action>'");
            continue;
        }
        v = view_find(w.w[1]);
        if (v < 0) {
            linewords_problem(&lw, "unknown view '%s'", w.w[1]);
            continue;
        }
        key = keymap_key_parse(w.w[2]);
        if (!key) {
            linewords_problem(&lw, "unknown key '%s'", w.w[2]);
            continue;
        }
        a = action_find(w.w[3]);
        if (a == ACT_NONE && strcmp(w.w[3], "none") != 0) {
            linewords_problem(&lw, "unknown action '%s'", w.w[3]);
            continue;
        }
        if (key == UK_CTRL('c') && a != ACT_QUIT) {
            linewords_problem(&lw, "C-c always quits; it cannot be rebound");
            continue;
        }
        keymap_bind(km, (enum view_id)v, key, a);
    }
    return lw.first;
}
