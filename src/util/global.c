/* global.c - the error printer of both front ends (see global.h). */
#include <stdio.h>

#include "util/global.h"

int report_error(enum cp_status st, const struct diag *d)
{
    if (d && d->where[0])
        fprintf(stderr, "llmplan: %s: %s\n", d->where,
                d->msg[0] ? d->msg : cp_status_str(st));
    else
        fprintf(stderr, "llmplan: %s\n",
                d && d->msg[0] ? d->msg : cp_status_str(st));
    return cp_status_exit(st);
}
