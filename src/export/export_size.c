/*
 * export_size.c - `llmplan size` as a table, JSON and CSV: the frontier
 * (best by the objective first), each point's low-high ranges, and why the
 * excluded options fell out.  See export.h.
 */
#include <assert.h>
#include <jansson.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "export/export.h"

/* "$950", "$15.2K", "$4.21M", "$1.30B". */
static const char *money(double v, char *buf, size_t n)
{
    if (v >= 1e9)
        snprintf(buf, n, "$%.2fB", v / 1e9);
    else if (v >= 1e6)
        snprintf(buf, n, "$%.2fM", v / 1e6);
    else if (v >= 1e3)
        snprintf(buf, n, "$%.1fK", v / 1e3);
    else
        snprintf(buf, n, "$%.0f", v);
    return buf;
}

/* "16x8": whole units (servers, racks, instances) of so many GPUs. */
static const char *units_text(const struct size_point *p, char *buf, size_t n)
{
    snprintf(buf, n, "%llux%llu", (unsigned long long)p->units,
             (unsigned long long)p->unit_gpus);
    return buf;
}

/* A rented option's capacity: the offer's, or "?" when it is not known
 * (then nothing says the provider can supply the fleet). */
static const char *capacity_text(const struct size_point *p, char *buf,
                                 size_t n)
{
    if (!p->rented && !p->hybrid)
        snprintf(buf, n, "-");
    else if (p->capacity_gpus > 0)
        snprintf(buf, n, "%llu", (unsigned long long)p->capacity_gpus);
    else
        snprintf(buf, n, "?");
    return buf;
}

static const char *buy_text(const struct size_point *p, char *buf, size_t n)
{
    char u[48];

    if (p->rented)
        snprintf(buf, n, "rent %s %s %s", units_text(p, u, sizeof(u)), p->offer,
                 term_name(p->term));
    else
        snprintf(buf, n, "own %s", units_text(p, u, sizeof(u)));
    return buf;
}

/* The budget an option breaks: the cash it commits, else its run cost. */
static void budget_text(const struct size_opts *o, double cash, double run,
                        const char *per, char *buf, size_t n)
{
    char a[32], b[32];

    if (o->budget_usd > 0 && cash > o->budget_usd)
        snprintf(buf, n, "cash %s (budget %s)", money(cash, a, sizeof(a)),
                 money(o->budget_usd, b, sizeof(b)));
    else
        snprintf(buf, n, "run cost %s%s (--budget-run %s%s)",
                 money(run, a, sizeof(a)), per,
                 money(o->budget_run_usd, b, sizeof(b)), per);
}

static const char *layout_text(const struct size_point *p, char *buf, size_t n)
{
    const struct layout *l = &p->layout;

    snprintf(buf, n, "tp%llu pp%llu dp%llu mb%llu v%llu z%d %s",
             (unsigned long long)l->tp, (unsigned long long)l->pp,
             (unsigned long long)l->dp, (unsigned long long)l->microbatch,
             (unsigned long long)l->interleave, l->zero,
             recompute_name(l->recompute));
    if (l->cp > 1 || l->ep > 1) {
        size_t u = strlen(buf);

        snprintf(buf + u, n - u, " cp%llu ep%llu", (unsigned long long)l->cp,
                 (unsigned long long)l->ep);
    }
    return buf;
}

/* The value that breaks the constraint, for the excluded summary. */
static void breach_text(const struct size_result *s, const struct size_point *p,
                        char *buf, size_t n)
{
    const struct size_opts *o = &s->opts;

    switch (p->why) {
    case SIZE_TOO_SLOW:
        snprintf(buf, n, "%.1f days (deadline %.4g)", p->days,
                 o->deadline_days);
        break;
    case SIZE_OVER_BUDGET:
        budget_text(o, p->cash, p->usd, "", buf, n);
        break;
    case SIZE_OVER_POWER:
        if (o->site_mw > 0 && p->facility_mw > o->site_mw)
            snprintf(buf, n, "%.2f MW (site %.4g MW)", p->facility_mw,
                     o->site_mw);
        else
            snprintf(buf, n, "%.1f kW a rack (limit %.4g kW)", p->rack_kw,
                     o->rack_kw);
        break;
    case SIZE_CAPACITY:
        snprintf(buf, n, "%llu GPUs (the offer supplies %llu)",
                 (unsigned long long)(p->units * p->unit_gpus),
                 (unsigned long long)p->capacity_gpus);
        break;
    case SIZE_NO_FIT:
        snprintf(buf, n, "no layout fits in memory");
        break;
    default:
        snprintf(buf, n, "meets every constraint");
        break;
    }
}

static int option_line(FILE *out, const struct size_point *p)
{
    char buy[128];

    return fprintf(out, "%s x %llu (%s) %s", p->accel,
                   (unsigned long long)p->gpus, p->system,
                   buy_text(p, buy, sizeof(buy)));
}

static enum cp_status serve_text(FILE *out, const struct size_result *s,
                                 struct diag *d);
static enum cp_status serve_json(FILE *out, const struct size_result *s,
                                 struct diag *d);

/* How the text tables name an option and say what it breaches: the
 * training and the serving flavours (breach_max: the breach text's cut). */
struct option_text {
    int (*line)(FILE *out, const struct size_point *p);
    void (*breach)(const struct size_result *s, const struct size_point *p,
                   char *buf, size_t n);
    size_t breach_max;
};

/* "nothing meets the constraints", with the nearest option and why. */
static void nearest_text(FILE *out, const struct size_result *s,
                         const struct option_text *ot)
{
    char buf[200];

    fprintf(out, "\nnothing meets the constraints");
    if (s->nearest >= 0) {
        const struct size_point *p = &s->pt[s->nearest];

        fprintf(out, "; closest: ");
        ot->line(out, p);
        ot->breach(s, p, buf, ot->breach_max);
        fprintf(out, ": %s, %s", size_why_name(p->why), buf);
    }
    fprintf(out, "\n");
}

/* The excluded options counted by reason, each with its closest miss, then
 * the dominated ones. */
