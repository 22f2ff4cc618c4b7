/*
 * check_plan.c - the plan key table, value parsing (every bad input of the
 * acceptance contract), INI parsing with file:line errors, overrides and
 * the INI writer's round trip, and the CLI option table.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "check_helpers.h"
#include "cli/cli_opts.h"
#include "plan/plan.h"
#include "plan/search.h"

Suite *suite_plan(void);

/* argv as main() gets it: writable copies (freed by free_argv). */
static char **make_argv(const char *const *args, int argc)
{
    char **argv = calloc((size_t)argc + 1, sizeof(*argv));
    int i;

    for (i = 0; i < argc; i++)
        argv[i] = strdup(args[i]);
    return argv;
}

static void free_argv(char **argv, int argc)
{
    int i;

    for (i = 0; i < argc; i++)
        free(argv[i]);
    free(argv);
}

static const char *const key_names[] = {
#define KEY_NAME(id, sec, key, ...) sec "." key,
    FIELD_LIST(KEY_NAME)
#undef KEY_NAME
};

START_TEST(test_table_complete)
{
    size_t k, s = 0;
    char name[96];

    for (k = 0; k < PLAN_KEY_COUNT; k++) {
        const struct field_info *ki = plan_key_info((enum plan_key)k);

        ck_assert_ptr_nonnull(ki->name);
        ck_assert_str_eq(ki->name, key_names[k]);
        snprintf(name, sizeof(name), "%s.%s", ki->section, ki->key);
        ck_assert_str_eq(ki->name, name);
        ck_assert_ptr_nonnull(ki->help);
        ck_assert_ptr_nonnull(ki->def);
        /* sections are contiguous and in plan_sections order */
        while (plan_sections[s] && strcmp(plan_sections[s], ki->section))
            s++;
        ck_assert_msg(plan_sections[s] != NULL, "%s out of section order",
                      ki->name);
        if (ki->type == PT_ENUM)
            ck_assert_uint_ge(plan_enum_count(ki), 2);
    }
}
END_TEST

START_TEST(test_options_sorted)
{
    size_t n, i;
    const struct cli_opt *o = cli_opts_table(&n);

    for (i = 1; i < n; i++)
        ck_assert_msg(strcmp(o[i - 1].name, o[i].name) < 0, "%s before %s",
                      o[i - 1].name, o[i].name);
}
END_TEST

/* The bad inputs of shared/acceptance/contract.py that the plan layer
 * itself rejects: status, exit class and where. */
static const struct {
    const char *argv[4];
    enum cp_status st;
    const char *where;
} bad[] = {
    {{"quote", "--gpus", "0", NULL}, CP_ERR_RANGE, "--gpus"},
    {{"quote", "--gpus", "-8", NULL}, CP_ERR_RANGE, "--gpus"},
    {{"quote", "--gpus", "lots", NULL}, CP_ERR_PARSE, "--gpus"},
    {{"quote", "--tokens", "nan", NULL}, CP_ERR_PARSE, "--tokens"},
    {{"quote", "--tokens", "1e400", NULL}, CP_ERR_RANGE, "--tokens"},
    {{"quote", "--tokens", "inf", NULL}, CP_ERR_PARSE, "--tokens"},
    {{"quote", "--gpus", "1.5", NULL}, CP_ERR_RANGE, "--gpus"},
    {{"quote", "--gpus", "0x10", NULL}, CP_ERR_PARSE, "--gpus"},
    {{"quote", "--set", "model.nonsense=1", NULL},
     CP_ERR_USAGE,
     "model.nonsense"},
    {{"quote", "--set", "parallel.zero=7", NULL},
     CP_ERR_RANGE,
     "parallel.zero"},
    {{"quote", "--set", "parallel.zero", NULL}, CP_ERR_USAGE, "--set"},
    {{"quote", "--set", "train.precision=fp64", NULL},
     CP_ERR_PARSE,
     "train.precision"},
    {{"quote", "--set", "model.gated_ffn=maybe", NULL},
     CP_ERR_PARSE,
     "model.gated_ffn"},
    {{"quote", "--accel", "No Such", NULL}, CP_ERR_PARSE, "--accel"},
    {{"quote", "--set", "site.pue=0.5", NULL}, CP_ERR_RANGE, "site.pue"},
    {{"quote", "--frobnicate", NULL, NULL}, CP_ERR_USAGE, ""},
    {{"quote", "--gpus", NULL, NULL}, CP_ERR_USAGE, "--gpus"},
    {{"quote", "--format", "xml", NULL}, CP_ERR_USAGE, "--format"},
    {{"quote", "--top", "5", NULL}, CP_ERR_USAGE, ""},
    {{"search", "--top", "0", NULL}, CP_ERR_USAGE, "--top"},
    {{"quote", "--objective", "fun", NULL}, CP_ERR_USAGE, "--objective"},
    {{"quote", "--set", "serve.percentile=95", NULL},
     CP_ERR_PARSE,
     "serve.percentile"},
    {{"quote", "--set", "serve.window_requests=-1", NULL},
     CP_ERR_RANGE,
     "serve.window_requests"},
    {{"quote", "--set", "serve.output_cv=4.5", NULL},
     CP_ERR_RANGE,
     "serve.output_cv"},
};

