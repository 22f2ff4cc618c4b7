/*
 * theme.c - theme elements, the theme file parser and monochrome.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui/theme.h"
#include "util/embedded.h"
#include "util/linewords.h"

const char *const theme_builtin[] = {"default", "light", "high-contrast",
                                     "mono", NULL};

static const char *const element_names[] = {
#define THEME_NAME(id, name, help) name,
    THEME_ELEMENT_LIST(THEME_NAME)
#undef THEME_NAME
};

const char *theme_element_name(int el)
{
    if (el < 0 || el >= THEME_COUNT)
        return element_names[0];
    return element_names[el];
}

int theme_element_find(const char *name)
{
    int i;

    for (i = 0; i < THEME_COUNT; i++)
        if (strcmp(element_names[i], name) == 0)
            return i;
    return -1;
}

void theme_init(struct theme *t, const char *name)
{
    int i;

    snprintf(t->name, sizeof(t->name), "%s", name ? name : "default");
    t->mono = false;
    for (i = 0; i < THEME_COUNT; i++) {
        t->st[i].fg = THEME_COLOR_DEFAULT;
        t->st[i].bg = THEME_COLOR_DEFAULT;
        t->st[i].attrs = 0;
    }
}

static const char *const color_names[] = {"black", "red",     "green", "yellow",
                                          "blue",  "magenta", "cyan",  "white"};

/* A colour word into *out; 0 on success. */
static int parse_color(const char *w, short *out)
{
    int i;
    int bright = 0;

    if (strcmp(w, "default") == 0) {
        *out = THEME_COLOR_DEFAULT;
        return 0;
    }
    if (strncmp(w, "color", 5) == 0 && w[5]) {
        char *end;
        long v;

        errno = 0;
        v = strtol(w + 5, &end, 10);
        if (errno || *end || v < 0 || v > 255 || w[5] == '-' || w[5] == '+')
            return -1;
        *out = (short)v;
        return 0;
    }
    if (strncmp(w, "bright-", 7) == 0) {
        bright = 8;
        w += 7;
    }
    for (i = 0; i < 8; i++)
        if (strcmp(w, color_names[i]) == 0) {
            *out = (short)(i + bright);
            return 0;
        }
    return -1;
}

static const struct {
    const char *name;
    unsigned bit;
} attr_names[] = {
    {"bold", TA_BOLD},       {"dim", TA_DIM},
    {"reverse", TA_REVERSE}, {"underline", TA_UNDERLINE},
    {"italic", TA_ITALIC},   {"standout", TA_STANDOUT},
};

static int parse_attr(const char *w, unsigned *out)
{
    size_t i;

    for (i = 0; i < sizeof(attr_names) / sizeof(attr_names[0]); i++)
        if (strcmp(w, attr_names[i].name) == 0) {
            *out |= attr_names[i].bit;
            return 0;
        }
    return -1;
}

enum cp_status theme_parse(struct theme *t, const char *name, const char *text,
                           struct strbuf *errors)
{
    struct linewords lw;
    struct lw_words w;

    linewords_init(&lw, name, text, errors);
    while (linewords_next(&lw, &w, LW_WORDS_MAX, -1)) {
        struct theme_style st;
        int el, k;

        if (w.toolong) {
            linewords_problem(&lw, "line too long");
            continue;
        }
        el = theme_element_find(w.w[0]);
        if (el < 0) {
            linewords_problem(&lw, "unknown element '%s'", w.w[0]);
            continue;
        }
        if (w.n < 3) {
            linewords_problem(&lw,
                              "%s: needs a foreground and a background colour",
                              w.w[0]);
            continue;
        }
        st.attrs = 0;
        if (parse_color(w.w[1], &st.fg)) {
            linewords_problem(&lw, "%s: unknown colour '%s'", w.w[0], w.w[1]);
            continue;
        }
        if (parse_color(w.w[2], &st.bg)) {
            linewords_problem(&lw, "%s: unknown colour '%s'", w.w[0], w.w[2]);
            continue;
        }
        for (k = 3; k < w.n; k++)
            if (parse_attr(w.w[k], &st.attrs))
                break;
        if (k < w.n) {
            linewords_problem(&lw, "%s: unknown attribute '%s'", w.w[0],
                              w.w[k]);
            continue;
        }
        t->st[el] = st;
    }
    return lw.first;
}

static bool is_path(const char *s)
{
    size_t n = strlen(s);

    return strchr(s, '/') || (n > 6 && strcmp(s + n - 6, ".theme") == 0);
}

static const struct embedded_file *builtin(const char *name)
{
    char path[128];

    snprintf(path, sizeof(path), "themes/%s.theme", name);
    return embedded_find(path);
}

enum cp_status theme_load(struct theme *t, const char *name_or_path,
                          struct strbuf *errors)
{
    const struct embedded_file *def = builtin("default");
    const char *name =
        name_or_path && name_or_path[0] ? name_or_path : "default";
    enum cp_status st = CP_OK;

    theme_init(t, name);
    if (is_path(name)) {
        /* shown in the title: the file's stem */
        const char *base = strrchr(name, '/') ? strrchr(name, '/') + 1 : name;
        size_t n = strlen(base);

        if (n > 6 && strcmp(base + n - 6, ".theme") == 0)
            n -= 6;
        snprintf(t->name, sizeof(t->name), "%.*s", (int)n, base);
    }
    if (def)
        theme_parse(t, "default.theme", def->data, errors);
    if (is_path(name)) {
        struct strbuf sb = STRBUF_INIT;

        if (strbuf_read_file(&sb, name)) {
            strbuf_release(&sb);
            if (errors)
                strbuf_addf(errors, "%s: cannot read theme\n", name);
            return CP_ERR_NOT_FOUND;
        }
        st = theme_parse(t, name, sb.buf ? sb.buf : "", errors);
        strbuf_release(&sb);
    } else if (strcmp(name, "default") != 0) {
        const struct embedded_file *f = builtin(name);
        char label[96];

        if (!f) {
            if (errors)
                strbuf_addf(errors,
                            "%s: unknown theme (built in: default, "
                            "light, high-contrast, mono)\n",
                            name);
            return CP_ERR_NOT_FOUND;
        }
        snprintf(label, sizeof(label), "%s.theme", name);
        st = theme_parse(t, label, f->data, errors);
    }
    if (strcmp(name, "mono") == 0)
        theme_make_mono(t);
    return st;
}

void theme_make_mono(struct theme *t)
{
    const struct embedded_file *f = builtin("mono");
    struct theme m;
    int i;

    theme_init(&m, "mono");
    if (f)
        theme_parse(&m, "mono.theme", f->data, NULL);
    for (i = 0; i < THEME_COUNT; i++) {
        t->st[i].fg = THEME_COLOR_DEFAULT;
        t->st[i].bg = THEME_COLOR_DEFAULT;
        t->st[i].attrs = m.st[i].attrs;
    }
    t->mono = true;
}

enum cp_status theme_check_file(const char *path, struct strbuf *errors)
{
    struct strbuf sb = STRBUF_INIT;
    struct theme t;
    enum cp_status st;

    if (strbuf_read_file(&sb, path)) {
        strbuf_release(&sb);
        if (errors)
            strbuf_addf(errors, "%s: cannot read theme\n", path);
        return CP_ERR_NOT_FOUND;
    }
    theme_init(&t, path);
    st = theme_parse(&t, path, sb.buf ? sb.buf : "", errors);
    strbuf_release(&sb);
    return st;
}
