/*
 * main.c - picks the mode: a command runs headless (cli_run) and never
 * touches curses; `tui`, or no command on a terminal, starts the TUI; no
 * command otherwise prints usage and exits 2.  The two front ends never
 * call each other: both take the global options of util/global.h.
 */
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "ui/ui.h"

int main(int argc, char **argv)
{
    struct global_opts g;
    int i, rc;

    rc = cli_start(argc, argv, &g, &i);
    if (rc >= 0)
        return rc;
    if (i >= argc && isatty(STDIN_FILENO) && isatty(STDOUT_FILENO))
        return ui_main(&g, NULL);
    if (i < argc && strcmp(argv[i], "tui") == 0)
        return ui_cmd_tui(&g, argc - i, argv + i);
    return cli_run(&g, argc - i, argv + i);
}
