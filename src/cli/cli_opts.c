/*
 * cli_opts.c - option table, parser, plan loading and buffered output;
 * see cli_opts.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_opts.h"
#include "plan/hfconfig.h"
#include "util/fs.h"
#include "util/number.h"
#include "util/termsafe.h"
#include "util/xalloc.h"

#define PLANS (CMD_QUOTE | CMD_SEARCH | CMD_COMPARE | CMD_PLAN_SAVE)
#define EVALS (CMD_QUOTE | CMD_SEARCH | CMD_COMPARE)
#define ALL (PLANS | CMD_PLAN_OTHER | CMD_SIZE)
/* the plan keys size takes (hardware, GPUs and the cloud it chooses) */
#define SZ CMD_SIZE

/* MUST be sorted by name (a unit test checks). */
static const struct cli_opt opts[] = {
    {"--accel", "ID", OPT_SHORTCUT, PK_HW_ACCELERATOR, PLANS | SZ, NULL},
    {"--batch", "N", OPT_SHORTCUT, PK_TRAIN_GLOBAL_BATCH, PLANS | SZ, NULL},
    {"--budget", "USD", OPT_BUDGET, -1, SZ,
     "size: the most cash an option may commit (owned: the capex; "
     "reserved: the whole term; on demand: the bill)"},
    {"--budget-run", "USD", OPT_BUDGET_RUN, -1, SZ,
     "size: the most the run may cost (its share at the planned "
     "utilization; serving: USD a day)"},
    {"--cloud", "ID", OPT_SHORTCUT, PK_CLOUD_OFFER, PLANS, NULL},
    {"--cp", "N", OPT_SHORTCUT, PK_PAR_CP, PLANS | SZ, NULL},
    {"--deadline", "DAYS", OPT_DEADLINE, -1, SZ,
     "size: the run must end within DAYS (failures included; training)"},
    {"--dp", "N", OPT_SHORTCUT, PK_PAR_DP, PLANS, NULL},
    {"--ep", "N", OPT_SHORTCUT, PK_PAR_EP, PLANS | SZ, NULL},
    {"--explain", NULL, OPT_EXPLAIN, -1, CMD_QUOTE,
     "table: each metric's formula and the catalog rows used"},
    {"--format", "FMT", OPT_FORMAT, -1, EVALS | SZ,
     "table, csv or json (default table)"},
    {"--gpus", "N", OPT_SHORTCUT, PK_HW_GPUS, PLANS, NULL},
    {"--gpus-max", "N", OPT_GPUS_MAX, -1, SZ,
     "size: the largest fleet to consider (default 32768; serving: at the "
     "peak)"},
    {"--help", NULL, OPT_HELP, -1, ALL, "show this help"},
    {"--max-num-seqs", "N", OPT_SHORTCUT, PK_SERVE_MAX_BATCH, PLANS | SZ,
     NULL},
    {"--microbatch", "N", OPT_SHORTCUT, PK_PAR_MICROBATCH, PLANS | SZ, NULL},
    {"--model", "ID", OPT_SHORTCUT, PK_MODEL_PRESET, PLANS | SZ, NULL},
    {"--model-config", "FILE", OPT_MODEL_CONFIG, -1, PLANS | SZ,
     "the model from a Hugging Face config.json (not with --model)"},
    {"--objective", "OBJ", OPT_OBJECTIVE, -1, EVALS | SZ,
     "what auto layouts minimise: time, cost, energy or cash (default "
     "time; size of a serving plan: cost, and time is latency; cash: the "
     "cash committed)"},
    {"--output", "FILE", OPT_OUTPUT, -1, EVALS | SZ,
     "write there instead of stdout (atomically)"},
    {"--pp", "N", OPT_SHORTCUT, PK_PAR_PP, PLANS | SZ, NULL},
    {"--precision", "P", OPT_SHORTCUT, PK_TRAIN_PRECISION, PLANS | SZ, NULL},
    {"--rack-kw", "KW", OPT_RACK_KW, -1, SZ,
     "size: the most power one rack may draw (owned builds)"},
    {"--recompute", "MODE", OPT_SHORTCUT, PK_PAR_RECOMPUTE, PLANS | SZ, NULL},
    {"--schedule", "[long|wide]", OPT_SCHEDULE, -1, CMD_QUOTE | CMD_COMPARE,
     "csv: long (default) adds sources, the yearly schedule and monthly "
     "series; wide: the yearly schedule, a row a year, a column an item"},
    {"--seq-len", "N", OPT_SHORTCUT, PK_TRAIN_SEQ_LEN, PLANS | SZ, NULL},
    {"--set", "SECTION.KEY=VALUE", OPT_SET, -1, PLANS | SZ,
     "any plan key (repeatable; see the keys below)"},
    {"--site", "ID", OPT_SHORTCUT, PK_SITE_ID, PLANS | SZ, NULL},
    {"--site-mw", "MW", OPT_SITE_MW, -1, SZ,
     "size: the facility power an owned fleet may draw"},
    {"--term", "TERM", OPT_SHORTCUT, PK_CLOUD_TERM, PLANS, NULL},
    {"--tokens", "N", OPT_SHORTCUT, PK_TRAIN_TOKENS, PLANS | SZ, NULL},
    {"--top", "N", OPT_TOP, -1, CMD_SEARCH,
     "how many layouts to print (default 10)"},
    {"--tp", "N", OPT_SHORTCUT, PK_PAR_TP, PLANS | SZ, NULL},
    {"--vary", "KEY=LO:HI", OPT_VARY, -1, CMD_QUOTE,
     "a tornado of days, cost and the verdict; KEY: price, utilization, "
     "electricity, failures, mfu or a numeric plan key"},
    {"--zero", "N", OPT_SHORTCUT, PK_PAR_ZERO, PLANS | SZ, NULL},
};

