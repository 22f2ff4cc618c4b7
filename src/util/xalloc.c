/* xalloc.c - aborting allocators and the failure hook for OOM tests. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

long xalloc_fail_after = -1;

static void die_oom(size_t n)
{
    fprintf(stderr, "llmplan: out of memory (%zu bytes)\n", n);
    abort();
}

void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);

    if (!p)
        die_oom(n);
    return p;
}

void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);

    if (!p)
        die_oom(n * size);
    return p;
}

void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);

    if (!q)
        die_oom(n);
    return q;
}

char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = xmalloc(n);

    memcpy(p, s, n);
    return p;
}

void *xalloc_try(size_t n)
{
    if (xalloc_fail_after == 0)
        return NULL;
    if (xalloc_fail_after > 0)
        xalloc_fail_after--;
    return malloc(n ? n : 1);
}
