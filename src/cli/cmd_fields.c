/*
 * cmd_fields.c - `llmplan fields`: the field table (core/fields.h) as
 * text, for the tests and the fuzz dictionaries.  Not listed in --help.
 *
 *   llmplan fields                one line per field: name, type, unit,
 *                                 min, max, default (tab-separated)
 *   llmplan fields --dict set     tests/fuzz/set.dict
 *   llmplan fields --dict plan_ini  tests/fuzz/plan_ini.dict
 *   llmplan fields --man          the plan keys block of llmplan.1
 *
 * The checked-in dictionaries and the man page's block are this output
 * (tests/shell/test_fields.sh compares them; `make fields-update` writes
 * them), so a field added to the table reaches the fuzzers and the man
 * page.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_opts.h"
#include "plan/plan.h"

/* Value words no field names: numbers in the forms number_parse takes,
 * and a few catalog ids of the default data. */
static const char *const number_words[] = {
    "15T", "1e7", "1e15", "8K", "1.5e3", "-1", "0", "K", "M", "G", "T", "e",
    ".",
};
static const char *const id_words[] = {
    "llama3-70b",
    "h100-sxm",
    "dgx-h100",
    "ib-ndr",
    "us-average",
};

static const char *type_name(enum field_type t)
{
    static const char *const names[] = {
        [PT_COUNT] = "count", [PT_NUMBER] = "number", [PT_BOOL] = "bool",
        [PT_ENUM] = "enum",   [PT_ID] = "id",
    };

    return names[t];
}

/* Whether word w already is one of the n strings in seen. */
static int seen_before(const char *const *seen, size_t n, const char *w)
{
    size_t i;

    for (i = 0; i < n; i++)
        if (strcmp(seen[i], w) == 0)
            return 1;
    return 0;
}

/* Every choice of every ENUM field once, then auto/yes/no. */
static void print_choices(FILE *out)
{
    static char words[256][32];
    const char *seen[256];
    size_t k, i, n = 0;

    for (k = 0; k < PLAN_KEY_COUNT; k++) {
        const struct field_info *fi = plan_key_info((enum plan_key)k);

        for (i = 0; i < plan_enum_count(fi) && n < 256; i++) {
            plan_enum_choice(fi, i, words[n], sizeof(words[n]));
            if (seen_before(seen, n, words[n]))
                continue;
            seen[n] = words[n];
            fprintf(out, "\"%s\"\n", words[n]);
            n++;
        }
    }
    fprintf(out, "\"auto\"\n\"yes\"\n\"no\"\n");
}

static void print_words(FILE *out, const char *const *w, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++)
        fprintf(out, "\"%s\"\n", w[i]);
}

static void dict_set(FILE *out)
{
    size_t k;

    fprintf(out, "# set.dict - key names and values for --set "
                 "(generated: llmplan fields --dict set)\n");
    for (k = 0; k < PLAN_KEY_COUNT; k++)
        fprintf(out, "\"%s=\"\n", plan_key_info((enum plan_key)k)->name);
    print_choices(out);
    print_words(out, number_words,
                sizeof(number_words) / sizeof(number_words[0]));
}

static void dict_plan_ini(FILE *out)
{
    const char *seen[PLAN_KEY_COUNT];
    size_t k, s, n = 0;

    fprintf(out, "# plan_ini.dict - sections, keys and values of the plan "
                 "schema (generated: llmplan fields --dict plan_ini)\n");
    for (s = 0; plan_sections[s]; s++)
        fprintf(out, "\"[%s]\"\n", plan_sections[s]);
    for (k = 0; k < PLAN_KEY_COUNT; k++) {
        const char *key = plan_key_info((enum plan_key)k)->key;

        if (seen_before(seen, n, key))
            continue;
        seen[n++] = key;
        fprintf(out, "\"%s = \"\n", key);
    }
    print_choices(out);
    print_words(out, number_words,
                sizeof(number_words) / sizeof(number_words[0]));
    print_words(out, id_words, sizeof(id_words) / sizeof(id_words[0]));
    fprintf(out, "\" ; \"\n\"\\x0A\"\n\"=\"\n\":\"\n\"#\"\n");
}

static void list_fields(FILE *out)
{
    size_t k;

    for (k = 0; k < PLAN_KEY_COUNT; k++) {
        const struct field_info *fi = plan_key_info((enum plan_key)k);

        fprintf(out, "%s\t%s\t%s\t", fi->name, type_name(fi->type), fi->unit);
        if (fi->type == PT_COUNT || fi->type == PT_NUMBER)
            fprintf(out, "%.17g\t%.17g\t", fi->min, fi->max);
        else
            fprintf(out, "\t\t");
        fprintf(out, "%s\n", fi->def);
    }
}

int cmd_fields(const struct global_opts *g, int argc, char **argv)
{
    struct diag d;

    (void)g;
    diag_clear(&d);
    if (argc == 1) {
        list_fields(stdout);
        return 0;
    }
    if (argc == 2 && strcmp(argv[1], "--man") == 0) {
        cli_print_plan_keys_man(stdout);
        return 0;
    }
    if (argc == 3 && strcmp(argv[1], "--dict") == 0) {
        if (strcmp(argv[2], "set") == 0) {
            dict_set(stdout);
            return 0;
        }
        if (strcmp(argv[2], "plan_ini") == 0) {
            dict_plan_ini(stdout);
            return 0;
        }
        diag_set(&d, CP_ERR_USAGE, "--dict", "'%s' is not set or plan_ini",
                 argv[2]);
        return cli_error(CP_ERR_USAGE, &d);
    }
    diag_set(&d, CP_ERR_USAGE, "fields",
             "usage: llmplan fields [--man | --dict set|plan_ini]");
    return cli_error(CP_ERR_USAGE, &d);
}
