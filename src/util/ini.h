/*
 * ini.h - a thin wrapper over libinih for plan, theme and key files.  The
 * only code that includes <ini.h>.
 *
 * Adds what the plain library lacks: the line number of every key (so a
 * caller's complaint becomes "plan.ini:12: model.heads: ..."), a status
 * instead of an int, and a message for lines inih cannot parse.  Parsing
 * continues after an error (like inih and tig) but only the first problem
 * is reported in the diag, and its status is returned.
 *
 * Syntax (inih defaults): [section], key = value (or key: value), comments
 * start with ';' or '#' at the start of a line, or " ;" after a value.
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