static void excluded_text(FILE *out, const struct size_result *s,
                          const struct option_text *ot)
{
    char buf[200];
    size_t w;

    if (s->n > s->nfront)
        fprintf(out, "\nexcluded:\n");
    for (w = 1; w < SIZE_WHY_COUNT; w++) {
        const struct size_point *p;

        if (!s->why_count[w])
            continue;
        fprintf(out, "  %-26s %6zu", size_why_name((enum size_why)w),
                s->why_count[w]);
        if (s->closest[w] >= 0) {
            p = &s->pt[s->closest[w]];
            fprintf(out, "  closest: ");
            ot->line(out, p);
            ot->breach(s, p, buf, ot->breach_max);
            fprintf(out, ", %s", buf);
        }
        fprintf(out, "\n");
    }
    {
        size_t dominated = s->why_count[SIZE_OK] - s->nfront;

        if (dominated)
            fprintf(out, "  %-26s %6zu\n", "dominated", dominated);
    }
}

static const struct option_text train_option_text = {option_line, breach_text,
                                                     160};

/* The training frontier, best by the objective first, with its legend. */
static void train_frontier_text(FILE *out, const struct size_result *s)
{
    const struct size_opts *o = &s->opts;
    size_t i;
    char buf[160], lay[96], cash[32], cap[32];
    int bw = 4;

    fprintf(out,
            "\nfrontier (time x run cost x energy x cash), best %s "
            "first; ranges from the stack's measured error:\n",
            objective_name(o->obj));
    /* the buy column as wide as its longest entry */
    for (i = 0; i < s->nfront; i++) {
        size_t len = strlen(buy_text(&s->pt[s->front[i]], buf, sizeof(buf)));

        if ((int)len > bw)
            bw = (int)len;
    }
    fprintf(out, "%3s  %-10s %-15s %6s  %-*s %6s %11s %17s %9s %13s %5s  %s\n",
            "#", "accel", "system", "gpus", bw, "buy", "cap", "days",
            "run cost", "cash", "energy MWh", "MFU", "layout");
    for (i = 0; i < s->nfront; i++) {
        const struct size_point *p = &s->pt[s->front[i]];
        char days[32], usd[40], mwh[40];

        snprintf(days, sizeof(days), "%.1f-%.1f", p->days_lo, p->days_hi);
        if (p->usd_hi >= 1e6)
            snprintf(usd, sizeof(usd), "$%.2f-%.2fM", p->usd_lo / 1e6,
                     p->usd_hi / 1e6);
        else
            snprintf(usd, sizeof(usd), "$%.1f-%.1fK", p->usd_lo / 1e3,
                     p->usd_hi / 1e3);
        snprintf(mwh, sizeof(mwh), "%.0f-%.0f", p->mwh_lo, p->mwh_hi);
        fprintf(out,
                "%3zu  %-10s %-15s %6llu  %-*s %6s %11s %17s %9s %13s "
                "%5.3f  %s",
                i + 1, p->accel, p->system, (unsigned long long)p->gpus, bw,
                buy_text(p, buf, sizeof(buf)),
                capacity_text(p, cap, sizeof(cap)), days, usd,
                money(p->cash, cash, sizeof(cash)), mwh, p->mfu,
                layout_text(p, lay, sizeof(lay)));
        if (p->overlaps >= 0)
            fprintf(out, "  ~#%d", p->overlaps + 1);
        fprintf(out, "\n");
    }
    fprintf(out, "(buy: whole units x GPUs each, servers or racks owned, "
                 "instances rented; cap: the offer's capacity in GPUs, ? "
                 "not published; run cost: the run's share at the "
                 "planned utilization; cash: what it commits; ~#k: time "
                 "and cost ranges overlap point k's: the model cannot "
                 "tell them apart)\n");
}

enum cp_status export_text_size(FILE *out, const struct size_result *s,
                                struct diag *d)
{
    const struct size_opts *o = &s->opts;
    char buf[160];

    if (s->serve)
        return serve_text(out, s, d);
    fprintf(out, "objective: %s", objective_name(o->obj));
    if (o->deadline_days > 0)
        fprintf(out, "; deadline %.4g days", o->deadline_days);
    if (o->budget_usd > 0)
        fprintf(out, "; budget %s cash",
                money(o->budget_usd, buf, sizeof(buf)));
    if (o->budget_run_usd > 0)
        fprintf(out, "; run cost at most %s",
                money(o->budget_run_usd, buf, sizeof(buf)));
    if (o->site_mw > 0)
        fprintf(out, "; site %.4g MW", o->site_mw);
    if (o->rack_kw > 0)
        fprintf(out, "; racks %.4g kW", o->rack_kw);
    fprintf(out, "; up to %llu GPUs\n", (unsigned long long)o->gpus_max);
    fprintf(out,
            "searched %llu systems, %llu GPU counts (%llu ruled out by the "
            "ideal-time bound), %llu layout searches (%llu full), %zu "
            "options\n",
            (unsigned long long)s->systems, (unsigned long long)s->counts,
            (unsigned long long)s->skipped, (unsigned long long)s->searches,
            (unsigned long long)s->full_searches, s->n);
    if (s->systems_refused)
        fprintf(out, "note: %llu system%s left out: %s\n",
                (unsigned long long)s->systems_refused,
                s->systems_refused == 1 ? "" : "s", s->refused_why);
    if (!s->n) {
        fprintf(out, "\nno option to weigh: ");
        if (!s->counts)
            fprintf(out,
                    "--gpus-max %llu is below every system's node (or "
                    "rack)\n",
                    (unsigned long long)o->gpus_max);
        else if (s->no_price)
            fprintf(out,
                    "%llu GPU counts have a layout but no price (no "
                    "node price, no cloud offer in the catalog)\n",
                    (unsigned long long)s->no_price);
        else if (s->no_layout)
            fprintf(out,
                    "no valid layout at %llu GPU counts (the plan's "
                    "fixed parallel keys?)\n",
                    (unsigned long long)s->no_layout);
        else
            fprintf(out, "every count misses the deadline even at peak "
                         "FLOP/s\n");
    } else if (!s->nfront) {
        nearest_text(out, s, &train_option_text);
    } else {
        train_frontier_text(out, s);
    }
    excluded_text(out, s, &train_option_text);
    if (ferror(out))
        return diag_set(d, CP_ERR_IO, "output", "cannot write output");
    return CP_OK;
}

/* ---- JSON ---------------------------------------------------------------- */

static json_t *num(double x)
{
    return json_real(isfinite(x) ? x : 0);
}

/* A system on which no replica serves the plan: one replica stands for
 * it, bought no way. */
