/*
 * cli_opts.h - the option table shared by the plan commands (quote,
 * search, compare, plan save), the parser that applies it, and the output
 * helper that keeps stdout and --output empty on failure.
 *
 * One table, sorted by name, says for every option which commands accept
 * it, its argument, the plan key it is a shortcut for and one line of
 * help; --help and the man page's option list are generated from it.
 */
#ifndef LLMPLAN_CLI_CLI_OPTS_H
#define LLMPLAN_CLI_CLI_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "catalog/catalog.h"
#include "cli/cli.h"
#include "plan/plan.h"
#include "plan/search.h"

/* Which commands accept an option. */
enum cli_cmd_mask {
    CMD_QUOTE = 1 << 0,
    CMD_SEARCH = 1 << 1,
    CMD_COMPARE = 1 << 2,
    CMD_PLAN_SAVE = 1 << 3,
    CMD_PLAN_OTHER = 1 << 4,
    CMD_SIZE = 1 << 5,
};

enum cli_opt_id {
    OPT_SHORTCUT, /* sets a plan key */
    OPT_SET,
    OPT_FORMAT,
    OPT_OUTPUT,
    OPT_TOP,
    OPT_OBJECTIVE,
    OPT_EXPLAIN,
    OPT_HELP,
    OPT_SCHEDULE,
    OPT_DEADLINE, /* size: constraints */
    OPT_BUDGET,
    OPT_BUDGET_RUN,
    OPT_SITE_MW,
    OPT_RACK_KW,
    OPT_GPUS_MAX,
    OPT_VARY, /* quote: a tornado */
    OPT_MODEL_CONFIG, /* a Hugging Face config.json (plan/hfconfig.h) */
};

struct cli_opt {
    const char *name; /* "--gpus" */
    const char *arg;  /* metavar, NULL for flags; "[A|B]": an optional
                         value, taken from the next argument only when it
                         is one of the words */
    enum cli_opt_id id;
    int key;       /* enum plan_key for OPT_SHORTCUT, else -1 */
    unsigned cmds; /* enum cli_cmd_mask */
    const char *help;
};

/* The table (sorted by name) and its length. */
const struct cli_opt *cli_opts_table(size_t *n /* OUT */);

enum cli_format { FMT_TABLE, FMT_CSV, FMT_JSON };

#define CLI_POS_MAX 16
#define CLI_VARY_MAX 16

struct cli_args {
    struct plan overrides; /* --set and shortcuts, later ones win */
    enum cli_format format;
    const char *output; /* NULL: stdout */
    size_t top;
    enum objective objective;
    bool objective_set; /* --objective given (size: serving defaults to cost) */
    bool explain;
    bool schedule;      /* --schedule: the finance CSV */
    bool schedule_wide; /* --schedule wide: one row per year */
    bool help;
    unsigned cmd; /* the command being parsed (enum cli_cmd_mask) */
    /* size: constraints (0: none) and --accel as a list of ids */
    double deadline_days, budget_usd, budget_run_usd, site_mw, rack_kw;
    uint64_t gpus_max;
    const char *accels;
    /* quote --vary KEY=LO:HI (repeatable) */
    size_t nvary;
    const char *vary[CLI_VARY_MAX];
    int npos;
    const char *pos[CLI_POS_MAX];
};

/* Parse argv[1..argc) (argv[0] is the command) for command cmd (one bit of
 * enum cli_cmd_mask).  "--opt VALUE" and "--opt=VALUE"; "--" ends the
 * options.  CP_ERR_USAGE with d naming the option for unknown options,
 * missing values, too many arguments; the plan's errors for bad values. */
enum cp_status cli_parse(unsigned cmd, int argc, char **argv,
                         struct cli_args *a /* OUT */, struct diag *d);

/* Print the options of cmd as help lines. */
void cli_print_options(FILE *out, unsigned cmd);

/* Print the plan keys (name, values, default, help). */
void cli_print_plan_keys(FILE *out);
/* The same list as troff (.TP paragraphs) for llmplan.1's "Plan keys"
 * (`llmplan fields --man`; tests/shell/test_fields.sh compares). */
void cli_print_plan_keys_man(FILE *out);

/* Open the catalog named by the global options. */
enum cp_status cli_open_catalog(const struct global_opts *g,
                                struct catalog **out /* OUT */, struct diag *d);
/* The same for a command that only reads: a read-only catalog (a team's
 * shared file) opens read-only instead of being refused. */
enum cp_status cli_open_catalog_read(const struct global_opts *g,
                                     struct catalog **out /* OUT */,
                                     struct diag *d);

/* Load PLAN (a file or @NAME from the catalog) into p. */
enum cp_status cli_load_plan(struct catalog *cat, const char *arg,
                             struct plan *p, struct diag *d);

/* The start of a command on at most one plan (quote, search, size): argv
 * parsed into a (cmd, the command's name) with --help printed (then CP_OK
 * and a->help set: the caller returns 0), one PLAN at most (`more` ends
 * the error when there are several), the catalog opened for reading into
 * *cat, and p, initialised in every case, loaded from PLAN (or the
 * defaults) with the --set overrides merged. */
enum cp_status cli_one_plan(const struct global_opts *g, unsigned cmd,
                            const char *name, const char *more, int argc,
                            char **argv, struct cli_args *a,
                            struct catalog **cat /* OUT */, struct plan *p,
                            struct diag *d);

/* Output collected in memory and written only on success: to stdout, or
 * atomically to a file.  Set human for text meant for people (the table
 * formats): control characters from catalog or plan text are then shown
 * as ^X instead of reaching the terminal (util/termsafe.h). */
struct cli_out {
    FILE *fp; /* write here */
    char *buf;
    size_t len;
    int human;
};

enum cp_status cli_out_open(struct cli_out *o, struct diag *d);
/* Write the buffer to path (NULL: stdout) and free it. */
enum cp_status cli_out_commit(struct cli_out *o, const char *path,
                              struct diag *d);
/* Drop the buffer. */
void cli_out_discard(struct cli_out *o);
/* The end of an output: written (cli_out_commit) when st is CP_OK, else
 * dropped and st returned. */
enum cp_status cli_out_end(struct cli_out *o, enum cp_status st,
                           const char *path, struct diag *d);

struct export_item;

/* Format evaluated plans as a->format asks (compare: JSON {"plans": [...]}
 * even for one) and write them to stdout or --output.  Returns the exit
 * code, printing the error when there is one. */
int cli_emit_metrics(const struct cli_args *a, const struct export_item *items,
                     size_t n, bool compare);

/* quote --vary: the tornado of plan p (cmd_vary.c).  Returns the exit
 * code. */
int cmd_vary(const struct cli_args *a, struct catalog *cat,
             const struct plan *p);

/* Print the help of one command (usage, summary, its options) to stdout
 * and return 0.  Implemented in cli.c from the command table. */
int cli_command_help(const char *name);

#endif
