/*
 * ini.h - the INI reader for plan files.
 *
 * It follows libinih's syntax, which plan files were first written for,
 * but reads the text itself: libinih as Debian builds it cuts lines at 199
 * characters (the rest became a bogus key) and takes an indented line as
 * the continuation of the previous value (so "  tp = 4" under a key
 * silently changed that key).  Here a line has no length limit and an
 * indented line is an ordinary line.  Every key comes with its line number
 * (so a caller's complaint becomes "plan.ini:12: model.heads: ...").
 * Parsing continues after an error but only the first problem is reported
 * in the diag, and its status is returned.
 *
 * Syntax: [section], key = value (or key: value), comments start with ';'
 * or '#' at the start of a line, or " ;" after a value; a UTF-8 byte order
 * mark is skipped.
 */
#ifndef LLMPLAN_UTIL_INI_H
#define LLMPLAN_UTIL_INI_H

#include <stddef.h>

#include "core/diag.h"

/* Called once per key.  section is "" for keys before any [section].  The
 * strings are valid only during the call.  Returning anything but CP_OK
 * records d (whose where is then prefixed with "name:line") as the error;
 * parsing goes on so that later syntax errors do not hide the first one. */
typedef enum cp_status (*ini_key_fn)(void *ctx, const char *section,
                                     const char *key, const char *value,
                                     int line, struct diag *d);

/* Parse the NUL-terminated text; name is used in messages ("plan.ini",
 * "@baseline").  CP_ERR_PARSE for malformed lines ("name:line: expected
 * 'key = value'"), else the first status a callback returned. */
enum cp_status ini_parse_text(const char *name, const char *text, ini_key_fn fn,
                              void *ctx, struct diag *d);

#endif