static bool no_fleet(const struct size_point *p)
{
    return p->why == SIZE_NO_FIT || p->why == SIZE_MISSES_TTFT ||
           p->why == SIZE_MISSES_TPOT;
}

static const char *serve_buy_kind(const struct size_point *p)
{
    return no_fleet(p) ? "" : p->hybrid ? "hybrid" : p->rented ? "rent" : "own";
}

/* GPUs owned: the fleet, a hybrid's base, none rented. */
static uint64_t owned_of(const struct size_point *p)
{
    return no_fleet(p) || p->rented ? 0 : p->hybrid ? p->owned_gpus : p->gpus;
}

/* ---- the option columns: CSV and JSON from one table -------------------- */

/* One cell of an option: a number, a count, a word, yes/no; none (an
 * empty CSV cell, JSON null) or absent (an empty CSV cell, no JSON key). */
enum cell_kind { CELL_NONE, CELL_ABSENT, CELL_NUM, CELL_COUNT, CELL_WORD,
                 CELL_FLAG };

struct cell {
    enum cell_kind kind;
    double num;
    uint64_t count;
    const char *word;
    bool flag;
};

/* An option as a row: the point and its frontier rank (0: none). */
struct opt_row {
    const struct size_point *p;
    size_t rank;
};

/* How a column reads its cell: a double, a uint64_t or a string (char
 * array) field of size_point at off; a uint64_t field of a disaggregated
 * pool (absent without pools) or of an aggregated replica (none for
 * pools, whose parallelism is each pool's own) at off; or get(). */
enum col_read { READ_NUM, READ_COUNT, READ_WORD, READ_POOL, READ_REPLICA,
                READ_GET };

/* A column: its CSV header (NULL: not in the CSV), its JSON key (NULL:
 * not in JSON; "layout.tp" nests) and how its cell is read. */
struct size_col {
    const char *csv;
    const char *json;
    enum col_read read;
    size_t off;
    void (*get)(const struct opt_row *o, struct cell *c);
};

#define PT_OFF(f) offsetof(struct size_point, f)
#define COL_NUM(csv, json, f) {csv, json, READ_NUM, PT_OFF(f), NULL}
#define COL_COUNT(csv, json, f) {csv, json, READ_COUNT, PT_OFF(f), NULL}
#define COL_WORD(csv, json, f) {csv, json, READ_WORD, PT_OFF(f), NULL}
#define COL_POOL(csv, json, f) {csv, json, READ_POOL, PT_OFF(f), NULL}
#define COL_REPLICA(csv, json, f) {csv, json, READ_REPLICA, PT_OFF(f), NULL}
#define COL_GET(csv, json, fn) {csv, json, READ_GET, 0, fn}

static void set_word(struct cell *c, const char *w)
{
    c->kind = CELL_WORD;
    c->word = w;
}

static void set_count(struct cell *c, uint64_t v)
{
    c->kind = CELL_COUNT;
    c->count = v;
}

static void set_flag(struct cell *c, bool v)
{
    c->kind = CELL_FLAG;
    c->flag = v;
}

/* Disaggregated pools, each with its own parallelism. */
static bool pooled(const struct size_point *p)
{
    return p->prefill.ep > 0;
}

static void cell_of(const struct size_col *col, const struct opt_row *o,
                    struct cell *c)
{
    memset(c, 0, sizeof(*c));
    c->kind = CELL_NONE;
    switch (col->read) {
    case READ_NUM:
        memcpy(&c->num, (const char *)o->p + col->off, sizeof(c->num));
        c->kind = CELL_NUM;
        break;
    case READ_WORD:
        set_word(c, (const char *)o->p + col->off);
        break;
    case READ_POOL:
    case READ_REPLICA:
        if (pooled(o->p) != (col->read == READ_POOL)) {
            c->kind = col->read == READ_POOL ? CELL_ABSENT : CELL_NONE;
            break;
        }
        /* fall through */
    case READ_COUNT:
        memcpy(&c->count, (const char *)o->p + col->off, sizeof(c->count));
        c->kind = CELL_COUNT;
        break;
    default:
        col->get(o, c);
        break;
    }
}

/* Offered by a provider: rented, or a hybrid's burst. */
static bool offered(const struct size_point *p)
{
    return p->rented || p->hybrid;
}

static void get_rank(const struct opt_row *o, struct cell *c)
{
    if (o->rank)
        set_count(c, o->rank);
}

/* CSV: where the option stands (frontier, dominated or why it is out). */
static void get_standing(const struct opt_row *o, struct cell *c)
{
    const struct size_point *p = o->p;

    set_word(c, p->why == SIZE_OK ? (p->frontier ? "frontier" : "dominated")
                                  : size_why_name(p->why));
}

/* JSON: the constraint it breaks ("ok" when none). */
static void get_status(const struct opt_row *o, struct cell *c)
{
    set_word(c, size_why_name(o->p->why));
}

static void get_buy(const struct opt_row *o, struct cell *c)
{
    set_word(c, o->p->rented ? "rent" : "own");
}

static void get_offer(const struct opt_row *o, struct cell *c)
{
    if (offered(o->p))
        set_word(c, o->p->offer);
}

static void get_term(const struct opt_row *o, struct cell *c)
{
    if (offered(o->p))
        set_word(c, term_name(o->p->term));
}

/* The offer's capacity in GPUs: none when owned or not published. */
static void get_capacity(const struct opt_row *o, struct cell *c)
{
    if (offered(o->p) && o->p->capacity_gpus)
        set_count(c, o->p->capacity_gpus);
}

static void get_capacity_known(const struct opt_row *o, struct cell *c)
{
    if (offered(o->p))
        set_flag(c, o->p->capacity_gpus > 0);
}

static void get_zero(const struct opt_row *o, struct cell *c)
{
    set_count(c, (uint64_t)(o->p->layout.zero > 0 ? o->p->layout.zero : 0));
}

static void get_recompute(const struct opt_row *o, struct cell *c)
{
    set_word(c, recompute_name(o->p->layout.recompute));
}

static void get_sp(const struct opt_row *o, struct cell *c)
{
    set_flag(c, o->p->layout.sequence_parallel);
}

static void get_full(const struct opt_row *o, struct cell *c)
{
    set_flag(c, o->p->full);
}