START_TEST(test_bad_inputs)
{
    struct cli_args *a = calloc(1, sizeof(*a));
    struct diag d;
    int argc = 0;
    char **argv;
    unsigned cmd;
    enum cp_status st;

    while (argc < 4 && bad[_i].argv[argc])
        argc++;
    cmd = strcmp(bad[_i].argv[0], "search") == 0 ? CMD_SEARCH : CMD_QUOTE;
    diag_clear(&d);
    argv = make_argv(bad[_i].argv, argc);
    st = cli_parse(cmd, argc, argv, a, &d);
    free_argv(argv, argc);
    ck_assert_msg(st == bad[_i].st, "case %d: status %s, want %s", _i,
                  cp_status_str(st), cp_status_str(bad[_i].st));
    ck_assert_int_eq(cp_status_exit(st), 2);
    ck_assert_str_eq(d.where, bad[_i].where);
    ck_assert_msg(d.msg[0] != '\0' && !strchr(d.msg, '\n'), "message '%s'",
                  d.msg);
    free(a);
}
END_TEST

START_TEST(test_good_values)
{
    struct plan p;
    struct diag d;

    plan_init(&p, NULL);
    ck_assert_int_eq(plan_set_key(&p, PK_TRAIN_TOKENS, "15T", NULL, &d), CP_OK);
    ck_assert_uint_eq(p.v[PK_TRAIN_TOKENS].u, 15000000000000ULL);
    ck_assert_int_eq(plan_set_key(&p, PK_TRAIN_TOKENS, "1.5e3", NULL, &d),
                     CP_OK);
    ck_assert_uint_eq(p.v[PK_TRAIN_TOKENS].u, 1500);
    ck_assert_int_eq(plan_set_key(&p, PK_TRAIN_PRECISION, " fp8 ", NULL, &d),
                     CP_OK);
    ck_assert_uint_eq(p.v[PK_TRAIN_PRECISION].u, PREC_FP8);
    ck_assert_int_eq(plan_set_key(&p, PK_PAR_TP, "auto", NULL, &d), CP_OK);
    ck_assert(p.v[PK_PAR_TP].is_auto);
    ck_assert_int_eq(plan_set_key(&p, PK_PAR_RECOMPUTE, "auto", NULL, &d),
                     CP_OK);
    ck_assert_int_eq(plan_set_key(&p, PK_MODEL_GATED_FFN, "yes", NULL, &d),
                     CP_OK);
    ck_assert_uint_eq(p.v[PK_MODEL_GATED_FFN].u, 1);
    ck_assert_int_eq(plan_set_key(&p, PK_TRAIN_GRAD_DTYPE, "bf16", NULL, &d),
                     CP_OK);
    ck_assert_uint_eq(p.v[PK_TRAIN_GRAD_DTYPE].u, 1);
    ck_assert_int_eq(plan_set_key(&p, PK_SITE_USD_PER_KWH, "0.085", NULL, &d),
                     CP_OK);
    ck_assert_rel(p.v[PK_SITE_USD_PER_KWH].d, 0.085, 1e-15);
    /* auto is only for layout keys, the serving batch and fleet size */
    ck_assert_int_ne(plan_set_key(&p, PK_TRAIN_SEQ_LEN, "auto", NULL, &d),
                     CP_OK);
    ck_assert_str_eq(d.where, "train.seq_len");
    ck_assert_int_eq(plan_set_key(&p, PK_HW_GPUS, "auto", NULL, &d), CP_OK);
    ck_assert(p.v[PK_HW_GPUS].is_auto);
    /* serve.percentile names a statistic; 50, 90, 99 are read as p50 ... */
    ck_assert_int_eq(plan_set_key(&p, PK_SERVE_PERCENTILE, "mean", NULL, &d),
                     CP_OK);
    ck_assert_uint_eq(p.v[PK_SERVE_PERCENTILE].u, SERVE_PCT_MEAN);
    ck_assert_int_eq(plan_set_key(&p, PK_SERVE_PERCENTILE, "p90", NULL, &d),
                     CP_OK);
    ck_assert_uint_eq(p.v[PK_SERVE_PERCENTILE].u, SERVE_PCT_P90);
    ck_assert_int_eq(plan_set_key(&p, PK_SERVE_PERCENTILE, "99", NULL, &d),
                     CP_OK);
    ck_assert_uint_eq(p.v[PK_SERVE_PERCENTILE].u, SERVE_PCT_P99);
    ck_assert_int_eq(plan_set_key(&p, PK_SERVE_PERCENTILE, "50", NULL, &d),
                     CP_OK);
    ck_assert_uint_eq(p.v[PK_SERVE_PERCENTILE].u, SERVE_PCT_P50);
}
END_TEST

