/*
 * check_ui.c - the TUI's pure parts: the keymap (no key bound twice in a
 * view, every action reachable, key names round trip, `bind` lines with
 * file:line errors), the theme parser (errors that go on, every element in
 * the built-in themes, monochrome), the canvas and its dump, and widgets.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui/canvas.h"
#include "ui/keymap.h"
#include "ui/theme.h"
#include "ui/widgets.h"
#include "util/embedded.h"

Suite *suite_ui(void);

/* ---- keymap ------------------------------------------------------------- */

START_TEST(test_no_duplicate_keys)
{
    size_t n, i, j;
    const struct binding *b = keymap_defaults(&n);

    for (i = 0; i < n; i++)
        for (j = i + 1; j < n; j++)
            ck_assert_msg(b[i].view != b[j].view || b[i].key != b[j].key,
                          "view %s binds key %d twice", view_name(b[i].view),
                          b[i].key);
}
END_TEST

START_TEST(test_every_action_reachable)
{
    struct keymap km;
    int a, v;

    keymap_init(&km);
    for (a = 1; a < ACT_COUNT; a++) {
        bool found = false;

        /* a binding whose key really runs the action in its view */
        for (v = 0; v < VIEW_COUNT && !found; v++) {
            int key = keymap_key_for(&km, (enum view_id)v, (enum action)a);

            found = key &&
                    keymap_lookup(&km, (enum view_id)v, key) == (enum action)a;
        }
        ck_assert_msg(found, "action %s has no key", action_name(a));
    }
    keymap_release(&km);
}
END_TEST

START_TEST(test_tabs_and_quit_everywhere)
{
    struct keymap km;
    int v;

    keymap_init(&km);
    for (v = VIEW_PLAN; v < VIEW_COUNT; v++) {
        ck_assert_int_eq(keymap_lookup(&km, v, UK_F(10)), ACT_QUIT);
        ck_assert_int_eq(keymap_lookup(&km, v, 'c'), ACT_VIEW_COMPARE);
        ck_assert_int_eq(keymap_lookup(&km, v, 's'), ACT_VIEW_SEARCH);
        ck_assert_int_eq(keymap_lookup(&km, v, 'g'), ACT_VIEW_CATALOG);
        ck_assert_int_eq(keymap_lookup(&km, v, UK_F(1)), ACT_HELP);
    }
    ck_assert_int_eq(keymap_lookup(&km, VIEW_PLAN, 'q'), ACT_QUIT);
    ck_assert_int_eq(keymap_lookup(&km, VIEW_HELP, 'q'), ACT_CLOSE);
    keymap_release(&km);
}
END_TEST

START_TEST(test_action_table)
{
    int a;

    for (a = 1; a < ACT_COUNT; a++) {
        ck_assert_int_eq(action_find(action_name(a)), a);
        ck_assert_msg(action_help(a)[0], "%s has no help", action_name(a));
        ck_assert_msg(strlen(action_label(a)) <= 7, "%s: label too long",
                      action_name(a));
    }
    ck_assert_int_eq(action_find("no-such-action"), ACT_NONE);
}
END_TEST

START_TEST(test_key_names_round_trip)
{
    size_t n, i;
    const struct binding *b = keymap_defaults(&n);
    char buf[32];

    for (i = 0; i < n; i++) {
        keymap_key_name(b[i].key, buf, sizeof(buf));
        ck_assert_int_eq(keymap_key_parse(buf), b[i].key);
    }
    ck_assert_int_eq(keymap_key_parse("Enter"), UK_ENTER);
    ck_assert_int_eq(keymap_key_parse("F12"), UK_F(12));
    ck_assert_int_eq(keymap_key_parse("C-x"), UK_CTRL('x'));
    ck_assert_int_eq(keymap_key_parse("Space"), ' ');
    ck_assert_int_eq(keymap_key_parse("F13"), 0);
    ck_assert_int_eq(keymap_key_parse("F0"), 0);
    ck_assert_int_eq(keymap_key_parse("Nope"), 0);
    ck_assert_int_eq(keymap_key_parse(""), 0);
}
END_TEST

START_TEST(test_bind_lines)
{
    struct keymap km;
    struct strbuf err = STRBUF_INIT;

    keymap_init(&km);
    ck_assert_int_eq(keymap_parse(&km, "keys",
                                  "# mine\n\nbind plan x quit\n"
                                  "bind global F5 view-search\n"
                                  "bind search # help\n",
                                  &err),
                     CP_OK);
    ck_assert_uint_eq(err.len, 0);
    ck_assert_int_eq(keymap_lookup(&km, VIEW_PLAN, 'x'), ACT_QUIT);
    /* the global x still exports elsewhere */
    ck_assert_int_eq(keymap_lookup(&km, VIEW_COMPARE, 'x'), ACT_EXPORT);
    ck_assert_int_eq(keymap_lookup(&km, VIEW_PLAN, UK_F(5)), ACT_VIEW_SEARCH);
    ck_assert_int_eq(keymap_lookup(&km, VIEW_SEARCH, '#'), ACT_HELP);
    keymap_release(&km);
    strbuf_release(&err);
}
END_TEST

