/*
 * main.c - picks the mode: a command runs headless (cli_main) and never
 * touches curses; no command on a terminal starts the TUI; no command
 * otherwise prints usage and exits 2.
 *
 * Whatever ran, stdout is flushed here and a write error (`--help >
 * /dev/full`, a closed pipe) turns a success into exit 1, as GNU
 * coreutils' close_stdout does: output that never arrived is not success.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

int main(int argc, char **argv)
{
    int rc = cli_main(argc, argv);

    if ((fflush(stdout) != 0 || ferror(stdout)) && rc == 0) {
        fprintf(stderr, "llmplan: stdout: cannot write output: %s\n",
                strerror(errno ? errno : EIO));
        return 1;
    }
    return rc;
}