/* A training option, in CSV column order. */
static const struct size_col train_cols[] = {
    COL_GET("rank", NULL, get_rank),
    COL_GET("status", NULL, get_standing),
    COL_WORD("accelerator", "accelerator", accel),
    COL_WORD("system", "system", system),
    COL_WORD("stack", "stack", stack),
    COL_COUNT("gpus", "gpus", gpus),
    COL_GET("buy", "buy", get_buy),
    COL_GET("offer", "offer", get_offer),
    COL_GET("term", "term", get_term),
    COL_NUM("days", "days", days),
    COL_NUM("days_low", "days_low", days_lo),
    COL_NUM("days_high", "days_high", days_hi),
    COL_NUM("cost_usd", "cost_usd", usd),
    COL_NUM("cost_usd_low", "cost_usd_low", usd_lo),
    COL_NUM("cost_usd_high", "cost_usd_high", usd_hi),
    COL_NUM("energy_mwh", "energy_mwh", mwh),
    COL_NUM("energy_mwh_low", "energy_mwh_low", mwh_lo),
    COL_NUM("energy_mwh_high", "energy_mwh_high", mwh_hi),
    COL_NUM("facility_mw", "facility_mw", facility_mw),
    COL_NUM("rack_kw", "rack_kw", rack_kw),
    COL_NUM("mfu", "mfu", mfu),
    COL_COUNT("tp", "layout.tp", layout.tp),
    COL_COUNT("pp", "layout.pp", layout.pp),
    COL_COUNT("dp", "layout.dp", layout.dp),
    COL_COUNT("cp", "layout.cp", layout.cp),
    COL_COUNT("ep", "layout.ep", layout.ep),
    COL_COUNT("microbatch", "layout.microbatch", layout.microbatch),
    COL_COUNT("interleave", "layout.interleave", layout.interleave),
    COL_GET("zero", "layout.zero", get_zero),
    COL_GET("recompute", "layout.recompute", get_recompute),
    COL_GET("sequence_parallel", "layout.sequence_parallel", get_sp),
    COL_GET("full_search", "layout.full_search", get_full),
    COL_NUM("cash_usd", "cash_usd", cash),
    COL_COUNT("units", "units", units),
    COL_COUNT("unit_gpus", "unit_gpus", unit_gpus),
    COL_GET("capacity_gpus", "capacity_gpus", get_capacity),
    COL_GET("capacity_known", "capacity_known", get_capacity_known),
    COL_NUM(NULL, "relative_error", err),
    COL_GET(NULL, "status", get_status),
};

/* The JSON key order of a training option (README, size). */
static const char *const train_json[] = {
    "accelerator", "system", "stack", "gpus", "buy", "offer", "term", "units",
    "unit_gpus", "capacity_gpus", "capacity_known", "days", "days_low",
    "days_high", "cost_usd", "cost_usd_low", "cost_usd_high", "cash_usd",
    "energy_mwh", "energy_mwh_low", "energy_mwh_high", "relative_error",
    "facility_mw", "rack_kw", "mfu", "layout.tp", "layout.pp", "layout.dp",
    "layout.cp", "layout.ep", "layout.microbatch", "layout.interleave",
    "layout.zero", "layout.recompute", "layout.sequence_parallel",
    "layout.full_search", "status"};

/* One table and its JSON order. */
struct size_cols {
    const struct size_col *col;
    size_t n;
    const char *const *json;
    size_t njson;
};

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

static const struct size_cols train_table = {train_cols, NELEM(train_cols),
                                             train_json, NELEM(train_json)};

/* One CSV cell: plain decimals (export_plain_number: no e-notation, like
 * the quote CSV), counts, words, yes/no; empty when none or absent. */
static void csv_cell(FILE *out, const struct cell *c)
{
    char buf[400];

    switch (c->kind) {
    case CELL_NUM:
        fputs(export_plain_number(c->num, buf, sizeof(buf)), out);
        break;
    case CELL_COUNT:
        fprintf(out, "%llu", (unsigned long long)c->count);
        break;
    case CELL_WORD:
        fputs(c->word ? c->word : "", out);
        break;
    case CELL_FLAG:
        fputs(c->flag ? "yes" : "no", out);
        break;
    default:
        break;
    }
}

static void csv_header(FILE *out, const struct size_cols *t)
{
    size_t j;
    bool first = true;

    for (j = 0; j < t->n; j++) {
        if (!t->col[j].csv)
            continue;
        fprintf(out, "%s%s", first ? "" : ",", t->col[j].csv);
        first = false;
    }
    fputc('\n', out);
}

static void csv_line(FILE *out, const struct size_cols *t,
                     const struct size_point *p, size_t rank)
{
    struct opt_row o = {p, rank};
    struct cell c;
    size_t j;
    bool first = true;

    for (j = 0; j < t->n; j++) {
        if (!t->col[j].csv)
            continue;
        if (!first)
            fputc(',', out);
        first = false;
        cell_of(&t->col[j], &o, &c);
        csv_cell(out, &c);
    }
    fputc('\n', out);
}

/* One row per option: the frontier first (rank 1..), then the rest in
 * evaluation order with an empty rank and their status. */
static enum cp_status csv_size(FILE *out, const struct size_result *s,
                               const struct size_cols *t, struct diag *d)
{
    size_t i;

    csv_header(out, t);
    for (i = 0; i < s->nfront; i++)
        csv_line(out, t, &s->pt[s->front[i]], i + 1);
    for (i = 0; i < s->n; i++)
        if (!s->pt[i].frontier)
            csv_line(out, t, &s->pt[i], 0);
    if (ferror(out))
        return diag_set(d, CP_ERR_IO, "output", "cannot write output");
    return CP_OK;
}

static json_t *json_cell(const struct cell *c)
{
    switch (c->kind) {
    case CELL_NUM:
        return num(c->num);
    case CELL_COUNT:
        return json_integer((json_int_t)c->count);
    case CELL_WORD:
        return c->word ? json_string(c->word) : json_null();
    case CELL_FLAG:
        return json_boolean(c->flag);
    default:
        return json_null();
    }
}

/* Set key (dotted: nested objects, made on first use) in o. */
static void json_set_path(json_t *o, const char *key, json_t *v)
{
    const char *dot;

    while ((dot = strchr(key, '.')) != NULL) {
        char part[32];
        json_t *sub;

        snprintf(part, sizeof(part), "%.*s", (int)(dot - key), key);
        sub = json_object_get(o, part);
        if (!sub) {
            sub = json_object();
            json_object_set_new(o, part, sub);
        }
        o = sub;
        key = dot + 1;
    }
    json_object_set_new(o, key, v);
}

