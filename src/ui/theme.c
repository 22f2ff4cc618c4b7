/*
 * theme.c - theme elements, the theme file parser and monochrome.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui/theme.h"
#include "util/embedded.h"

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

#define WORDS_MAX 12
#define WORD_MAX 64

enum cp_status theme_parse(struct theme *t, const char *name, const char *text,
                           struct strbuf *errors)
{
    enum cp_status first = CP_OK;
    const char *p = text;
    int line = 0;

#define PROBLEM(...)                                                           \
    do {                                                                       \
        if (errors) {                                                          \
            strbuf_addf(errors, "%s:%d: ", name, line);                        \
            strbuf_addf(errors, __VA_ARGS__);                                  \
            strbuf_addch(errors, '\n');                                        \
        }                                                                      \
        if (!first)                                                            \
            first = CP_ERR_PARSE;                                              \
    } while (0)

    while (p && *p) {
        char words[WORDS_MAX][WORD_MAX];
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        size_t i = 0;
        int nw = 0, el, k;
        bool toolong = false;
        struct theme_style st;

        line++;
        while (i < len) {
            size_t start;

            while (i < len && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r'))
                i++;
            if (i >= len || p[i] == '#')
                break;
            start = i;
            while (i < len && p[i] != ' ' && p[i] != '\t' && p[i] != '\r')
                i++;
            if (nw >= WORDS_MAX || i - start >= WORD_MAX) {
                toolong = true;
                break;
            }
            memcpy(words[nw], p + start, i - start);
            words[nw][i - start] = '\0';
            nw++;
        }
        p = eol ? eol + 1 : NULL;
        if (toolong) {
            PROBLEM("line too long");
            continue;
        }
        if (nw == 0)
            continue;
        el = theme_element_find(words[0]);
        if (el < 0) {
            PROBLEM("unknown element '%s'", words[0]);
            continue;
        }
        if (nw < 3) {
            PROBLEM("%s: needs a foreground and a background colour", words[0]);
            continue;
        }
        st.attrs = 0;
        if (parse_color(words[1], &st.fg)) {
            PROBLEM("%s: unknown colour '%s'", words[0], words[1]);
            continue;
        }
        if (parse_color(words[2], &st.bg)) {
            PROBLEM("%s: unknown colour '%s'", words[0], words[2]);
            continue;
        }
        for (k = 3; k < nw; k++)
            if (parse_attr(words[k], &st.attrs))
                break;
        if (k < nw) {
            PROBLEM("%s: unknown attribute '%s'", words[0], words[k]);
            continue;
        }
        t->st[el] = st;
    }
#undef PROBLEM
    return first;
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
