/*
 * main.c - picks the mode: a command runs headless (cli_run) and never
 * touches curses; `tui`, or no command on a terminal, starts the TUI; no
 * command otherwise prints usage and exits 2.  The two front ends never
 * call each other: both take the global options of util/global.h.
 *
 * Whatever ran, stdout is flushed here and a write error (`--help >
 * /dev/full`, a closed pipe) turns a success into exit 1, as GNU
 * coreutils' close_stdout does: output that never arrived is not success.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "ui/ui.h"

int main(int argc, char **argv)
{
    struct global_opts g;
    int i, rc;

    rc = cli_start(argc, argv, &g, &i);
    if (rc < 0) {
        if (i >= argc && isatty(STDIN_FILENO) && isatty(STDOUT_FILENO))
            rc = ui_main(&g, NULL);
        else if (i < argc && strcmp(argv[i], "tui") == 0)
            rc = ui_cmd_tui(&g, argc - i, argv + i);
        else
            rc = cli_run(&g, argc - i, argv + i);
    }
    if ((fflush(stdout) != 0 || ferror(stdout)) && rc == 0) {
        fprintf(stderr, "llmplan: stdout: cannot write output: %s\n",
                strerror(errno ? errno : EIO));
        return 1;
    }
    return rc;
}