const struct cli_opt *cli_opts_table(size_t *n)
{
    *n = sizeof(opts) / sizeof(opts[0]);
    return opts;
}

static const struct cli_opt *find_opt(const char *name, size_t len)
{
    size_t i;

    for (i = 0; i < sizeof(opts) / sizeof(opts[0]); i++)
        if (strlen(opts[i].name) == len &&
            strncmp(opts[i].name, name, len) == 0)
            return &opts[i];
    return NULL;
}

/* Whether word is one of the alternatives of an optional metavar
 * "[A|B]". */
static bool optional_word(const char *metavar, const char *word)
{
    size_t len = strlen(word);
    const char *p = metavar + 1;

    while (len > 0 && *p) {
        size_t n = strcspn(p, "|]");

        if (n == len && strncmp(p, word, len) == 0)
            return true;
        p += n;
        if (*p)
            p++;
    }
    return false;
}

/* Whether a --model-config has set the model of a's overrides. */
static bool from_model_config(const struct cli_args *a)
{
    return a->overrides.model_replaced;
}

static enum cp_status apply(const struct cli_opt *o, const char *value,
                            struct cli_args *a, struct diag *d)
{
    uint64_t top;
    double x;

    switch (o->id) {
    case OPT_SHORTCUT:
        /* size takes a list of accelerators (or systems) */
        if (a->cmd == CMD_SIZE && o->key == PK_HW_ACCELERATOR) {
            if (!value[0])
                return diag_set(d, CP_ERR_USAGE, o->name, "empty list");
            a->accels = value;
            return CP_OK;
        }
        if (o->key == PK_MODEL_PRESET && from_model_config(a))
            return diag_set(d, CP_ERR_USAGE, o->name,
                            "not with --model-config (the config is the "
                            "model)");
        return plan_set_key(&a->overrides, (enum plan_key)o->key, value,
                            o->name, d);
    case OPT_SET:
        return plan_set_assignment(&a->overrides, value, d);
    case OPT_MODEL_CONFIG:
        if (a->overrides.v[PK_MODEL_PRESET].set || from_model_config(a))
            return diag_set(d, CP_ERR_USAGE, o->name,
                            a->overrides.v[PK_MODEL_PRESET].set
                                ? "not with --model (the config is the model)"
                                : "given twice");
        return hfconfig_apply(&a->overrides, value, o->name, d);
    case OPT_FORMAT:
        if (strcmp(value, "table") == 0)
            a->format = FMT_TABLE;
        else if (strcmp(value, "csv") == 0)
            a->format = FMT_CSV;
        else if (strcmp(value, "json") == 0)
            a->format = FMT_JSON;
        else
            return diag_set(d, CP_ERR_USAGE, o->name,
                            "'%s' is not table, csv or json", value);
        return CP_OK;
    case OPT_OUTPUT:
        if (!value[0])
            return diag_set(d, CP_ERR_USAGE, o->name, "empty file name");
        a->output = value;
        return CP_OK;
    case OPT_TOP:
        if (number_parse_count(value, &top) != CP_OK || top < 1 ||
            top > SEARCH_TOP_MAX)
            return diag_set(d, CP_ERR_USAGE, o->name,
                            "'%s' is not a whole number from 1 to %d", value,
                            SEARCH_TOP_MAX);
        a->top = (size_t)top;
        return CP_OK;
    case OPT_OBJECTIVE:
        if (objective_parse(value, &a->objective) != CP_OK)
            return diag_set(d, CP_ERR_USAGE, o->name,
                            "'%s' is not time, cost, energy or cash",
                            value);
        a->objective_set = true;
        return CP_OK;
    case OPT_EXPLAIN:
        a->explain = true;
        return CP_OK;
    case OPT_SCHEDULE:
        if (value && strcmp(value, "wide") == 0)
            a->schedule_wide = true;
        else if (value && strcmp(value, "long") != 0)
            return diag_set(d, CP_ERR_USAGE, o->name,
                            "'%s' is not long or wide", value);
        a->schedule = true;
        return CP_OK;
    case OPT_HELP:
        a->help = true;
        return CP_OK;
    case OPT_VARY:
        if (a->nvary >= CLI_VARY_MAX)
            return diag_set(d, CP_ERR_USAGE, o->name, "at most %d",
                            CLI_VARY_MAX);
        a->vary[a->nvary++] = value;
        return CP_OK;
    case OPT_GPUS_MAX:
        if (number_parse_count(value, &top) != CP_OK || top < 1 ||
            top > 10000000)
            return diag_set(d, CP_ERR_USAGE, o->name,
                            "'%s' is not a whole number from 1 to 10M", value);
        a->gpus_max = top;
        return CP_OK;
    case OPT_DEADLINE:
    case OPT_BUDGET:
    case OPT_BUDGET_RUN:
    case OPT_SITE_MW:
    case OPT_RACK_KW:
        if (number_parse(value, 1, &x) != CP_OK || !(x > 0) || x > 1e15)
            return diag_set(d, CP_ERR_USAGE, o->name,
                            "'%s' is not a positive number", value);
        if (o->id == OPT_DEADLINE)
            a->deadline_days = x;
        else if (o->id == OPT_BUDGET)
            a->budget_usd = x;
        else if (o->id == OPT_BUDGET_RUN)
            a->budget_run_usd = x;
        else if (o->id == OPT_SITE_MW)
            a->site_mw = x;
        else
            a->rack_kw = x;
        return CP_OK;
    }
    return CP_OK;
}

