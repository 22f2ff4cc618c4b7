/* result.c - warnings of a result. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/result.h"

void result_warn(struct result *r, const char *fmt, ...)
{
    char buf[RESULT_WARNING_MAX];
    va_list ap;
    uint64_t i;

    va_start(ap, fmt);
    vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    for (i = 0; i < r->nwarnings; i++)
        if (strcmp(r->warnings[i], buf) == 0)
            return;
    if (r->nwarnings >= RESULT_MAX_WARNINGS)
        return;
    memcpy(r->warnings[r->nwarnings++], buf, sizeof(buf));
}