/* One option as a JSON object, its keys in the table's JSON order. */
static json_t *point_json_of(const struct size_point *p,
                             const struct size_cols *t)
{
    struct opt_row row = {p, 0};
    json_t *o = json_object();
    struct cell c;
    size_t k, j;

    if (!o)
        return NULL;
    for (k = 0; k < t->njson; k++) {
        for (j = 0; j < t->n; j++)
            if (t->col[j].json && !strcmp(t->col[j].json, t->json[k]))
                break;
        assert(j < t->n); /* every JSON key has its column */
        if (j == t->n)
            continue;
        cell_of(&t->col[j], &row, &c);
        if (c.kind != CELL_ABSENT)
            json_set_path(o, t->json[k], json_cell(&c));
    }
    return o;
}

static json_t *point_json(const struct size_point *p)
{
    return point_json_of(p, &train_table);
}

/* ---- a serving option's columns ------------------------------------------ */

static void get_serve_buy(const struct opt_row *o, struct cell *c)
{
    if (!no_fleet(o->p))
        set_word(c, serve_buy_kind(o->p));
}

static void get_owned(const struct opt_row *o, struct cell *c)
{
    set_count(c, owned_of(o->p));
}

static void get_max_batch(const struct opt_row *o, struct cell *c)
{
    if (o->p->max_batch)
        set_count(c, o->p->max_batch);
    else
        set_word(c, "auto");
}

/* A serving fleet, in CSV column order (the columns after
 * capacity_known came later: a CSV only grows at its end). */
static const struct size_col serve_cols[] = {
    COL_GET("rank", NULL, get_rank),
    COL_GET("status", NULL, get_standing),
    COL_WORD("accelerator", "accelerator", accel),
    COL_WORD("system", "system", system),
    COL_WORD("stack", "stack", stack),
    COL_COUNT("gpus", "gpus", gpus),
    COL_GET("buy", "buy", get_serve_buy),
    COL_GET("offer", "offer", get_offer),
    COL_GET("term", "term", get_term),
    COL_GET("owned_gpus", "owned_gpus", get_owned),
    COL_NUM("usd_per_day", "usd_per_day", usd_day),
    COL_NUM("usd_per_day_low", "usd_per_day_low", usd_day_lo),
    COL_NUM("usd_per_day_high", "usd_per_day_high", usd_day_hi),
    COL_NUM("usd_per_mtok", "usd_per_mtok", usd_mtok),
    COL_NUM("wh_per_mtok", "wh_per_mtok", wh_mtok),
    COL_NUM("wh_per_mtok_low", "wh_per_mtok_low", wh_mtok_lo),
    COL_NUM("wh_per_mtok_high", "wh_per_mtok_high", wh_mtok_hi),
    COL_NUM("ttft_ms", "ttft_ms", ttft_ms),
    COL_NUM("tpot_ms", "tpot_ms", tpot_ms),
    COL_NUM("e2e_s", "e2e_s", e2e_s),
    COL_NUM("replicas", "replicas", replicas),
    COL_NUM("utilization", "utilization", utilization),
    COL_NUM("facility_mw", "facility_mw", facility_mw),
    COL_NUM("rack_kw", "rack_kw", rack_kw),
    COL_REPLICA("tp", "replica.tp", layout.tp),
    COL_REPLICA("pp", "replica.pp", layout.pp),
    COL_GET("max_batch", "replica.max_batch", get_max_batch),
    COL_NUM("cash_usd", "cash_usd", cash),
    COL_COUNT("units", "units", units),
    COL_COUNT("unit_gpus", "unit_gpus", unit_gpus),
    COL_GET("capacity_gpus", "capacity_gpus", get_capacity),
    COL_GET("capacity_known", "capacity_known", get_capacity_known),
    COL_REPLICA("ep", "replica.ep", layout.ep),
    COL_POOL("prefill_gpus", "replica.prefill.gpus", prefill.gpus),
    COL_POOL("prefill_tp", "replica.prefill.tp", prefill.tp),
    COL_POOL("prefill_ep", "replica.prefill.ep", prefill.ep),
    COL_POOL("prefill_attention_dp", "replica.prefill.attention_dp",
             prefill.attention_dp),
    COL_POOL("decode_gpus", "replica.decode.gpus", decode.gpus),
    COL_POOL("decode_tp", "replica.decode.tp", decode.tp),
    COL_POOL("decode_ep", "replica.decode.ep", decode.ep),
    COL_POOL("decode_attention_dp", "replica.decode.attention_dp",
             decode.attention_dp),
    COL_COUNT("fleet_gpus", "fleet_gpus", fleet_gpus),
    COL_NUM(NULL, "relative_error", err),
    COL_GET(NULL, "status", get_status),
};

/* The JSON key order of a serving option (README, size). */
static const char *const serve_json_keys[] = {
    "accelerator", "system", "stack", "gpus", "fleet_gpus", "buy", "offer",
    "term", "owned_gpus", "units", "unit_gpus", "capacity_gpus", "capacity_known",
    "usd_per_day", "cash_usd", "usd_per_day_low", "usd_per_day_high",
    "usd_per_mtok", "wh_per_mtok", "wh_per_mtok_low", "wh_per_mtok_high",
    "ttft_ms", "tpot_ms", "e2e_s", "replicas", "utilization",
    "relative_error", "facility_mw", "rack_kw", "replica.tp", "replica.pp",
    "replica.ep", "replica.max_batch", "replica.prefill.gpus",
    "replica.prefill.tp", "replica.prefill.ep", "replica.prefill.attention_dp",
    "replica.decode.gpus", "replica.decode.tp", "replica.decode.ep",
    "replica.decode.attention_dp", "status"};

static const struct size_cols serve_table = {serve_cols, NELEM(serve_cols),
                                             serve_json_keys,
                                             NELEM(serve_json_keys)};

static json_t *serve_point_json(const struct size_point *p)
{
    return point_json_of(p, &serve_table);
}

/* The end both JSON documents share: the frontier, the exclusions with
 * their closest option, the nearest option; then written out.  `enc`
 * encodes one option (training or serving); root owns front and ex. */