static const struct {
    const char *text;
    enum cp_status st;
    const char *where;
} bad_ini[] = {
    {"[model]\nlayers = 80\nheads = lots\n", CP_ERR_PARSE,
     "x.ini:3: model.heads"},
    {"[model]\nlayers = 80\n\n[bogus]\nx = 1\n", CP_ERR_USAGE,
     "x.ini:5: bogus"},
    {"[model]\nnonsense = 1\n", CP_ERR_USAGE, "x.ini:2: model.nonsense"},
    {"[model]\nthis is not a key\n", CP_ERR_PARSE, "x.ini:2"},
    {"gpus = 8\n", CP_ERR_PARSE, "x.ini:1: gpus"},
    {"; comment\n# another\n[parallel]\nzero = 9\n", CP_ERR_RANGE,
     "x.ini:4: parallel.zero"},
    {"[hardware\ngpus = 8\n", CP_ERR_PARSE, "x.ini:1"},
    /* issue 18: a key after the section on its line is not dropped */
    {"[train] seq_len = 2048\n", CP_ERR_PARSE, "x.ini:1"},
    {"[model]\npreset = llama3-8b\n[train]seq_len=2048\n", CP_ERR_PARSE,
     "x.ini:3"},
};

START_TEST(test_ini_errors)
{
    struct plan p;
    struct diag d;
    enum cp_status st;

    plan_init(&p, NULL);
    diag_clear(&d);
    st = plan_parse_ini(&p, "x.ini", bad_ini[_i].text, &d);
    ck_assert_msg(st == bad_ini[_i].st, "case %d: %s (%s: %s)", _i,
                  cp_status_str(st), d.where, d.msg);
    ck_assert_str_eq(d.where, bad_ini[_i].where);
    ck_assert_int_eq(cp_status_exit(st), 2);
}
END_TEST

