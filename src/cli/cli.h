/*
 * cli.h - the headless front end: one function per command, called by
 * cli_run() after cli_start() took the global options (--catalog, --theme,
 * --no-color) off argv; main.c dispatches between them and the TUI.  Each command parses its own options from option tables,
 * writes results to stdout or --output (atomically), errors to stderr as
 * "llmplan: <where>: <what>", and returns the process exit code (0, 1 or 2,
 * see cp_status_exit()).  Nothing is written to stdout or --output when the
 * exit code is not 0.  Commands never touch curses.
 */
#ifndef LLMPLAN_CLI_CLI_H
#define LLMPLAN_CLI_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "core/diag.h"
#include "util/global.h"

/* report_error (util/global.h) for the commands. */
int cli_error(enum cp_status st, const struct diag *d);
/* cli_error for a usage problem (exit 2): "llmplan: <where>: <what>". */
int cli_usage_error(const char *where, const char *what);
/* Today (UTC) as YYYY-MM-DD into buf, or the day of SOURCE_DATE_EPOCH
 * when set (reproducible-builds.org), so tests and archives can pin it. */
void cli_today(char *buf, size_t n);

/* argv[0] is the command name. */
int cmd_quote(const struct global_opts *g, int argc, char **argv);
int cmd_search(const struct global_opts *g, int argc, char **argv);
int cmd_size(const struct global_opts *g, int argc, char **argv);
int cmd_compare(const struct global_opts *g, int argc, char **argv);
int cmd_plan(const struct global_opts *g, int argc, char **argv);
int cmd_catalog(const struct global_opts *g, int argc, char **argv);
int cmd_calibrate(const struct global_opts *g, int argc, char **argv);
/* calibrate --all-stacks / --loso (cmd_calibrate_all.c): every stack of
 * a case file fitted on its own runs, or the leave-one-source-out check;
 * the fit of `make validate`.  Writes nothing to the catalog. */
struct calibrate_all_opts {
    const char *file, *output;
    bool loso, json;
};
enum cp_status calibrate_all(const struct global_opts *g,
                             const struct calibrate_all_opts *o,
                             struct diag *d);
/* The calibrate reports' JSON (cmd_calibrate.c), for both commands: a
 * finite number or null, and the document written to fp (consumed), a
 * failed write as CP_ERR_IO on "output". */
struct json_t;
struct json_t *calibrate_num_or_null(double x);
enum cp_status calibrate_write_json(struct json_t *doc, FILE *fp,
                                    struct diag *d);
/* Not in --help: the field table as text and the fuzz dictionaries. */
int cmd_fields(const struct global_opts *g, int argc, char **argv);

/* Process set-up (locale, signals) and the global options of argv as
 * main() got it, into *g; *cmd is the index of the command (argc: none).
 * Returns -1 to go on, else the exit code (--help, --version, a bad
 * global option). */
int cli_start(int argc, char **argv, struct global_opts *g /* OUT */,
              int *cmd /* OUT */);
/* Run the headless command argv[0] ("tui" is main's).  Returns the exit
 * code; no command at all prints the usage and returns 2. */
int cli_run(const struct global_opts *g, int argc, char **argv);
/* cli_start then cli_run: the headless program without the TUI (the
 * fuzz target).  Returns the exit code. */
int cli_main(int argc, char **argv);

#endif