static enum cp_status json_finish(FILE *out, const struct size_result *s,
                                  json_t *root, json_t *front, json_t *ex,
                                  json_t *(*enc)(const struct size_point *),
                                  struct diag *d)
{
    size_t i, w;
    int rc;

    for (i = 0; i < s->nfront; i++) {
        json_t *p = enc(&s->pt[s->front[i]]);

        if (p && s->pt[s->front[i]].overlaps >= 0)
            json_object_set_new(p, "overlaps",
                                json_integer(s->pt[s->front[i]].overlaps + 1));
        json_array_append_new(front, p);
    }
    json_object_set_new(root, "frontier", front);
    for (w = 1; w < SIZE_WHY_COUNT; w++) {
        json_t *e = json_object();

        if (!s->why_count[w] || !e) {
            json_decref(e);
            continue;
        }
        json_object_set_new(e, "reason",
                            json_string(size_why_name((enum size_why)w)));
        json_object_set_new(e, "options",
                            json_integer((json_int_t)s->why_count[w]));
        json_object_set_new(e, "closest",
                            s->closest[w] >= 0 ? enc(&s->pt[s->closest[w]])
                                               : json_null());
        json_array_append_new(ex, e);
    }
    json_object_set_new(root, "excluded", ex);
    json_object_set_new(root, "nearest",
                        s->nearest >= 0 ? enc(&s->pt[s->nearest])
                                        : json_null());
    rc = json_dumpf(root, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    json_decref(root);
    if (rc != 0 || fputc('\n', out) == EOF)
        return diag_set(d, CP_ERR_IO, "json", "cannot write output");
    return CP_OK;
}

enum cp_status export_json_size(FILE *out, const struct size_result *s,
                                struct diag *d)
{
    json_t *root = json_object(), *search = json_object(),
           *front = json_array(), *ex = json_array(), *c = json_object();