START_TEST(test_ini_good_and_overrides)
{
    static const char text[] = "; a plan\n"
                               "[model]\n"
                               "preset = llama3-70b\n"
                               "[hardware]\n"
                               "accelerator = h100-sxm\n"
                               "gpus = 8K\n"
                               "[parallel]\n"
                               "tp = 8 ; inline comment\n";
    struct plan p;
    struct cli_args *a = calloc(1, sizeof(*a));
    const char *argv[] = {"quote",           "--gpus",           "1024",
                          "--set",           "parallel.tp=auto", "--set",
                          "train.tokens=15T"};
    struct diag d;

    plan_init(&p, NULL);
    ck_assert_int_eq(plan_parse_ini(&p, "x.ini", text, &d), CP_OK);
    ck_assert_str_eq(p.v[PK_MODEL_PRESET].id, "llama3-70b");
    ck_assert_uint_eq(p.v[PK_HW_GPUS].u, 8000);
    ck_assert_uint_eq(p.v[PK_PAR_TP].u, 8);
    char **av = make_argv(argv, 7);

    ck_assert_int_eq(cli_parse(CMD_QUOTE, 7, av, a, &d), CP_OK);
    free_argv(av, 7);
    plan_merge(&p, &a->overrides);
    ck_assert_uint_eq(p.v[PK_HW_GPUS].u, 1024);
    ck_assert_str_eq(p.v[PK_HW_GPUS].origin, "--gpus");
    ck_assert(p.v[PK_PAR_TP].is_auto);
    ck_assert_uint_eq(p.v[PK_TRAIN_TOKENS].u, 15000000000000ULL);
    ck_assert_str_eq(p.v[PK_MODEL_PRESET].id, "llama3-70b");
    free(a);
}
END_TEST

START_TEST(test_round_trip)
{
    static const char *const sets[] = {
        "model.preset=llama3-70b",
        "model.layers=80",
        "model.gated_ffn=yes",
        "model.experts=8",
        "train.tokens=15T",
        "train.precision=fp8",
        "train.grad_dtype=bf16",
        "train.attention=flash",
        "hardware.accelerator=h100-sxm",
        "hardware.gpus=1024",
        "hardware.oversubscription=1.5",
        "parallel.tp=8",
        "parallel.pp=auto",
        "parallel.recompute=selective",
        "parallel.sequence_parallel=no",
        "parallel.zero=1",
        "site.usd_per_kwh=0.0731",
        "finance.cost_of_capital=0.1",
        "cloud.term=reserved_3y",
        "cloud.usd_per_gpu_hour=2.49",
        "reliability.node_mtbf_h=1e5",
    };
    struct plan p, q;
    struct strbuf sb;
    struct diag d;
    size_t i;

    plan_init(&p, "a");
    for (i = 0; i < sizeof(sets) / sizeof(sets[0]); i++)
        ck_assert_msg(plan_set_assignment(&p, sets[i], &d) == CP_OK, "%s: %s",
                      sets[i], d.msg);
    strbuf_init(&sb, 0);
    ck_assert_int_eq(plan_write_ini(&p, &sb), CP_OK);
    plan_init(&q, "b");
    ck_assert_msg(plan_parse_ini(&q, "rt", sb.buf, &d) == CP_OK, "%s: %s",
                  d.where, d.msg);
    ck_assert(plan_equal(&p, &q));
    ck_assert_ptr_nonnull(strstr(sb.buf, "[parallel]\ntp = 8\npp = auto\n"));
    /* and the text is stable */
    {
        struct strbuf sb2;

        strbuf_init(&sb2, 0);
        ck_assert_int_eq(plan_write_ini(&q, &sb2), CP_OK);
        ck_assert_str_eq(sb.buf, sb2.buf);
        strbuf_release(&sb2);
    }
    strbuf_release(&sb);
}
END_TEST

START_TEST(test_format_number)
{
    char buf[64];

    plan_format_number(0.1, buf, sizeof(buf));
    ck_assert_str_eq(buf, "0.1");
    plan_format_number(15e12, buf, sizeof(buf));
    ck_assert_str_eq(buf, "1.5e+13");
    plan_format_number(1.0 / 3, buf, sizeof(buf));
    ck_assert_double_eq(strtod(buf, NULL), 1.0 / 3);
}
END_TEST