enum cp_status cli_parse(unsigned cmd, int argc, char **argv,
                         struct cli_args *a, struct diag *d)
{
    int i, only_pos = 0;
    enum cp_status st;

    memset(a, 0, sizeof(*a));
    plan_init(&a->overrides, NULL);
    a->format = FMT_TABLE;
    a->top = 10;
    a->objective = OBJECTIVE_TIME;
    a->cmd = cmd;
    for (i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const char *eq, *value = NULL;
        const struct cli_opt *o;
        size_t len;

        if (only_pos || arg[0] != '-' || arg[1] == '\0') {
            if (a->npos >= CLI_POS_MAX)
                return diag_set(d, CP_ERR_USAGE, arg, "too many arguments");
            a->pos[a->npos++] = arg;
            continue;
        }
        if (strcmp(arg, "--") == 0) {
            only_pos = 1;
            continue;
        }
        eq = strchr(arg, '=');
        len = eq ? (size_t)(eq - arg) : strlen(arg);
        o = find_opt(arg, len);
        if (!o || !(o->cmds & cmd))
            return diag_set(d, CP_ERR_USAGE, "", "%.*s: unknown option",
                            (int)(len > 60 ? 60 : len), arg);
        if (o->arg && o->arg[0] == '[') {
            /* an optional word: "--schedule wide", "--schedule=wide" */
            if (eq)
                value = eq + 1;
            else if (i + 1 < argc && optional_word(o->arg, argv[i + 1]))
                value = argv[++i];
        } else if (o->arg) {
            if (eq) {
                value = eq + 1;
            } else if (i + 1 < argc) {
                value = argv[++i];
            } else {
                return diag_set(d, CP_ERR_USAGE, o->name, "needs a value (%s)",
                                o->arg);
            }
        } else if (eq) {
            return diag_set(d, CP_ERR_USAGE, o->name, "takes no value");
        }
        st = apply(o, value, a, d);
        if (st)
            return st;
    }
    return CP_OK;
}