START_TEST(test_bind_errors)
{
    struct keymap km;
    struct strbuf err = STRBUF_INIT;

    keymap_init(&km);
    ck_assert_int_eq(keymap_parse(&km, "keys",
                                  "bind nowhere x quit\n"
                                  "bind plan Nope quit\n"
                                  "bind plan x fly\n"
                                  "unbind plan x\n"
                                  "bind plan z quit\n",
                                  &err),
                     CP_ERR_PARSE);
    ck_assert_str_eq(err.buf, "keys:1: unknown view 'nowhere'\n"
                              "keys:2: unknown key 'Nope'\n"
                              "keys:3: unknown action 'fly'\n"
                              "keys:4: expected 'bind <view> <key> "
                              "<action>'\n");
    /* parsing went on */
    ck_assert_int_eq(keymap_lookup(&km, VIEW_PLAN, 'z'), ACT_QUIT);
    ck_assert_int_eq(keymap_lookup(&km, VIEW_PLAN, 'x'), ACT_EXPORT);
    keymap_release(&km);
    strbuf_release(&err);
}
END_TEST

/* ---- themes ------------------------------------------------------------- */

/* Every element has a line in the built-in theme name. */
static void check_complete(const char *name)
{
    char path[64];
    const struct embedded_file *f;
    struct theme t;
    int i;

    snprintf(path, sizeof(path), "themes/%s.theme", name);
    f = embedded_find(path);
    ck_assert_msg(f != NULL, "%s is not embedded", path);
    theme_init(&t, name);
    for (i = 0; i < THEME_COUNT; i++)
        t.st[i].fg = -2;
    ck_assert_int_eq(theme_parse(&t, path, f->data, NULL), CP_OK);
    for (i = 0; i < THEME_COUNT; i++)
        ck_assert_msg(t.st[i].fg != -2, "%s: no line for '%s'", path,
                      theme_element_name(i));
}

START_TEST(test_builtin_themes_complete)
{
    int i;

    for (i = 0; theme_builtin[i]; i++)
        check_complete(theme_builtin[i]);
}
END_TEST

START_TEST(test_theme_parse)
{
    struct theme t;

    theme_init(&t, "x");
    ck_assert_int_eq(theme_parse(&t, "x.theme",
                                 "# comment\n"
                                 "title  bright-red color200 bold reverse\n"
                                 "  value default blue   # trailing\n",
                                 NULL),
                     CP_OK);
    ck_assert_int_eq(t.st[THEME_TITLE].fg, 9);
    ck_assert_int_eq(t.st[THEME_TITLE].bg, 200);
    ck_assert_uint_eq(t.st[THEME_TITLE].attrs, TA_BOLD | TA_REVERSE);
    ck_assert_int_eq(t.st[THEME_VALUE].fg, THEME_COLOR_DEFAULT);
    ck_assert_int_eq(t.st[THEME_VALUE].bg, 4);
}
END_TEST

START_TEST(test_theme_errors)
{
    struct theme t;
    struct strbuf err = STRBUF_INIT;

    theme_init(&t, "x");
    ck_assert_int_eq(theme_parse(&t, "bad.theme",
                                 "titel red blue\n"
                                 "title purple blue\n"
                                 "title red color256\n"
                                 "title red blue blink\n"
                                 "title red\n"
                                 "value green black\n",
                                 &err),
                     CP_ERR_PARSE);
    ck_assert_str_eq(err.buf, "bad.theme:1: unknown element 'titel'\n"
                              "bad.theme:2: title: unknown colour 'purple'\n"
                              "bad.theme:3: title: unknown colour 'color256'\n"
                              "bad.theme:4: title: unknown attribute 'blink'\n"
                              "bad.theme:5: title: needs a foreground and a "
                              "background colour\n");
    /* the good line after the bad ones applied; title untouched */
    ck_assert_int_eq(t.st[THEME_VALUE].fg, 2);
    ck_assert_int_eq(t.st[THEME_TITLE].fg, THEME_COLOR_DEFAULT);
    strbuf_release(&err);
}
END_TEST