/* Random INI-ish text never crashes the parser, and whatever it accepts
 * writes back to text that parses to the same plan. */
START_TEST(test_random_ini)
{
    static const char alphabet[] = "[]=;#.\n\n  \t-+eE0123456789KMGTauto"
                                   "modeltrainhardwaregpusparalleltpzero"
                                   "yesnobf16fp8h100-sxm\x01\xff";
    static const char *const lines[] = {
        "[model]\n",    "[train]\n",    "[parallel]\n", "[hardware]\n",
        "tp = ",        "gpus = ",      "zero = ",      "tokens = ",
        "precision = ", "gated_ffn = ", "preset = ",    "auto\n",
        "8\n",          "15T\n",        "yes\n"};
    unsigned long seed = 12345;
    int round;

    for (round = 0; round < 3000; round++) {
        char text[256];
        size_t len = 0, target;
        struct plan p, q;
        struct strbuf sb;
        struct diag d;

        seed = seed * 6364136223846793005UL + 1442695040888963407UL;
        target = (seed >> 33) % 200;
        while (len < target) {
            seed = seed * 6364136223846793005UL + 1442695040888963407UL;
            if ((seed >> 40) % 3 == 0) {
                const char *l =
                    lines[(seed >> 20) % (sizeof(lines) / sizeof(lines[0]))];
                size_t n = strlen(l);

                if (len + n >= sizeof(text) - 1)
                    break;
                memcpy(text + len, l, n);
                len += n;
            } else {
                text[len++] = alphabet[(seed >> 24) % (sizeof(alphabet) - 1)];
            }
        }
        text[len] = '\0';
        plan_init(&p, NULL);
        if (plan_parse_ini(&p, "fuzz", text, &d) != CP_OK) {
            ck_assert(d.where[0] != '\0');
            continue;
        }
        strbuf_init(&sb, 0);
        ck_assert_int_eq(plan_write_ini(&p, &sb), CP_OK);
        plan_init(&q, NULL);
        ck_assert_msg(plan_parse_ini(&q, "rt", sb.buf, &d) == CP_OK,
                      "%s: %s\n%s", d.where, d.msg, sb.buf);
        ck_assert(plan_equal(&p, &q));
        strbuf_release(&sb);
    }
}
END_TEST

/* Issue 14 item 17: a plan key and the catalog column it overrides accept
 * the same range and the same words (core/bounds.h), so nothing imported
 * is refused by --set or the other way round. */
START_TEST(test_bounds_agree)
{
    static const struct {
        const char *key;
        enum catalog_kind kind;
        const char *col;
    } pairs[] = {
        {"site.pue", CATALOG_SITES, "pue"},
        {"site.usd_per_kwh", CATALOG_SITES, "usd_per_kwh"},
        {"site.kgco2_per_kwh", CATALOG_SITES, "kgco2_per_kwh"},
        {"cloud.usd_per_gpu_hour", CATALOG_CLOUD, "usd_per_gpu_hour"},
        {"cloud.term", CATALOG_CLOUD, "term"},
    };
    size_t i, j, n;

    for (i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
        const struct catalog_column *cols = catalog_columns(pairs[i].kind, &n);
        const struct field_info *ki;
        enum plan_key k;

        ck_assert_int_eq(plan_key_find(pairs[i].key, &k), CP_OK);
        ki = plan_key_info(k);
        for (j = 0; j < n && strcmp(cols[j].name, pairs[i].col); j++)
            ;
        ck_assert_msg(j < n, "%s: no column %s", pairs[i].key, pairs[i].col);
        if (ki->choices) {
            ck_assert_str_eq(ki->choices, cols[j].choices);
            continue;
        }
        ck_assert_msg(ki->min == cols[j].min && ki->max == cols[j].max,
                      "%s [%g, %g] but the catalog's %s [%g, %g]", pairs[i].key,
                      ki->min, ki->max, pairs[i].col, cols[j].min, cols[j].max);
    }
    ck_assert_str_eq(plan_key_info(PK_CLOUD_TERM)->choices,
                     "on_demand|reserved_1y|reserved_3y|spot");
}
END_TEST