void cli_print_options(FILE *out, unsigned cmd)
{
    size_t i;
    char left[64], help[160];

    for (i = 0; i < sizeof(opts) / sizeof(opts[0]); i++) {
        const struct cli_opt *o = &opts[i];

        if (!(o->cmds & cmd))
            continue;
        snprintf(left, sizeof(left), "%s%s%s", o->name, o->arg ? " " : "",
                 o->arg ? o->arg : "");
        if (o->id == OPT_SHORTCUT && cmd == CMD_SIZE &&
            o->key == PK_HW_ACCELERATOR) {
            snprintf(left, sizeof(left), "--accel ID[,ID...]");
            snprintf(help, sizeof(help),
                     "the accelerators or systems to consider (default: "
                     "every system)");
        } else if (o->id == OPT_SHORTCUT) {
            const struct field_info *ki =
                plan_key_info((enum plan_key)o->key);

            snprintf(help, sizeof(help), "%s: %s", ki->name, ki->help);
        } else {
            snprintf(help, sizeof(help), "%s", o->help);
        }
        if (strlen(left) > 22)
            fprintf(out, "  %s\n  %-22s  %s\n", left, "", help);
        else
            fprintf(out, "  %-22s  %s\n", left, help);
    }
}

/* The values a key takes, for --help: "count|auto", "yes|no", "ID". */
static void values_text(const struct field_info *ki, char *buf, size_t n)
{
    char word[32];
    size_t i, used = 0, count;

    switch (ki->type) {
    case PT_COUNT:
        snprintf(buf, n, "%s", ki->max <= 3 ? "0..3" : "N");
        break;
    case PT_NUMBER:
        snprintf(buf, n, "X");
        break;
    case PT_BOOL:
        snprintf(buf, n, "yes|no");
        break;
    case PT_ID:
        snprintf(buf, n, "ID (catalog %s)",
                 catalog_kind_name(plan_key_kind(ki)));
        break;
    case PT_ENUM:
        buf[0] = '\0';
        count = plan_enum_count(ki);
        for (i = 0; i < count && used + 1 < n; i++) {
            int w = snprintf(buf + used, n - used, "%s%s", i ? "|" : "",
                             plan_enum_choice(ki, i, word, sizeof(word)));

            if (w < 0)
                break;
            used += (size_t)w;
        }
        break;
    }
    if (ki->flags & PKF_AUTO) {
        used = strlen(buf);
        snprintf(buf + used, n - used, "|auto");
    }
}

void cli_print_plan_keys(FILE *out)
{
    size_t k;
    char values[96];

    for (k = 0; k < PLAN_KEY_COUNT; k++) {
        const struct field_info *ki = plan_key_info((enum plan_key)k);

        values_text(ki, values, sizeof(values));
        fprintf(out, "  %s = %s\n      %s (default: %s)\n", ki->name, values,
                ki->help, ki->def);
    }
}

/* A troff line of text: a '.' or '\'' at its start would be a request,
 * a backslash an escape. */
static void troff_text(FILE *out, const char *s)
{
    if (*s == '.' || *s == '\'')
        fputs("\\&", out);
    for (; *s; s++) {
        if (*s == '\\')
            fputs("\\e", out);
        else
            fputc(*s, out);
    }
}

void cli_print_plan_keys_man(FILE *out)
{
    size_t k;
    char values[96];

    for (k = 0; k < PLAN_KEY_COUNT; k++) {
        const struct field_info *ki = plan_key_info((enum plan_key)k);

        values_text(ki, values, sizeof(values));
        fprintf(out, ".TP\n.B \"%s = %s\"\n", ki->name, values);
        troff_text(out, ki->help);
        fprintf(out, " (default: ");
        troff_text(out, ki->def);
        fprintf(out, ")\n");
    }
}

