/*
 * cli.h - the headless front end: one function per command, called by
 * cli_main() after the global options (--catalog, --theme, --no-color) are
 * taken off argv.  Each command parses its own options from option tables,
 * writes results to stdout or --output (atomically), errors to stderr as
 * "llmplan: <where>: <what>", and returns the process exit code (0, 1 or 2,
 * see cp_status_exit()).  Nothing is written to stdout or --output when the
 * exit code is not 0.  Commands never touch curses.
 */
#ifndef LLMPLAN_CLI_CLI_H
#define LLMPLAN_CLI_CLI_H

#include <stdbool.h>

#include "core/diag.h"

struct cli_global {
    const char *catalog_path; /* NULL: catalog_default_path() */
    const char *theme;        /* NULL: default */
    bool no_color;
};

/* Print "llmplan: <where>: <what>" (or "llmplan: <what>") for d and
 * return cp_status_exit(st). */
int cli_error(enum cp_status st, const struct diag *d);

/* argv[0] is the command name. */
int cmd_quote(const struct cli_global *g, int argc, char **argv);
int cmd_search(const struct cli_global *g, int argc, char **argv);
int cmd_compare(const struct cli_global *g, int argc, char **argv);
int cmd_plan(const struct cli_global *g, int argc, char **argv);
int cmd_catalog(const struct cli_global *g, int argc, char **argv);

/* Dispatch: argv as main() got it.  Returns the exit code. */
int cli_main(int argc, char **argv);

#endif
