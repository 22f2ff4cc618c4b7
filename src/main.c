/*
 * main.c - picks the mode: a command runs headless (cli_main) and never
 * touches curses; no command on a terminal starts the TUI; no command
 * otherwise prints usage and exits 2.
 */
#include "cli/cli.h"

int main(int argc, char **argv)
{
    return cli_main(argc, argv);
}