    if (s->serve) {
        json_decref(root);
        json_decref(search);
        json_decref(front);
        json_decref(ex);
        json_decref(c);
        return serve_json(out, s, d);
    }
    if (!root || !search || !front || !ex || !c) {
        json_decref(root);
        json_decref(search);
        json_decref(front);
        json_decref(ex);
        json_decref(c);
        return diag_set(d, CP_ERR_NOMEM, "json", "out of memory");
    }
    json_object_set_new(c, "objective",
                        json_string(objective_name(s->opts.obj)));
    json_object_set_new(c, "deadline_days", num(s->opts.deadline_days));
    json_object_set_new(c, "budget_usd", num(s->opts.budget_usd));
    json_object_set_new(c, "budget_run_usd", num(s->opts.budget_run_usd));
    json_object_set_new(c, "site_mw", num(s->opts.site_mw));
    json_object_set_new(c, "rack_kw", num(s->opts.rack_kw));
    json_object_set_new(c, "gpus_max",
                        json_integer((json_int_t)s->opts.gpus_max));
    json_object_set_new(root, "constraints", c);
    json_object_set_new(search, "systems",
                        json_integer((json_int_t)s->systems));
    json_object_set_new(search, "gpu_counts",
                        json_integer((json_int_t)s->counts));
    json_object_set_new(search, "skipped_by_bound",
                        json_integer((json_int_t)s->skipped));
    json_object_set_new(search, "layout_searches",
                        json_integer((json_int_t)s->searches));
    json_object_set_new(search, "full_searches",
                        json_integer((json_int_t)s->full_searches));
    json_object_set_new(search, "options", json_integer((json_int_t)s->n));
    json_object_set_new(search, "counts_without_layout",
                        json_integer((json_int_t)s->no_layout));
    json_object_set_new(search, "counts_without_price",
                        json_integer((json_int_t)s->no_price));
    json_object_set_new(search, "elapsed_s", num(s->elapsed_s));
    json_object_set_new(search, "systems_refused",
                        json_integer((json_int_t)s->systems_refused));
    json_object_set_new(search, "systems_refused_reason",
                        s->systems_refused ? json_string(s->refused_why)
                                           : json_null());
    json_object_set_new(search, "stopped_early",
                        json_boolean(s->stopped_early));
    json_object_set_new(root, "search", search);
    return json_finish(out, s, root, front, ex, point_json, d);
}

/* ---- CSV ----------------------------------------------------------------- */

/* One row per option (csv_size): the training or the serving columns. */
enum cp_status export_csv_size(FILE *out, const struct size_result *s,
                               struct diag *d)
{
    return csv_size(out, s, s->serve ? &serve_table : &train_table, d);
}

/* ---- serving fleets (size_result.serve) ---------------------------------- */

static const char *serve_buy(const struct size_point *p, char *buf, size_t n)
{
    char u[48];

    if (no_fleet(p))
        snprintf(buf, n, "one replica");
    else if (p->hybrid)
        snprintf(buf, n, "own %s + burst %s %s", units_text(p, u, sizeof(u)),
                 p->offer, term_name(p->term));
    else if (p->rented)
        snprintf(buf, n, "rent %s %s %s", units_text(p, u, sizeof(u)), p->offer,
                 term_name(p->term));
    else
        snprintf(buf, n, "own %s", units_text(p, u, sizeof(u)));
    return buf;
}

/* A disaggregated pool: "tp1 ep16 adp16 x64" (adp: attention data
 * parallel ranks; x: its GPUs). */
static const char *pool_text(const struct serve_pool_spec *ps, char *buf,
                             size_t n)
{
    snprintf(buf, n, "tp%llu ep%llu adp%llu x%llu",
             (unsigned long long)ps->tp, (unsigned long long)ps->ep,
             (unsigned long long)ps->attention_dp,
             (unsigned long long)ps->gpus);
    return buf;
}

static const char *replica_text(const struct size_point *p, char *buf, size_t n)
{
    char b[24];

    if (p->max_batch)
        snprintf(b, sizeof(b), "%llu", (unsigned long long)p->max_batch);
    if (pooled(p)) {
        char a[64], c[64];

        snprintf(buf, n, "prefill %s, decode %s",
                 pool_text(&p->prefill, a, sizeof(a)),
                 pool_text(&p->decode, c, sizeof(c)));
        return buf;
    }
    snprintf(buf, n, "tp%llu pp%llu x%.0f batch %s",
             (unsigned long long)p->layout.tp, (unsigned long long)p->layout.pp,
             p->replicas, p->max_batch ? b : "auto");
    return buf;
}

static int serve_option_line(FILE *out, const struct size_point *p)
{
    char buy[128];

    return fprintf(out, "%s x %llu (%s) %s", p->accel,
                   (unsigned long long)p->gpus, p->system,
                   serve_buy(p, buy, sizeof(buy)));
}

static void serve_breach(const struct size_result *s,
                         const struct size_point *p, char *buf, size_t n)
{
    const struct size_opts *o = &s->opts;

    switch (p->why) {
    case SIZE_OVER_BUDGET:
        budget_text(o, p->cash, p->usd_day, " a day", buf, n);
        break;
    case SIZE_MISSES_TTFT:
        snprintf(buf, n,
                 "one prompt alone takes %.0f ms to its first token on "
                 "tp%llu pp%llu (serve.ttft_ms %.4g)",
                 p->ttft_ms, (unsigned long long)p->layout.tp,
                 (unsigned long long)p->layout.pp, s->ttft_ms);
        break;
    case SIZE_MISSES_TPOT:
        snprintf(buf, n,
                 "one request alone takes %.1f ms per output token on "
                 "tp%llu pp%llu (serve.tpot_ms %.4g)",
                 p->tpot_ms, (unsigned long long)p->layout.tp,
                 (unsigned long long)p->layout.pp, s->tpot_ms);
        break;
    case SIZE_OVER_GPUS:
        snprintf(buf, n, "%llu GPUs for the peak (--gpus-max %llu)",
                 (unsigned long long)p->gpus, (unsigned long long)o->gpus_max);
        break;
    case SIZE_NO_FIT:
        snprintf(buf, n,
                 "the weights and one request's KV cache do not fit in "
                 "memory");
        break;
    case SIZE_CAPACITY:
        snprintf(buf, n, "%llu GPUs at the peak (the offer supplies %llu)",
                 (unsigned long long)(p->hybrid ? p->gpus - p->owned_gpus
                                                : p->units * p->unit_gpus),
                 (unsigned long long)p->capacity_gpus);
        break;
    default:
        breach_text(s, p, buf, n);
        break;
    }
}

/* What a serving search weighed: demand, targets, objective, limits and
 * how much was searched. */
static void serve_text_header(FILE *out, const struct size_result *s)
{
    const struct size_opts *o = &s->opts;
    char buf[200];

    if (s->demand_rps > 0 || !s->concurrency)
        fprintf(out, "serving: peak %.4g requests/s", s->demand_rps);
    else
        fprintf(out, "serving: %llu concurrent users",
                (unsigned long long)s->concurrency);
    if (s->ttft_ms > 0 || s->tpot_ms > 0) {
        fprintf(out, ", ");
        if (s->ttft_ms > 0)
            fprintf(out, "TTFT <= %.4g ms", s->ttft_ms);
        if (s->ttft_ms > 0 && s->tpot_ms > 0)
            fprintf(out, " and ");
        if (s->tpot_ms > 0)
            fprintf(out, "TPOT <= %.4g ms", s->tpot_ms);
        fprintf(out, " at %s", serve_pct_name(s->percentile));
    } else {
        fprintf(out, ", no latency target");
    }
    fprintf(out, "; peak/average %.4g\n", s->peak_to_avg);
    fprintf(out, "objective: %s",
            o->obj == OBJECTIVE_COST     ? "cost (USD a day)"
            : o->obj == OBJECTIVE_CASH   ? "cash committed"
            : o->obj == OBJECTIVE_ENERGY ? "energy (Wh per M output tokens)"
                                         : "time (latency of a request)");
    if (o->budget_usd > 0)
        fprintf(out, "; budget %s cash",
                money(o->budget_usd, buf, sizeof(buf)));
    if (o->budget_run_usd > 0)
        fprintf(out, "; run cost at most %s a day",
                money(o->budget_run_usd, buf, sizeof(buf)));
    if (o->site_mw > 0)
        fprintf(out, "; site %.4g MW", o->site_mw);
    if (o->rack_kw > 0)
        fprintf(out, "; racks %.4g kW", o->rack_kw);
    fprintf(out, "; up to %llu GPUs\n", (unsigned long long)o->gpus_max);
    fprintf(out,
            "searched %llu system%s, %llu serving layouts (tp x pp x batch "
            "cap) that meet the targets, %zu options (own, rent, hybrid)\n",
            (unsigned long long)s->systems, s->systems == 1 ? "" : "s",
            (unsigned long long)s->layouts, s->n);
    if (s->systems_refused)
        fprintf(out, "note: %llu system%s left out: %s\n",
                (unsigned long long)s->systems_refused,
                s->systems_refused == 1 ? "" : "s", s->refused_why);
    if (s->layouts_cut)
        fprintf(out,
                "warning: on %llu system%s more replicas meet the targets "
                "than the search keeps; the %d cheapest were priced (fix "
                "parallel.tp or serve.max_batch to see the others)\n",
                (unsigned long long)s->layouts_cut,
                s->layouts_cut == 1 ? "" : "s", SEARCH_TOP_MAX);
}

/* The serving frontier, best by the objective first, with its legend;
 * the buy and range columns as wide as their longest entry. */
static void serve_frontier_text(FILE *out, const struct size_result *s)
{
    const struct size_opts *o = &s->opts;
    size_t i;
    char buf[200], rep[160];
    int bw = 4, uw = 7, ww = 7;

    fprintf(out,
            "\nfrontier (cost a day x energy per M output tokens x "
            "latency at the peak x cash), best %s first;\ncost and "
            "energy ranges from the engine's held-out throughput "
            "error:\n",
            o->obj == OBJECTIVE_TIME ? "latency" : objective_name(o->obj));
    /* the buy column as wide as its longest entry */
    for (i = 0; i < s->nfront; i++) {
        size_t len = strlen(serve_buy(&s->pt[s->front[i]], buf, sizeof(buf)));

        if ((int)len > bw)
            bw = (int)len;
    }
    /* and the ranges as wide as theirs: a number is never cut */
    for (i = 0; i < s->nfront; i++) {
        const struct size_point *p = &s->pt[s->front[i]];
        char a[24], b[24];
        int len = snprintf(buf, sizeof(buf), "%s-%s",
                           money(p->usd_day_lo, a, sizeof(a)),
                           money(p->usd_day_hi, b, sizeof(b)));

        uw = len > uw ? len : uw;
        len = snprintf(buf, sizeof(buf), "%.0f-%.0f", p->wh_mtok_lo,
                       p->wh_mtok_hi);
        ww = len > ww ? len : ww;
    }
    fprintf(out,
            "%3s  %-10s %-15s %6s  %-*s %6s %*s %9s %8s %*s %7s %7s "
            "%6s  %s\n",
            "#", "accel", "system", "gpus", bw, "buy", "cap", uw, "USD/day",
            "cash", "$/Mtok", ww, "Wh/Mtok", "TTFT ms", "TPOT ms", "e2e s",
            "replicas");
    for (i = 0; i < s->nfront; i++) {
        const struct size_point *p = &s->pt[s->front[i]];
        char usd[48], a[24], b[24], wh[40], cash[24], cap[24];

        snprintf(usd, sizeof(usd), "%s-%s", money(p->usd_day_lo, a, sizeof(a)),
                 money(p->usd_day_hi, b, sizeof(b)));
        snprintf(wh, sizeof(wh), "%.0f-%.0f", p->wh_mtok_lo, p->wh_mtok_hi);
        fprintf(out,
                "%3zu  %-10s %-15s %6llu  %-*s %6s %*s %9s %8.3f %*s "
                "%7.0f %7.1f %6.1f  %s",
                i + 1, p->accel, p->system, (unsigned long long)p->gpus, bw,
                serve_buy(p, buf, sizeof(buf)),
                capacity_text(p, cap, sizeof(cap)), uw, usd,
                money(p->cash, cash, sizeof(cash)), p->usd_mtok, ww, wh,
                p->ttft_ms, p->tpot_ms, p->e2e_s,
                replica_text(p, rep, sizeof(rep)));
        if (p->overlaps >= 0)
            fprintf(out, "  ~#%d", p->overlaps + 1);
        fprintf(out, "\n");
    }
    fprintf(out, "(buy: whole units x GPUs each; cap: the offer's "
                 "capacity in GPUs, ? not published; cash: owned, the "
                 "capex; reserved, a term; on demand, a day's bill; "
                 "TTFT and TPOT at the targets' statistic, TTFT with "
                 "queueing; TPOT: per output token after the first; "
                 "e2e: one request; ~#k: cost and energy ranges overlap "
                 "point k's)\n");
}

static const struct option_text serve_option_text = {serve_option_line,
                                                     serve_breach, 200};

static enum cp_status serve_text(FILE *out, const struct size_result *s,
                                 struct diag *d)
{
    serve_text_header(out, s);
    if (!s->n) {
        fprintf(out, "\nno option to weigh: ");
        if (s->no_price)
            fprintf(out,
                    "%llu systems serve the plan but have no price (no "
                    "node price, no cloud offer in the catalog)\n",
                    (unsigned long long)s->no_price);
        else
            fprintf(out,
                    "no serving replica is valid on %llu system%s (the "
                    "plan's fixed parallel keys?)\n",
                    (unsigned long long)s->no_layout,
                    s->no_layout == 1 ? "" : "s");
    } else if (!s->nfront) {
        nearest_text(out, s, &serve_option_text);
    } else {
        serve_frontier_text(out, s);
    }
    excluded_text(out, s, &serve_option_text);
    if (ferror(out))
        return diag_set(d, CP_ERR_IO, "output", "cannot write output");
    return CP_OK;
}

static enum cp_status serve_json(FILE *out, const struct size_result *s,
                                 struct diag *d)
{
    json_t *root = json_object(), *search = json_object(),
           *front = json_array(), *ex = json_array(), *c = json_object(),
           *sv = json_object();