START_TEST(test_theme_mono)
{
    struct theme t;

    ck_assert_int_eq(theme_load(&t, "light", NULL), CP_OK);
    ck_assert_int_ne(t.st[THEME_TITLE].bg, THEME_COLOR_DEFAULT);
    theme_make_mono(&t);
    ck_assert(t.mono);
    ck_assert_int_eq(t.st[THEME_TITLE].fg, THEME_COLOR_DEFAULT);
    ck_assert_int_eq(t.st[THEME_TITLE].bg, THEME_COLOR_DEFAULT);
    /* the selection stays visible without colours */
    ck_assert(t.st[THEME_CURSOR].attrs & TA_REVERSE);
    ck_assert_int_eq(theme_load(&t, "mono", NULL), CP_OK);
    ck_assert(t.mono);
    ck_assert_int_eq(theme_load(&t, "no-such-theme", NULL), CP_ERR_NOT_FOUND);
    ck_assert_int_eq(theme_load(&t, "/nonexistent/x.theme", NULL),
                     CP_ERR_NOT_FOUND);
}
END_TEST

/* ---- canvas and widgets ------------------------------------------------- */

START_TEST(test_canvas_clip_and_text)
{
    struct canvas c;

    canvas_init(&c, 10, 2, false);
    ck_assert_int_eq(canvas_text(&c, 7, 0, -1, "abcdef", 3), 3);
    canvas_put(&c, -1, 0, 'x', 1);
    canvas_put(&c, 10, 1, 'x', 1);
    canvas_put(&c, 0, 5, 'x', 1);
    ck_assert_uint_eq(canvas_at(&c, 9, 0)->ch, 'c');
    ck_assert_uint_eq(canvas_at(&c, 9, 0)->el, 3);
    ck_assert_ptr_null(canvas_at(&c, 10, 0));
    /* non-ASCII on a plain canvas, and a broken sequence */
    canvas_text(&c, 0, 1, -1, "\xc3\xa9\xff!", 0);
    ck_assert_uint_eq(canvas_at(&c, 0, 1)->ch, '?');
    ck_assert_uint_eq(canvas_at(&c, 1, 1)->ch, '?');
    ck_assert_uint_eq(canvas_at(&c, 2, 1)->ch, '!');
    c.utf8 = true;
    canvas_text(&c, 0, 1, -1, "\xc3\xa9", 0);
    ck_assert_uint_eq(canvas_at(&c, 0, 1)->ch, 0xE9);
    ck_assert_int_eq(canvas_text_width("\xc3\xa9t\xc3\xa9"), 3);
    canvas_release(&c);
    /* reuse after release */
    canvas_init(&c, 1, 1, false);
    canvas_release(&c);
}
END_TEST

static const char *el_name(int el)
{
    return theme_element_name(el);
}

START_TEST(test_canvas_dump)
{
    struct canvas c;
    struct strbuf sb = STRBUF_INIT;

    canvas_init(&c, 3, 2, false);
    canvas_text(&c, 0, 0, -1, "ab", THEME_TITLE);
    canvas_put(&c, 2, 1, 'z', THEME_VALUE_BAD);
    canvas_dump(&c, &sb, el_name);
    ck_assert_str_eq(sb.buf, "screen 3x2\n"
                             "ab \n"
                             "  z\n"
                             "elements\n"
                             "aa.\n"
                             "..m\n"
                             "legend\n"
                             ". normal\n"
                             "a title\n"
                             "m value_bad\n");
    strbuf_release(&sb);
    canvas_release(&c);
}
END_TEST

START_TEST(test_widget_bar)
{
    struct canvas c;
    struct bar_seg s[2] = {{1, THEME_BAR_WEIGHTS, 0},
                           {0.001, THEME_BAR_OPTIMIZER, 0}};
    int x, w = 0, o = 0, f = 0;

    canvas_init(&c, 20, 1, false);
    widget_bar(&c, 0, 0, 10, s, 2, 4, THEME_BAR_FREE);
    for (x = 0; x < 20; x++) {
        int el = canvas_at(&c, x, 0)->el;

        w += el == THEME_BAR_WEIGHTS;
        o += el == THEME_BAR_OPTIMIZER;
        f += el == THEME_BAR_FREE;
    }
    /* a quarter of 10 cells, a tiny share still shows, the rest free */
    ck_assert_int_eq(w, 3);
    ck_assert_int_eq(o, 1);
    ck_assert_int_eq(f, 6);
    /* more than the scale is clipped to the width */
    s[0].value = 100;
    widget_bar(&c, 0, 0, 10, s, 2, 4, THEME_BAR_FREE);
    ck_assert_int_eq(canvas_at(&c, 10, 0)->el, THEME_NORMAL);
    canvas_release(&c);
}
END_TEST