enum cp_status cli_open_catalog(const struct global_opts *g,
                                struct catalog **out, struct diag *d)
{
    return catalog_open(g->catalog_path, CATALOG_OPEN_DEFAULT, out, d);
}

enum cp_status cli_open_catalog_read(const struct global_opts *g,
                                     struct catalog **out, struct diag *d)
{
    return catalog_open(g->catalog_path, CATALOG_OPEN_READ, out, d);
}

enum cp_status cli_load_plan(struct catalog *cat, const char *arg,
                             struct plan *p, struct diag *d)
{
    char *text = NULL;
    enum cp_status st;

    if (arg[0] != '@')
        return plan_load_file(p, arg, d);
    st = catalog_plan_load(cat, arg + 1, &text, d);
    if (st == CP_ERR_NOT_FOUND)
        return diag_set(d, CP_ERR_NOT_FOUND, arg,
                        "no saved plan of that name (see 'llmplan plan "
                        "list')");
    if (st)
        return st;
    st = plan_parse_ini(p, arg, text, d);
    free(text);
    if (!st)
        snprintf(p->name, sizeof(p->name), "%s", arg + 1);
    return st;
}

enum cp_status cli_one_plan(const struct global_opts *g, unsigned cmd,
                            const char *name, const char *more, int argc,
                            char **argv, struct cli_args *a,
                            struct catalog **cat, struct plan *p,
                            struct diag *d)
{
    enum cp_status st = cli_parse(cmd, argc, argv, a, d);

    plan_init(p, NULL);
    if (!st && a->help) {
        cli_command_help(name);
        return CP_OK;
    }
    if (!st && a->npos > 1)
        st = diag_set(d, CP_ERR_USAGE, a->pos[1], "%s takes one plan%s", name,
                      more);
    if (!st)
        st = cli_open_catalog_read(g, cat, d);
    if (!st && a->npos == 1)
        st = cli_load_plan(*cat, a->pos[0], p, d);
    if (!st)
        plan_merge(p, &a->overrides);
    return st;
}

enum cp_status cli_out_open(struct cli_out *o, struct diag *d)
{
    o->buf = NULL;
    o->len = 0;
    o->human = 0;
    o->fp = open_memstream(&o->buf, &o->len);
    if (!o->fp)
        return diag_set(d, CP_ERR_NOMEM, "output", "cannot buffer output");
    return CP_OK;
}

enum cp_status cli_out_end(struct cli_out *o, enum cp_status st,
                           const char *path, struct diag *d)
{
    if (!st)
        return cli_out_commit(o, path, d);
    cli_out_discard(o);
    return st;
}

void cli_out_discard(struct cli_out *o)
{
    if (o->fp)
        fclose(o->fp);
    o->fp = NULL;
    free(o->buf);
    o->buf = NULL;
}

static int write_out(const struct cli_out *o, FILE *fp)
{
    if (o->human)
        return term_safe_write(fp, o->buf, o->len, TERM_SAFE_LINES);
    return fwrite(o->buf, 1, o->len, fp) == o->len ? 0 : -1;
}

enum cp_status cli_out_commit(struct cli_out *o, const char *path,
                              struct diag *d)
{
    struct atomic_file af;
    enum cp_status st;

    if (fclose(o->fp) != 0) {
        o->fp = NULL;
        cli_out_discard(o);
        return diag_set(d, CP_ERR_NOMEM, "output", "cannot buffer output");
    }
    o->fp = NULL;
    if (!path) {
        st = CP_OK;
        if (write_out(o, stdout) != 0 || fflush(stdout))
            st = diag_set(d, CP_ERR_IO, "stdout", "cannot write output");
        cli_out_discard(o);
        return st;
    }
    st = atomic_file_open(&af, path, 0644, d);
    if (st) {
        cli_out_discard(o);
        return st;
    }
    if (write_out(o, af.fp) != 0) {
        atomic_file_abort(&af);
        cli_out_discard(o);
        return diag_set(d, CP_ERR_IO, path, "cannot write file");
    }
    cli_out_discard(o);
    return atomic_file_commit(&af, d);
}
