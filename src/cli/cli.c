/*
 * cli.c - global options and command dispatch.
 * (Minimal foundation version; the option tables and generated --help
 * come with the plan/export layer.)
 */
#include <locale.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

int cli_error(enum cp_status st, const struct diag *d)
{
    if (d && d->where[0])
        fprintf(stderr, "llmplan: %s: %s\n", d->where,
                d->msg[0] ? d->msg : cp_status_str(st));
    else
        fprintf(stderr, "llmplan: %s\n",
                d && d->msg[0] ? d->msg : cp_status_str(st));
    return cp_status_exit(st);
}

struct cli_cmd {
    const char *name;
    int (*run)(const struct cli_global *g, int argc, char **argv);
};

static const struct cli_cmd commands[] = {
    {"catalog", cmd_catalog},
};

int cli_main(int argc, char **argv)
{
    struct cli_global g = {0};
    size_t i;

    setlocale(LC_ALL, "");
    setlocale(LC_NUMERIC, "C");
    if (argc < 2) {
        fprintf(stderr, "usage: llmplan [--catalog PATH] COMMAND [ARGS]\n");
        return 2;
    }
    for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
        if (strcmp(argv[1], commands[i].name) == 0)
            return commands[i].run(&g, argc - 1, argv + 1);
    fprintf(stderr, "llmplan: %s: unknown command\n", argv[1]);
    return 2;
}
