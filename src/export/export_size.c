/*
 * export_size.c - `llmplan size` as a table, JSON and CSV: the frontier
 * (best by the objective first), each point's low-high ranges, and why the
 * excluded options fell out.  See export.h.
 */
#include <jansson.h>
#include <math.h>
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
static enum cp_status serve_csv(FILE *out, const struct size_result *s,
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

/* Whole units and the offer's capacity (null when not published). */
static void units_json(json_t *o, const struct size_point *p)
{
    bool rent = p->rented || p->hybrid;

    json_object_set_new(o, "units", json_integer((json_int_t)p->units));
    json_object_set_new(o, "unit_gpus", json_integer((json_int_t)p->unit_gpus));
    json_object_set_new(o, "capacity_gpus",
                        rent && p->capacity_gpus
                            ? json_integer((json_int_t)p->capacity_gpus)
                            : json_null());
    json_object_set_new(o, "capacity_known",
                        rent ? json_boolean(p->capacity_gpus > 0)
                             : json_null());
}

static json_t *point_json(const struct size_point *p)
{
    json_t *o = json_object(), *lay = json_object();

    if (!o || !lay) {
        json_decref(o);
        json_decref(lay);
        return NULL;
    }
    json_object_set_new(o, "accelerator", json_string(p->accel));
    json_object_set_new(o, "system", json_string(p->system));
    json_object_set_new(o, "stack", json_string(p->stack));
    json_object_set_new(o, "gpus", json_integer((json_int_t)p->gpus));
    json_object_set_new(o, "buy", json_string(p->rented ? "rent" : "own"));
    json_object_set_new(o, "offer",
                        p->rented ? json_string(p->offer) : json_null());
    json_object_set_new(
        o, "term", p->rented ? json_string(term_name(p->term)) : json_null());
    units_json(o, p);
    json_object_set_new(o, "days", num(p->days));
    json_object_set_new(o, "days_low", num(p->days_lo));
    json_object_set_new(o, "days_high", num(p->days_hi));
    json_object_set_new(o, "cost_usd", num(p->usd));
    json_object_set_new(o, "cost_usd_low", num(p->usd_lo));
    json_object_set_new(o, "cost_usd_high", num(p->usd_hi));
    json_object_set_new(o, "cash_usd", num(p->cash));
    json_object_set_new(o, "energy_mwh", num(p->mwh));
    json_object_set_new(o, "energy_mwh_low", num(p->mwh_lo));
    json_object_set_new(o, "energy_mwh_high", num(p->mwh_hi));
    json_object_set_new(o, "relative_error", num(p->err));
    json_object_set_new(o, "facility_mw", num(p->facility_mw));
    json_object_set_new(o, "rack_kw", num(p->rack_kw));
    json_object_set_new(o, "mfu", num(p->mfu));
    json_object_set_new(lay, "tp", json_integer((json_int_t)p->layout.tp));
    json_object_set_new(lay, "pp", json_integer((json_int_t)p->layout.pp));
    json_object_set_new(lay, "dp", json_integer((json_int_t)p->layout.dp));
    json_object_set_new(lay, "cp", json_integer((json_int_t)p->layout.cp));
    json_object_set_new(lay, "ep", json_integer((json_int_t)p->layout.ep));
    json_object_set_new(lay, "microbatch",
                        json_integer((json_int_t)p->layout.microbatch));
    json_object_set_new(lay, "interleave",
                        json_integer((json_int_t)p->layout.interleave));
    json_object_set_new(lay, "zero", json_integer(p->layout.zero));
    json_object_set_new(lay, "recompute",
                        json_string(recompute_name(p->layout.recompute)));
    json_object_set_new(lay, "sequence_parallel",
                        json_boolean(p->layout.sequence_parallel));
    json_object_set_new(lay, "full_search", json_boolean(p->full));
    json_object_set_new(o, "layout", lay);
    json_object_set_new(o, "status", json_string(size_why_name(p->why)));
    return o;
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

/* The capacity cell: GPUs, empty when unknown or owned. */
static const char *capacity_csv(const struct size_point *p, char *buf, size_t n)
{
    buf[0] = '\0';
    if ((p->rented || p->hybrid) && p->capacity_gpus)
        snprintf(buf, n, "%llu", (unsigned long long)p->capacity_gpus);
    return buf;
}

/* A plain decimal cell (export_plain_number: no e-notation, like the
 * quote CSV) in n[i]. */
#define PN(i, v) export_plain_number((v), n[i], sizeof(n[i]))

static void csv_row(FILE *out, const struct size_point *p, size_t rank)
{
    char r[24] = "", n[13][400], cap[24];

    if (rank)
        snprintf(r, sizeof(r), "%zu", rank);
    fprintf(out,
            "%s,%s,%s,%s,%s,%llu,%s,%s,%s,%s,%s,%s,%s,%s,"
            "%s,%s,%s,%s,%s,%s,%s,%llu,%llu,%llu,%llu,%llu,"
            "%llu,%llu,%d,%s,%s,%s,%s,%llu,%llu,%s,%s\n",
            r,
            p->why == SIZE_OK ? (p->frontier ? "frontier" : "dominated")
                              : size_why_name(p->why),
            p->accel, p->system, p->stack, (unsigned long long)p->gpus,
            p->rented ? "rent" : "own", p->rented ? p->offer : "",
            p->rented ? term_name(p->term) : "", PN(0, p->days),
            PN(1, p->days_lo), PN(2, p->days_hi), PN(3, p->usd),
            PN(4, p->usd_lo), PN(5, p->usd_hi), PN(6, p->mwh), PN(7, p->mwh_lo),
            PN(8, p->mwh_hi), PN(9, p->facility_mw), PN(10, p->rack_kw),
            PN(11, p->mfu), (unsigned long long)p->layout.tp,
            (unsigned long long)p->layout.pp, (unsigned long long)p->layout.dp,
            (unsigned long long)p->layout.cp, (unsigned long long)p->layout.ep,
            (unsigned long long)p->layout.microbatch,
            (unsigned long long)p->layout.interleave, p->layout.zero,
            recompute_name(p->layout.recompute),
            p->layout.sequence_parallel ? "yes" : "no", p->full ? "yes" : "no",
            PN(12, p->cash), (unsigned long long)p->units,
            (unsigned long long)p->unit_gpus, capacity_csv(p, cap, sizeof(cap)),
            p->rented ? (p->capacity_gpus ? "yes" : "no") : "");
}

/* One row per option: the frontier first (rank 1..), then the rest in
 * evaluation order with an empty rank and their status. */
enum cp_status export_csv_size(FILE *out, const struct size_result *s,
                               struct diag *d)
{
    size_t i;

    if (s->serve)
        return serve_csv(out, s, d);
    fprintf(out, "rank,status,accelerator,system,stack,gpus,buy,offer,term,"
                 "days,days_low,days_high,cost_usd,cost_usd_low,cost_usd_high,"
                 "energy_mwh,energy_mwh_low,energy_mwh_high,facility_mw,"
                 "rack_kw,mfu,tp,pp,dp,cp,ep,microbatch,interleave,zero,"
                 "recompute,sequence_parallel,full_search,cash_usd,units,"
                 "unit_gpus,capacity_gpus,capacity_known\n");
    for (i = 0; i < s->nfront; i++)
        csv_row(out, &s->pt[s->front[i]], i + 1);
    for (i = 0; i < s->n; i++)
        if (!s->pt[i].frontier)
            csv_row(out, &s->pt[i], 0);
    if (ferror(out))
        return diag_set(d, CP_ERR_IO, "output", "cannot write output");
    return CP_OK;
}

/* ---- serving fleets (size_result.serve) ---------------------------------- */

/* A system on which no replica serves the plan: one replica stands for
 * it, bought no way. */
static bool no_fleet(const struct size_point *p)
{
    return p->why == SIZE_NO_FIT || p->why == SIZE_MISSES_TTFT ||
           p->why == SIZE_MISSES_TPOT;
}

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

static const char *serve_buy_kind(const struct size_point *p)
{
    return no_fleet(p) ? "" : p->hybrid ? "hybrid" : p->rented ? "rent" : "own";
}

/* GPUs owned: the fleet, a hybrid's base, none rented. */
static uint64_t owned_of(const struct size_point *p)
{
    return no_fleet(p) || p->rented ? 0 : p->hybrid ? p->owned_gpus : p->gpus;
}

static const char *replica_text(const struct size_point *p, char *buf, size_t n)
{
    char b[24];

    if (p->max_batch)
        snprintf(b, sizeof(b), "%llu", (unsigned long long)p->max_batch);
    if (p->prefill.ep) {
        snprintf(buf, n, "prefill ep%llu x%llu, decode ep%llu x%llu",
                 (unsigned long long)p->prefill.ep,
                 (unsigned long long)p->prefill.gpus,
                 (unsigned long long)p->decode.ep,
                 (unsigned long long)p->decode.gpus);
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
    char buf[200], rep[64];
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

/* One disaggregated pool a serving point chose. */
static json_t *pool_json(const struct serve_pool_spec *ps)
{
    json_t *o = json_object();

    json_object_set_new(o, "gpus", json_integer((json_int_t)ps->gpus));
    json_object_set_new(o, "tp", json_integer((json_int_t)ps->tp));
    json_object_set_new(o, "ep", json_integer((json_int_t)ps->ep));
    json_object_set_new(o, "attention_dp",
                        json_integer((json_int_t)ps->attention_dp));
    return o;
}

static json_t *serve_point_json(const struct size_point *p)
{
    json_t *o = json_object(), *lay = json_object();

    if (!o || !lay) {
        json_decref(o);
        json_decref(lay);
        return NULL;
    }
    json_object_set_new(o, "accelerator", json_string(p->accel));
    json_object_set_new(o, "system", json_string(p->system));
    json_object_set_new(o, "stack", json_string(p->stack));
    json_object_set_new(o, "gpus", json_integer((json_int_t)p->gpus));
    json_object_set_new(
        o, "buy", no_fleet(p) ? json_null() : json_string(serve_buy_kind(p)));
    json_object_set_new(o, "offer",
                        p->rented || p->hybrid ? json_string(p->offer)
                                               : json_null());
    json_object_set_new(o, "term",
                        p->rented || p->hybrid ? json_string(term_name(p->term))
                                               : json_null());
    json_object_set_new(o, "owned_gpus", json_integer((json_int_t)owned_of(p)));
    units_json(o, p);
    json_object_set_new(o, "usd_per_day", num(p->usd_day));
    json_object_set_new(o, "cash_usd", num(p->cash));
    json_object_set_new(o, "usd_per_day_low", num(p->usd_day_lo));
    json_object_set_new(o, "usd_per_day_high", num(p->usd_day_hi));
    json_object_set_new(o, "usd_per_mtok", num(p->usd_mtok));
    json_object_set_new(o, "wh_per_mtok", num(p->wh_mtok));
    json_object_set_new(o, "wh_per_mtok_low", num(p->wh_mtok_lo));
    json_object_set_new(o, "wh_per_mtok_high", num(p->wh_mtok_hi));
    json_object_set_new(o, "ttft_ms", num(p->ttft_ms));
    json_object_set_new(o, "tpot_ms", num(p->tpot_ms));
    json_object_set_new(o, "e2e_s", num(p->e2e_s));
    json_object_set_new(o, "replicas", num(p->replicas));
    json_object_set_new(o, "utilization", num(p->utilization));
    json_object_set_new(o, "relative_error", num(p->err));
    json_object_set_new(o, "facility_mw", num(p->facility_mw));
    json_object_set_new(o, "rack_kw", num(p->rack_kw));
    json_object_set_new(lay, "tp", json_integer((json_int_t)p->layout.tp));
    json_object_set_new(lay, "pp", json_integer((json_int_t)p->layout.pp));
    json_object_set_new(lay, "ep", json_integer((json_int_t)p->layout.ep));
    json_object_set_new(lay, "max_batch",
                        p->max_batch ? json_integer((json_int_t)p->max_batch)
                                     : json_string("auto"));
    if (p->prefill.ep) {
        json_object_set_new(lay, "prefill", pool_json(&p->prefill));
        json_object_set_new(lay, "decode", pool_json(&p->decode));
    }
    json_object_set_new(o, "replica", lay);
    json_object_set_new(o, "status", json_string(size_why_name(p->why)));
    return o;
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

static void serve_csv_row(FILE *out, const struct size_point *p, size_t rank)
{
    char r[24] = "", b[24] = "auto", n[15][400], cap[24];

    if (rank)
        snprintf(r, sizeof(r), "%zu", rank);
    if (p->max_batch)
        snprintf(b, sizeof(b), "%llu", (unsigned long long)p->max_batch);
    fprintf(out,
            "%s,%s,%s,%s,%s,%llu,%s,%s,%s,%llu,%s,%s,%s,%s,%s,"
            "%s,%s,%s,%s,%s,%s,%s,%s,%s,%llu,%llu,%s,%s,%llu,%llu,%s,%s\n",
            r,
            p->why == SIZE_OK ? (p->frontier ? "frontier" : "dominated")
                              : size_why_name(p->why),
            p->accel, p->system, p->stack, (unsigned long long)p->gpus,
            serve_buy_kind(p), p->rented || p->hybrid ? p->offer : "",
            p->rented || p->hybrid ? term_name(p->term) : "",
            (unsigned long long)owned_of(p), PN(0, p->usd_day),
            PN(1, p->usd_day_lo), PN(2, p->usd_day_hi), PN(3, p->usd_mtok),
            PN(4, p->wh_mtok), PN(5, p->wh_mtok_lo), PN(6, p->wh_mtok_hi),
            PN(7, p->ttft_ms), PN(8, p->tpot_ms), PN(9, p->e2e_s),
            PN(10, p->replicas), PN(11, p->utilization), PN(12, p->facility_mw),
            PN(13, p->rack_kw), (unsigned long long)p->layout.tp,
            (unsigned long long)p->layout.pp, b, PN(14, p->cash),
            (unsigned long long)p->units, (unsigned long long)p->unit_gpus,
            capacity_csv(p, cap, sizeof(cap)),
            p->rented || p->hybrid ? (p->capacity_gpus ? "yes" : "no") : "");
}

#undef PN

static enum cp_status serve_csv(FILE *out, const struct size_result *s,
                                struct diag *d)
{
    size_t i;

    fprintf(out, "rank,status,accelerator,system,stack,gpus,buy,offer,term,"
                 "owned_gpus,usd_per_day,usd_per_day_low,usd_per_day_high,"
                 "usd_per_mtok,wh_per_mtok,wh_per_mtok_low,wh_per_mtok_high,"
                 "ttft_ms,tpot_ms,e2e_s,replicas,utilization,facility_mw,"
                 "rack_kw,tp,pp,max_batch,cash_usd,units,unit_gpus,"
                 "capacity_gpus,capacity_known\n");
    for (i = 0; i < s->nfront; i++)
        serve_csv_row(out, &s->pt[s->front[i]], i + 1);
    for (i = 0; i < s->n; i++)
        if (!s->pt[i].frontier)
            serve_csv_row(out, &s->pt[i], 0);
    if (ferror(out))
        return diag_set(d, CP_ERR_IO, "output", "cannot write output");
    return CP_OK;
}
