/* diag.c - filling struct diag; vsnprintf only, so it stays pure. */
#include <stdio.h>
#include <string.h>

#include "diag.h"

void diag_clear(struct diag *d)
{
    if (!d)
        return;
    d->where[0] = '\0';
    d->msg[0] = '\0';
}

enum cp_status diag_vset(struct diag *d, enum cp_status st, const char *where,
                         const char *fmt, va_list ap)
{
    if (!d)
        return st;
    snprintf(d->where, sizeof(d->where), "%s", where ? where : "");
    vsnprintf(d->msg, sizeof(d->msg), fmt, ap);
    return st;
}

enum cp_status diag_set(struct diag *d, enum cp_status st, const char *where,
                        const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    diag_vset(d, st, where, fmt, ap);
    va_end(ap);
    return st;
}

void diag_prefix(struct diag *d, const char *prefix)
{
    char old[DIAG_WHERE_MAX];

    if (!d || !prefix || !*prefix)
        return;
    memcpy(old, d->where, sizeof(old));
    if (old[0])
        snprintf(d->where, sizeof(d->where), "%s: %s", prefix, old);
    else
        snprintf(d->where, sizeof(d->where), "%s", prefix);
}
