/*
 * global.h - the global options (before the command) and the one error
 * printer, shared by the headless commands (src/cli) and the TUI (src/ui).
 *
 * Both front ends sit above this file and neither calls the other: main.c
 * parses the global options (cli_start), then hands them to a command
 * (cli_run) or to the TUI (ui_main, ui_cmd_tui).
 */
#ifndef LLMPLAN_UTIL_GLOBAL_H
#define LLMPLAN_UTIL_GLOBAL_H

#include <stdbool.h>

#include "core/diag.h"

struct global_opts {
    const char *catalog_path; /* NULL: catalog_default_path() */
    const char *theme;        /* NULL: default */
    bool no_color;            /* --no-color or a non-empty NO_COLOR */
    /* --model-config FILE before the command: the model of the TUI's plan,
     * or of quote, search, size, compare and plan save (as if given as
     * their first option); NULL: none */
    const char *model_config;
};

/* Print "llmplan: <where>: <what>" (or "llmplan: <what>") for d on stderr
 * and return cp_status_exit(st). */
int report_error(enum cp_status st, const struct diag *d);

#endif
