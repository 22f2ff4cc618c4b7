/*
 * linewords.h - line-oriented config text split into blank-separated
 * words, with '#' comments and "name:line: message" problems collected in a
 * strbuf.  The theme and key-binding files are read with it.
 *
 *     struct linewords lw;
 *     struct lw_words w;
 *
 *     linewords_init(&lw, "keys", text, errors);
 *     while (linewords_next(&lw, &w, 5, 2))
 *         if (w.n != 4)
 *             linewords_problem(&lw, "expected 4 words");
 *     return lw.first;
 */
#ifndef LLMPLAN_UTIL_LINEWORDS_H
#define LLMPLAN_UTIL_LINEWORDS_H

#include <stdbool.h>

#include "core/status.h"
#include "util/strbuf.h"

#define LW_WORDS_MAX 12
#define LW_WORD_MAX 64

struct linewords {
    const char *p;         /* start of the next line, NULL at the end */
    int line;              /* number of the line last read, from 1 */
    const char *name;      /* file name for problems */
    struct strbuf *errors; /* problems go here; may be NULL */
    enum cp_status first;  /* CP_OK, or CP_ERR_PARSE after a problem */
};

struct lw_words {
    int n;                                /* words on the line */
    bool toolong;                         /* too many words, or too long */
    char w[LW_WORDS_MAX][LW_WORD_MAX];
};

void linewords_init(struct linewords *lw, const char *name, const char *text,
                    struct strbuf *errors);

/* The next line that is not blank or a comment, split into at most
 * max_words (<= LW_WORDS_MAX) words; false after the last line.  '#'
 * starts a comment, except at the start of word number `literal_hash`
 * (0-based; -1 for none), where it is a word (the '#' key). */
bool linewords_next(struct linewords *lw, struct lw_words *out,
                    int max_words, int literal_hash);

/* "name:line: " + message + newline to the errors, and lw->first set. */
void linewords_problem(struct linewords *lw, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif
