/*
 * cli.c - global options, the command table, generated help, dispatch.
 *
 * The command table and the option table (cli_opts.c) are the only places
 * a command or option is described; `llmplan --help`, `llmplan CMD --help`
 * and the man page's lists come from them (golden-tested).
 */
#include <locale.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/cli_opts.h"
#include "util/xalloc.h"

#ifndef LLMPLAN_VERSION
#define LLMPLAN_VERSION "0.0.0"
#endif

int cli_error(enum cp_status st, const struct diag *d)
{
    return report_error(st, d);
}

int cli_usage_error(const char *where, const char *what)
{
    struct diag d;

    diag_set(&d, CP_ERR_USAGE, where, "%s", what);
    return cli_error(CP_ERR_USAGE, &d);
}

void cli_today(char *buf, size_t n)
{
    const char *env = getenv("SOURCE_DATE_EPOCH");
    time_t t = time(NULL);
    struct tm tm;
    char *end;

    if (env && *env) {
        long long v = strtoll(env, &end, 10);

        if (!*end && v >= 0)
            t = (time_t)v;
    }
    if (!gmtime_r(&t, &tm) || !strftime(buf, n, "%Y-%m-%d", &tm))
        snprintf(buf, n, "unknown");
}

struct cli_cmd {
    const char *name;
    int (*run)(const struct global_opts *g, int argc, char **argv);
    const char *usage;   /* after the name */
    unsigned opts;       /* enum cli_cmd_mask: the options it takes */
    const char *summary; /* one line */
};

/* In the order --help lists them. */
static const struct cli_cmd commands[] = {
    {"quote", cmd_quote, "[PLAN] [OPTIONS]", CMD_QUOTE, "evaluate one plan"},
    {"search", cmd_search, "[PLAN] [OPTIONS]", CMD_SEARCH,
     "enumerate parallel layouts for a plan, print the best N"},
    {"size", cmd_size, "[PLAN] [OPTIONS]", CMD_SIZE,
     "what to buy for a training run or a serving fleet: accelerators, "
     "fleet size, owned or rented, layouts"},
    {"compare", cmd_compare, "PLAN PLAN... [OPTIONS]", CMD_COMPARE,
     "evaluate 2..8 plans and print them side by side"},
    {"plan", cmd_plan, "list | show NAME | save NAME [PLAN] | delete NAME",
     CMD_PLAN_SAVE, "plans stored in the catalog"},
    {"catalog", cmd_catalog,
     "list KIND | show KIND ID | import KIND FILE.csv | export KIND "
     "[FILE.csv] | reset",
     0, "the hardware, site, cloud and model catalog"},
    {"calibrate", cmd_calibrate,
     "RUNS.csv [--stack ID] [--as NEW_ID] [--dry-run] [--no-loo] "
     "[--all-stacks|--loso] [--format table|json]",
     0, "refit a training stack's knobs on your own measured runs"},
    /* run by main.c (ui_cmd_tui): listed here for the help only */
    {"tui", NULL, "[PLAN]", 0, "start the interactive TUI"},
    /* no summary: not listed in --help (tests and fuzz dictionaries) */
    {"fields", cmd_fields, "[--man | --dict set|plan_ini]", 0, NULL},
};

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static void usage_line(FILE *out)
{
    fprintf(out, "usage: llmplan [GLOBAL] [COMMAND [ARGS]]\n");
}

static void print_help(FILE *out)
{
    size_t i;

    usage_line(out);
    fprintf(out,
            "\nllmplan %s - capacity planner for LLM training "
            "infrastructure\n",
            LLMPLAN_VERSION);
    fprintf(out, "\ncommands:\n");
    for (i = 0; i < NCOMMANDS; i++)
        if (commands[i].summary)
            fprintf(out, "  %-9s %s\n  %-9s   %s %s\n", commands[i].name,
                    commands[i].summary, "", commands[i].name,
                    commands[i].usage);
    fprintf(out, "  (none)    the TUI on a terminal, else this usage (exit "
                 "2)\n");
    fprintf(out,
            "\nglobal options (before the command):\n"
            "  --catalog PATH          catalog database (default: "
            "$LLMPLAN_CATALOG,\n"
            "                          else $XDG_DATA_HOME/llmplan/catalog.db, "
            "else\n"
            "                          ~/.local/share/llmplan/catalog.db)\n"
            "  --model-config FILE     the model from a Hugging Face "
            "config.json (the TUI's\n"
            "                          plan, or quote, search, size, compare, "
            "plan save)\n"
            "  --theme NAME|PATH       TUI colour theme\n"
            "  --no-color              no colours (NO_COLOR is honoured "
            "too)\n"
            "  --help                  show this help\n"
            "  --version               print the version\n");
    fprintf(out, "\noptions of quote, search, compare and plan save:\n");
    cli_print_options(out,
                      CMD_QUOTE | CMD_SEARCH | CMD_COMPARE | CMD_PLAN_SAVE);
    fprintf(out, "\nPLAN is a plan file (INI) or @NAME for a saved plan; "
                 "options override it.\n"
                 "Numbers: 1024, 1.5e3, 15e12; counts also take K/M/G/T "
                 "(x1000, either case)\nand B (billions): 15T, 15t, 70B.\n");
    fprintf(out, "\nplan keys ([section] key = value in a plan file, or "
                 "--set section.key=value):\n");
    cli_print_plan_keys(out);
    fprintf(out, "\nexit status: 0 success (also when a plan does not fit), "
                 "1 runtime failure\n"
                 "(catalog, I/O), 2 usage error or invalid input.\n");
}

int cli_command_help(const char *name)
{
    size_t i;

    for (i = 0; i < NCOMMANDS; i++) {
        if (strcmp(commands[i].name, name) != 0)
            continue;
        printf("usage: llmplan [GLOBAL] %s %s\n", commands[i].name,
               commands[i].usage);
        if (commands[i].summary)
            printf("\n%s\n", commands[i].summary);
        if (commands[i].opts) {
            printf("\noptions:\n");
            cli_print_options(stdout, commands[i].opts);
            printf("\nplan keys: see 'llmplan --help'\n");
        }
        return 0;
    }
    return 2;
}

/* "--name VALUE" or "--name=VALUE" at argv[*i]; advances *i past it. */
static int global_value(int argc, char **argv, int *i, const char *name,
                        const char **out)
{
    size_t n = strlen(name);
    const char *arg = argv[*i];

    if (strncmp(arg, name, n) != 0)
        return 0;
    if (arg[n] == '=') {
        *out = arg + n + 1;
        return 1;
    }
    if (arg[n] != '\0')
        return 0;
    if (*i + 1 >= argc) {
        *out = NULL;
        return 1;
    }
    *out = argv[++*i];
    return 1;
}

/* "llmplan: ARG: unknown WHAT" through the error printer (terminal
 * escapes in ARG filtered); 2. */
static int unknown(const char *arg, const char *what)
{
    struct diag d;

    diag_clear(&d);
    return report_error(
        diag_set(&d, CP_ERR_USAGE, NULL, "%.64s: unknown %s", arg, what), &d);
}

int cli_start(int argc, char **argv, struct global_opts *g, int *cmd)
{
    const char *nc = getenv("NO_COLOR");
    const char *v;
    int i;

    memset(g, 0, sizeof(*g));
    setlocale(LC_ALL, "");
    setlocale(LC_NUMERIC, "C");
    /* A file-size limit (ulimit -f) makes a write fail with EFBIG instead
     * of killing us, so an --output temporary is removed, not left. */
    signal(SIGXFSZ, SIG_IGN);
    g->no_color = nc && nc[0];
    for (i = 1; i < argc && argv[i][0] == '-'; i++) {
        const char *arg = argv[i];

        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            print_help(stdout);
            return 0;
        }
        if (strcmp(arg, "--version") == 0) {
            printf("llmplan %s\n", LLMPLAN_VERSION);
            return 0;
        }
        if (strcmp(arg, "--no-color") == 0) {
            g->no_color = true;
            continue;
        }
        if (global_value(argc, argv, &i, "--catalog", &v)) {
            if (!v || !v[0]) {
                fprintf(stderr, "llmplan: --catalog: needs a value (PATH)\n");
                return 2;
            }
            g->catalog_path = v;
            continue;
        }
        if (global_value(argc, argv, &i, "--model-config", &v)) {
            if (!v || !v[0]) {
                fprintf(stderr,
                        "llmplan: --model-config: needs a value (FILE)\n");
                return 2;
            }
            g->model_config = v;
            continue;
        }
        if (global_value(argc, argv, &i, "--theme", &v)) {
            if (!v || !v[0]) {
                fprintf(stderr, "llmplan: --theme: needs a value (NAME)\n");
                return 2;
            }
            g->theme = v;
            continue;
        }
        unknown(arg, "option");
        usage_line(stderr);
        return 2;
    }
    *cmd = i;
    return -1;
}

/* A global --model-config is the command's first option: later --model
 * and --set override it, and a command without it refuses it. */
static int run_with_model_config(const struct global_opts *g, size_t c,
                                 int argc, char **argv)
{
    char **args;
    int i, rc;

    if (!commands[c].opts) {
        fprintf(stderr, "llmplan: --model-config: not an option of %s\n",
                commands[c].name);
        return 2;
    }
    args = xcalloc((size_t)argc + 3, sizeof(*args));
    args[0] = argv[0];
    args[1] = (char *)(uintptr_t) "--model-config";
    args[2] = (char *)(uintptr_t)g->model_config;
    for (i = 1; i < argc; i++)
        args[i + 2] = argv[i];
    rc = commands[c].run(g, argc + 2, args);
    free(args);
    return rc;
}

int cli_run(const struct global_opts *g, int argc, char **argv)
{
    size_t c;

    if (argc < 1) {
        usage_line(stderr);
        fprintf(stderr, "try 'llmplan --help'\n");
        return 2;
    }
    if (strcmp(argv[0], "help") == 0) {
        if (argc > 1)
            return cli_command_help(argv[1]) == 0 ? 0
                                                  : unknown(argv[1], "command");
        print_help(stdout);
        return 0;
    }
    for (c = 0; c < NCOMMANDS; c++)
        if (commands[c].run && strcmp(argv[0], commands[c].name) == 0)
            return g->model_config ? run_with_model_config(g, c, argc, argv)
                                   : commands[c].run(g, argc, argv);
    unknown(argv[0], "command");
    usage_line(stderr);
    return 2;
}

int cli_main(int argc, char **argv)
{
    struct global_opts g;
    int i, rc = cli_start(argc, argv, &g, &i);

    return rc >= 0 ? rc : cli_run(&g, argc - i, argv + i);
}
