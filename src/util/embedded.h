/*
 * embedded.h - files compiled into the binary (src/gen/embed.c): the default
 * catalog data/<kind>.csv, themes/<name>.theme
 * and the catalog schema migrations src/catalog/schema/<NNNN_name>.sql.
 */
#ifndef LLMPLAN_UTIL_EMBEDDED_H
#define LLMPLAN_UTIL_EMBEDDED_H

#include <stddef.h>

struct embedded_file {
    const char *path; /* as given to the build: "data/accelerators.csv" */
    const char *data; /* NUL-terminated */
    long size;        /* without the NUL */
};

/* Terminated by an entry whose path is NULL. */
extern const struct embedded_file embedded_files[];

/* The embedded file at path, or NULL. */
const struct embedded_file *embedded_find(const char *path);

#endif