    if (!root || !search || !front || !ex || !c || !sv) {
        json_decref(root);
        json_decref(search);
        json_decref(front);
        json_decref(ex);
        json_decref(c);
        json_decref(sv);
        return diag_set(d, CP_ERR_NOMEM, "json", "out of memory");
    }
    json_object_set_new(root, "workload", json_string("serve"));
    json_object_set_new(sv, "demand_requests_per_s", num(s->demand_rps));
    json_object_set_new(sv, "concurrency",
                        json_integer((json_int_t)s->concurrency));
    json_object_set_new(sv, "ttft_ms", num(s->ttft_ms));
    json_object_set_new(sv, "tpot_ms", num(s->tpot_ms));
    json_object_set_new(sv, "percentile",
                        json_string(serve_pct_name(s->percentile)));
    json_object_set_new(sv, "peak_to_avg", num(s->peak_to_avg));
    json_object_set_new(root, "serving", sv);
    json_object_set_new(c, "objective",
                        json_string(objective_name(s->opts.obj)));
    json_object_set_new(c, "budget_usd", num(s->opts.budget_usd));
    json_object_set_new(c, "budget_run_usd_per_day",
                        num(s->opts.budget_run_usd));
    json_object_set_new(c, "site_mw", num(s->opts.site_mw));
    json_object_set_new(c, "rack_kw", num(s->opts.rack_kw));
    json_object_set_new(c, "gpus_max",
                        json_integer((json_int_t)s->opts.gpus_max));
    json_object_set_new(root, "constraints", c);
    json_object_set_new(search, "systems",
                        json_integer((json_int_t)s->systems));
    json_object_set_new(search, "layouts",
                        json_integer((json_int_t)s->layouts));
    json_object_set_new(search, "options", json_integer((json_int_t)s->n));
    json_object_set_new(search, "systems_without_layout",
                        json_integer((json_int_t)s->no_layout));
    json_object_set_new(search, "systems_without_price",
                        json_integer((json_int_t)s->no_price));
    json_object_set_new(search, "systems_with_replicas_cut",
                        json_integer((json_int_t)s->layouts_cut));
    json_object_set_new(search, "elapsed_s", num(s->elapsed_s));
    json_object_set_new(search, "systems_refused",
                        json_integer((json_int_t)s->systems_refused));
    json_object_set_new(search, "systems_refused_reason",
                        s->systems_refused ? json_string(s->refused_why)
                                           : json_null());
    json_object_set_new(search, "stopped_early",
                        json_boolean(s->stopped_early));
    json_object_set_new(root, "search", search);
    return json_finish(out, s, root, front, ex, serve_point_json, d);
}
