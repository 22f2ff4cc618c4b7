/* check_linewords.c - the word splitter behind theme and key files. */
#include <check.h>
#include <string.h>

#include "util/linewords.h"

START_TEST(test_words_comments_lines)
{
    const char *text = "# comment\n\n  bind  plan\t#  quit # trailing\r\n"
                       "x y z w v u\nlast";
    struct strbuf errors;
    struct linewords lw;
    struct lw_words w;

    strbuf_init(&errors, 0);
    linewords_init(&lw, "keys", text, &errors);

    ck_assert(linewords_next(&lw, &w, 5, 2));
    ck_assert_int_eq(lw.line, 3);
    ck_assert_int_eq(w.n, 4); /* '#' is the third word's key, then a comment */
    ck_assert_str_eq(w.w[0], "bind");
    ck_assert_str_eq(w.w[2], "#");
    ck_assert_str_eq(w.w[3], "quit");
    ck_assert(!w.toolong);

    ck_assert(linewords_next(&lw, &w, 5, 2));
    ck_assert_int_eq(lw.line, 4);
    ck_assert(w.toolong); /* six words where five are allowed */
    linewords_problem(&lw, "expected %d words", 4);

    ck_assert(linewords_next(&lw, &w, 5, -1));
    ck_assert_int_eq(lw.line, 5);
    ck_assert_int_eq(w.n, 1);
    ck_assert_str_eq(w.w[0], "last");
    ck_assert(!linewords_next(&lw, &w, 5, -1));

    ck_assert_int_eq(lw.first, CP_ERR_PARSE);
    ck_assert_str_eq(errors.buf, "keys:4: expected 4 words\n");
    strbuf_release(&errors);
}
END_TEST

/* A word as long as the buffer, a '#' with no literal position, no errors
 * buffer: the problem still counts. */
START_TEST(test_long_word_and_hash)
{
    char text[LW_WORD_MAX + 8];
    struct linewords lw;
    struct lw_words w;

    memset(text, 'a', LW_WORD_MAX);
    strcpy(text + LW_WORD_MAX, "\n#x\n");
    linewords_init(&lw, "t", text, NULL);
    ck_assert(linewords_next(&lw, &w, LW_WORDS_MAX, -1));
    ck_assert(w.toolong);
    ck_assert_int_eq(w.n, 0);
    linewords_problem(&lw, "line too long");
    ck_assert(!linewords_next(&lw, &w, LW_WORDS_MAX, -1));
    ck_assert_int_eq(lw.line, 2);
    ck_assert_int_eq(lw.first, CP_ERR_PARSE);
}
END_TEST

Suite *suite_linewords(void)
{
    Suite *s = suite_create("linewords");
    TCase *tc = tcase_create("core");

    tcase_add_test(tc, test_words_comments_lines);
    tcase_add_test(tc, test_long_word_and_hash);
    suite_add_tcase(s, tc);
    return s;
}
