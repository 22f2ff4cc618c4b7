/*
 * diag.h - caller-owned error details: where a problem is and what it is.
 *
 * A fallible function returns enum cp_status and, when the caller passes a
 * struct diag, fills it with the place ("parallel.tp", "plan.ini:12",
 * "--gpus") and a one-line lowercase message without a final period, git
 * style.  The CLI prints "llmplan: <where>: <what>".  No heap is involved:
 * the buffers are inside the struct, so a diag can live on the stack.
 *
 * diag is in core (not util) because scenario_validate() must name the
 * field it rejects; it uses only vsnprintf, so core stays pure.
 */
#ifndef LLMPLAN_CORE_DIAG_H
#define LLMPLAN_CORE_DIAG_H

#include <stdarg.h>

#include "status.h"

#define DIAG_WHERE_MAX 256
#define DIAG_MSG_MAX 512

struct diag {
    char where[DIAG_WHERE_MAX]; /* field, option or file:line; "" if none */
    char msg[DIAG_MSG_MAX];     /* what is wrong; "" if nothing was set */
};

/* Empty both strings.  d may be NULL. */
void diag_clear(struct diag *d);

/* Set d->where to where (may be NULL) and d->msg from fmt; returns st so a
 * caller can write "return diag_set(d, CP_ERR_RANGE, "parallel.tp", ...);".
 * d may be NULL, then only st is returned.  Overlong text is truncated. */
enum cp_status diag_set(struct diag *d, enum cp_status st, const char *where,
                        const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Like diag_set with a va_list. */
enum cp_status diag_vset(struct diag *d, enum cp_status st, const char *where,
                         const char *fmt, va_list ap)
    __attribute__((format(printf, 4, 0)));

/* Prefix d->where with prefix and ": " (for "file:line: key").  No-op when
 * d is NULL or prefix is NULL/empty. */
void diag_prefix(struct diag *d, const char *prefix);

#endif
