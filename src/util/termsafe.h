/*
 * termsafe.h - text from the catalog or a plan, made safe for a terminal.
 *
 * Catalog rows and plans are shared files: a name or a source may hold
 * ESC, BEL, CR or BS, which a terminal would obey (change colours, move the
 * cursor, rewrite the line, ring, or worse).  Text meant for people (the
 * table formats, --explain) goes through these functions, which show each
 * control character visibly: C0 controls as ^X (ESC as ^[, CR as ^M), DEL
 * as ^?, and the C1 controls U+0080..U+009F as <U+009B>.  Data formats
 * (CSV, JSON) are left alone: they are for programs, and JSON escapes
 * control characters itself.
 */
#ifndef LLMPLAN_UTIL_TERMSAFE_H
#define LLMPLAN_UTIL_TERMSAFE_H

#include <stddef.h>
#include <stdio.h>

#include "util/strbuf.h"

enum term_safe_flags {
    TERM_SAFE_LINES = 1 << 0, /* keep '\n' and '\t' (whole text, not a cell) */
};

/* Write s[0..n) to out, made safe.  0, or -1 when writing fails. */
int term_safe_write(FILE *out, const char *s, size_t n, unsigned flags);

/* s made safe: s itself when it needs no change, else sb's buffer (valid
 * until sb changes; the caller releases sb). */
const char *term_safe_str(const char *s, struct strbuf *sb, unsigned flags);

#endif