/* Every plan key whose field has a twin of the same name in the catalog
 * kind its section overrides shares its bounds (or its choices): a value
 * imported into the catalog quotes, and --set takes what the row holds.
 * Pairs by name, so a key or a column added later is checked too. */
START_TEST(test_bounds_twins)
{
    static const struct {
        const char *section;
        enum catalog_kind kind;
    } twins[] = {
        {"site", CATALOG_SITES},
        {"cloud", CATALOG_CLOUD},
        {"hardware", CATALOG_SYSTEMS},
        {"reliability", CATALOG_SYSTEMS},
        {"hardware", CATALOG_ACCELERATORS},
        {"network", CATALOG_FABRICS},
        {"storage", CATALOG_STORAGE},
        {"model", CATALOG_MODELS},
        {"software", CATALOG_STACKS},
        {"serve", CATALOG_STACKS},
    };
    size_t i, j, t, n, paired = 0;
    char diff[4096] = "";

    for (i = 0; i < PLAN_KEY_COUNT; i++) {
        const struct field_info *ki = plan_key_info((enum plan_key)i);

        for (t = 0; t < sizeof(twins) / sizeof(twins[0]); t++) {
            const struct catalog_column *cols;

            if (strcmp(ki->section, twins[t].section) != 0)
                continue;
            cols = catalog_columns(twins[t].kind, &n);
            for (j = 0; j < n && strcmp(cols[j].name, ki->key); j++)
                ;
            if (j == n || ki->type == PT_ID || ki->type == PT_BOOL)
                continue;
            paired++;
            if (ki->choices || cols[j].choices) {
                if (!ki->choices || !cols[j].choices ||
                    strcmp(ki->choices, cols[j].choices) != 0)
                    snprintf(diff + strlen(diff), sizeof(diff) - strlen(diff),
                             " %s choices differ from %s.%s;", ki->name,
                             catalog_kind_name(twins[t].kind), cols[j].name);
                continue;
            }
            /* a catalog 0 may stand for "not given" (from the shape)
             * where the field says so */
            if ((ki->min != cols[j].min &&
                 !(cols[j].min == 0 && (ki->flags & PKF_ZERO_UNSET))) ||
                ki->max != cols[j].max)
                snprintf(diff + strlen(diff), sizeof(diff) - strlen(diff),
                         " %s [%g, %g] vs %s.%s [%g, %g];", ki->name, ki->min,
                         ki->max, catalog_kind_name(twins[t].kind),
                         cols[j].name, cols[j].min, cols[j].max);
        }
    }
    ck_assert_msg(paired >= 10, "only %zu plan keys paired with a column",
                  paired);
    ck_assert_msg(diff[0] == '\0', "bounds differ:%s", diff);
}
END_TEST

Suite *suite_plan(void)
{
    Suite *s = suite_create("plan");
    TCase *core = tcase_create("core");
    TCase *errors = tcase_create("errors");

    tcase_add_test(core, test_table_complete);
    tcase_add_test(core, test_options_sorted);
    tcase_add_test(core, test_good_values);
    tcase_add_test(core, test_ini_good_and_overrides);
    tcase_add_test(core, test_round_trip);
    tcase_add_test(core, test_format_number);
    tcase_add_test(core, test_bounds_agree);
    tcase_add_test(core, test_bounds_twins);
    tcase_add_loop_test(errors, test_bad_inputs, 0,
                        (int)(sizeof(bad) / sizeof(bad[0])));
    tcase_add_loop_test(errors, test_ini_errors, 0,
                        (int)(sizeof(bad_ini) / sizeof(bad_ini[0])));
    tcase_add_test(errors, test_random_ini);
    suite_add_tcase(s, core);
    suite_add_tcase(s, errors);
    return s;
}
