/*
 * csvio.h - CSV reading and writing through libcsv (RFC 4180).  The only
 * code that includes <csv.h>.
 *
 * Writing: fields are quoted by csv_fwrite when they need it; rows end in
 * "\n".  Numbers are formatted by the caller in the C locale.
 * Reading: csvio_parse() calls row_fn once per record with the fields as
 * NUL-terminated strings (valid during the call) and the 1-based line
 * number where the record starts.
 */
#ifndef LLMPLAN_UTIL_CSVIO_H
#define LLMPLAN_UTIL_CSVIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "core/diag.h"

/* Whether s would be read as a formula by a spreadsheet: it starts with
 * '=', '+', '-', '@', a tab or a CR (OWASP, "CSV Injection") and is not a
 * plain decimal number such as -12.5. */
bool csvio_formula_like(const char *s);

/* Write one field (no separator).  A formula-like field is neutralised
 * with a leading apostrophe (OWASP's advice), so it reads as text. */
int csvio_write_field(FILE *out, const char *s);
/* Write n fields separated by ',' and a final '\n'.  0 or -1 (errno). */
int csvio_write_row(FILE *out, const char *const *fields, size_t n);

typedef enum cp_status (*csvio_row_fn)(void *ctx, size_t line,
                                       const char *const *fields, size_t n);

/* Parse data[0..len).  Stops at the first callback error and returns it.
 * CP_ERR_PARSE with d = "name:line" for malformed CSV (unterminated quote,
 * junk after a quote) and for a NUL byte in a field (which a C string would
 * cut short). */
enum cp_status csvio_parse(const char *name, const char *data, size_t len,
                           csvio_row_fn row_fn, void *ctx, struct diag *d);

/* The same, reading fp line by line: memory stays the size of one record,
 * whatever the size of the file.  A UTF-8 byte order mark is skipped.
 * CP_ERR_IO when reading fails. */
enum cp_status csvio_parse_file(const char *name, FILE *fp, csvio_row_fn row_fn,
                                void *ctx, struct diag *d);

#endif
