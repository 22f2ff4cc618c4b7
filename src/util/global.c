/* global.c - the error printer of both front ends (see global.h). */
#include <stdio.h>

#include "util/global.h"
#include "util/strbuf.h"
#include "util/termsafe.h"

int report_error(enum cp_status st, const struct diag *d)
{
    /* The message quotes plans, catalog rows and arguments: on stderr it
     * is filtered as the table formats are on stdout. */
    struct strbuf w, m;
    const char *msg = d && d->msg[0] ? d->msg : cp_status_str(st);

    strbuf_init(&w, 0);
    strbuf_init(&m, 0);
    if (d && d->where[0])
        fprintf(stderr, "llmplan: %s: %s\n", term_safe_str(d->where, &w, 0),
                term_safe_str(msg, &m, 0));
    else
        fprintf(stderr, "llmplan: %s\n", term_safe_str(msg, &m, 0));
    strbuf_release(&w);
    strbuf_release(&m);
    return cp_status_exit(st);
}
