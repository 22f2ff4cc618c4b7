/*
 * xalloc.h - allocation that never returns NULL (outside core).
 *
 * xmalloc and friends abort with a message on exhaustion, like git, htop
 * and tmux: a planner that cannot get a few kilobytes has nothing useful
 * left to do.  Parsers and exporters that must report CP_ERR_NOMEM instead
 * call xalloc_try(), which returns NULL when the test hook says so:
 * xalloc_fail_after = n makes the (n+1)-th xalloc_try() fail (tests only).
 */
#ifndef LLMPLAN_UTIL_XALLOC_H
#define LLMPLAN_UTIL_XALLOC_H

#include <stddef.h>

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);

/* malloc that may fail (returns NULL), for code that reports CP_ERR_NOMEM. */
void *xalloc_try(size_t n);

/* Test hook: -1 (default) never fails; n >= 0 fails after n successes. */
extern long xalloc_fail_after;

#endif