START_TEST(test_widget_text_and_scroll)
{
    struct canvas c;
    size_t top = 0, sel;

    canvas_init(&c, 10, 1, false);
    ck_assert_int_eq(widget_text(&c, 0, 0, 4, "abcdef", 0, 0), 4);
    ck_assert_uint_eq(canvas_at(&c, 3, 0)->ch, '~');
    ck_assert_int_eq(widget_text(&c, 0, 0, 6, "ab", 0, 1), 2);
    ck_assert_uint_eq(canvas_at(&c, 5, 0)->ch, 'b');
    canvas_release(&c);
    for (sel = 0; sel < 50; sel++) {
        widget_scroll(sel, 50, 7, &top);
        ck_assert(sel >= top && sel < top + 7);
        ck_assert(top + 7 <= 50);
    }
    widget_scroll(3, 5, 10, &top);
    ck_assert_uint_eq(top, 0);
}
END_TEST

static const char *fmt(double v, char *buf, size_t n)
{
    snprintf(buf, n, "%.0f", v);
    return buf;
}

START_TEST(test_widget_chart_inside)
{
    struct canvas c;
    double a[61], b[61];
    struct chart_series s[2] = {{a, 61, THEME_CHART_BUILD, '*', "a"},
                                {b, 61, THEME_CHART_CLOUD, 'o', "b"}};
    int x, y, nb = 0, nc = 0;
    size_t i;

    for (i = 0; i < 61; i++) {
        a[i] = 100 + 2.0 * (double)i;
        b[i] = 4.0 * (double)i;
    }
    canvas_init(&c, 60, 20, false);
    widget_chart(&c, (struct rect){5, 3, 40, 12}, s, 2, 12, "months", 50, fmt);
    for (y = 0; y < 20; y++)
        for (x = 0; x < 60; x++) {
            const struct cell *cl = canvas_at(&c, x, y);
            bool inside = x >= 5 && x < 45 && y >= 3 && y < 15;

            if (!inside)
                ck_assert_msg(cl->ch == ' ', "drawn outside at %d,%d", x, y);
            nb += cl->el == THEME_CHART_BUILD;
            nc += cl->el == THEME_CHART_CLOUD;
        }
    ck_assert_int_gt(nb, 10);
    ck_assert_int_gt(nc, 10);
    /* the mark is labelled with its x value (issue 14, item 16): the
     * discounted payback (issue 18) */
    {
        char row[64];
        int n = 0;

        for (x = 0; x < 60 && n < 63; x++) {
            const struct cell *cl = canvas_at(&c, x, 3);

            row[n++] = cl->ch < 128 ? (char)cl->ch : '?';
        }
        row[n] = '\0';
        ck_assert_msg(strstr(row, "payback 50 months") != NULL,
                      "no payback label on the top row: '%s'", row);
    }
    /* too small to draw: nothing */
    canvas_clear(&c, 0);
    widget_chart(&c, (struct rect){0, 0, 5, 2}, s, 2, 12, NULL, -1, fmt);
    ck_assert_uint_eq(canvas_at(&c, 0, 0)->ch, ' ');
    canvas_release(&c);
}
END_TEST

START_TEST(test_widget_funcbar)
{
    struct canvas c;
    struct funckey k[3] = {{"F1", "Help"}, {"F2", "Save"}, {"F10", "Quit"}};
    int xs[4];

    canvas_init(&c, 20, 1, false);
    ck_assert_uint_eq(widget_funcbar(&c, 0, 20, k, 3, xs), 2);
    ck_assert_int_eq(xs[0], 0);
    ck_assert_int_eq(xs[1], 8);
    ck_assert_uint_eq(canvas_at(&c, 0, 0)->el, THEME_KEY);
    ck_assert_uint_eq(canvas_at(&c, 2, 0)->el, THEME_KEY_LABEL);
    canvas_release(&c);
}
END_TEST

static const char *fit_cell(void *ctx, size_t i, size_t j, char *buf,
                            size_t n, int *el)
{
    static const char *const rows[2][3] = {
        {"1,234,567", "own 96 + coreweave-hgx-b200 spot", "$2.7M-$3.9M"},
        {"8", "own", "$20.4M-$28.8M"},
    };

    (void)ctx, (void)buf, (void)n, (void)el;
    return rows[i][j];
}

/* Issue 20 item 3: a column is as wide as its numbers; the words and the
 * titles give way, never a number. */
START_TEST(test_widget_table_fit)
{
    static const struct table_col cols[3] = {
        {"accelerators", 4, 1}, {"buy", 10, 0}, {"cost", 6, 1}};
    struct table_col out[3];

    widget_table_fit(out, cols, NULL, 3, 2, fit_cell, NULL, 200);
    ck_assert_int_eq(out[0].width, 12); /* the title fits */
    ck_assert_int_eq(out[1].width, 32);
    ck_assert_int_eq(out[2].width, 13);
    widget_table_fit(out, cols, NULL, 3, 2, fit_cell, NULL, 40);
    ck_assert_int_eq(out[0].width, 9); /* the title gives way */
    ck_assert_int_eq(out[1].width, 40 - 3 - 9 - 13);
    ck_assert_int_eq(out[2].width, 13);
    widget_table_fit(out, cols, NULL, 3, 2, fit_cell, NULL, 10);
    ck_assert_int_eq(out[0].width, 9); /* numbers whole, words to their floor */
    ck_assert_int_eq(out[1].width, 10);
    ck_assert_int_eq(out[2].width, 13);
}
END_TEST

/* Issue 22 item 4: what does not fit is dropped whole, by its level, never
 * cut (a cash column shown as "$7~"): level 1 first, then the words
 * narrow to TABLE_WORD_MIN, then the other levels; level 0 stays. */
START_TEST(test_widget_table_fit_drop)
{
    static const struct table_col cols[3] = {
        {"accelerators", 4, 1}, {"buy", 20, 0}, {"cost", 6, 1}};
    static const int drop[3] = {2, 0, 1};
    struct table_col out[3];
    int xs[4];

    /* the words narrow to their given width: nothing goes */
    widget_table_fit(out, cols, drop, 3, 2, fit_cell, NULL, 45);
    ck_assert_int_eq(out[0].width, 9);
    ck_assert_int_eq(out[1].width, 20);
    ck_assert_int_eq(out[2].width, 13);
    /* narrower: the level-1 number goes, whole (not "$2.7M-~"), and
     * the words get its room back */
    widget_table_fit(out, cols, drop, 3, 2, fit_cell, NULL, 40);
    ck_assert_int_eq(out[0].width, 9);
    ck_assert_int_eq(out[1].width, 40 - 1 - 9 - 1);
    ck_assert_int_eq(out[2].width, -1);
    /* narrower still: the words go to TABLE_WORD_MIN, then level 2 */
    widget_table_fit(out, cols, drop, 3, 2, fit_cell, NULL,
                     9 + 1 + TABLE_WORD_MIN + 1);
    ck_assert_int_eq(out[0].width, 9);
    ck_assert_int_eq(out[1].width, TABLE_WORD_MIN);
    ck_assert_int_eq(out[2].width, -1);
    widget_table_fit(out, cols, drop, 3, 2, fit_cell, NULL, 20);
    ck_assert_int_eq(out[0].width, -1);
    ck_assert_int_eq(out[1].width, 19);
    ck_assert_int_eq(out[2].width, -1);
    /* a dropped column takes no room */
    widget_table_xs((struct rect){0, 0, 20, 1}, out, 3, xs);
    ck_assert_int_eq(xs[0], 0);
    ck_assert_int_eq(xs[1], 0);
    ck_assert_int_eq(xs[2], 20);
}
END_TEST

Suite *suite_ui(void)
{
    Suite *s = suite_create("ui");
    TCase *core = tcase_create("core");
    TCase *errors = tcase_create("errors");
    TCase *inv = tcase_create("invariants");

    tcase_add_test(inv, test_no_duplicate_keys);
    tcase_add_test(inv, test_every_action_reachable);
    tcase_add_test(inv, test_tabs_and_quit_everywhere);
    tcase_add_test(inv, test_action_table);
    tcase_add_test(inv, test_builtin_themes_complete);
    tcase_add_test(core, test_key_names_round_trip);
    tcase_add_test(core, test_bind_lines);
    tcase_add_test(core, test_theme_parse);
    tcase_add_test(core, test_theme_mono);
    tcase_add_test(core, test_canvas_clip_and_text);
    tcase_add_test(core, test_canvas_dump);
    tcase_add_test(core, test_widget_bar);
    tcase_add_test(core, test_widget_text_and_scroll);
    tcase_add_test(inv, test_widget_chart_inside);
    tcase_add_test(core, test_widget_funcbar);
    tcase_add_test(core, test_widget_table_fit);
    tcase_add_test(core, test_widget_table_fit_drop);
    tcase_add_test(errors, test_bind_errors);
    tcase_add_test(errors, test_theme_errors);
    suite_add_tcase(s, core);
    suite_add_tcase(s, errors);
    suite_add_tcase(s, inv);
    return s;
}
