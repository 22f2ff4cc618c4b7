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

static const char *buy_text(const struct size_point *p, char *buf, size_t n)
{
    if (p->rented)
        snprintf(buf, n, "rent %s %s", p->offer, term_name(p->term));
    else
        snprintf(buf, n, "own");
    return buf;
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
    case SIZE_OVER_BUDGET: {
        char a[32], b[32];

        snprintf(buf, n, "%s (budget %s)", money(p->usd, a, sizeof(a)),
                 money(o->budget_usd, b, sizeof(b)));
        break;
    }
    case SIZE_OVER_POWER:
        if (o->site_mw > 0 && p->facility_mw > o->site_mw)
            snprintf(buf, n, "%.2f MW (site %.4g MW)", p->facility_mw,
                     o->site_mw);
        else
            snprintf(buf, n, "%.1f kW a rack (limit %.4g kW)", p->rack_kw,
                     o->rack_kw);
        break;
    case SIZE_CAPACITY:
        snprintf(buf, n, "%llu GPUs (more than the offer lists)",
                 (unsigned long long)p->gpus);
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
    char buy[96];

    return fprintf(out, "%s x %llu (%s) %s", p->accel,
                   (unsigned long long)p->gpus, p->system,
                   buy_text(p, buy, sizeof(buy)));
}

enum cp_status export_text_size(FILE *out, const struct size_result *s,
                                struct diag *d)
{
    const struct size_opts *o = &s->opts;
    size_t i, w;
    char buf[160], lay[96];

    fprintf(out, "objective: %s", objective_name(o->obj));
    if (o->deadline_days > 0)
        fprintf(out, "; deadline %.4g days", o->deadline_days);
    if (o->budget_usd > 0)
        fprintf(out, "; budget %s", money(o->budget_usd, buf, sizeof(buf)));
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
    if (s->stopped_early)
        fprintf(out,
                "warning: the option buffer filled up (%d); narrow the "
                "search with --accel or --gpus-max\n",
                SIZE_POINTS_MAX);
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
        fprintf(out, "\nnothing meets the constraints");
        if (s->nearest >= 0) {
            const struct size_point *p = &s->pt[s->nearest];

            fprintf(out, "; closest: ");
            option_line(out, p);
            breach_text(s, p, buf, sizeof(buf));
            fprintf(out, ": %s, %s", size_why_name(p->why), buf);
        }
        fprintf(out, "\n");
    } else {
        fprintf(out,
                "\nfrontier (time x cost x energy), best %s first; ranges "
                "from the stack's measured error:\n",
                objective_name(o->obj));
        fprintf(out, "%3s  %-10s %-15s %6s  %-36s %11s %17s %13s %5s  %s\n",
                "#", "accel", "system", "gpus", "buy", "days", "cost",
                "energy MWh", "MFU", "layout");
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
                    "%3zu  %-10s %-15s %6llu  %-36s %11s %17s %13s %5.3f  %s",
                    i + 1, p->accel, p->system, (unsigned long long)p->gpus,
                    buy_text(p, buf, sizeof(buf)), days, usd, mwh, p->mfu,
                    layout_text(p, lay, sizeof(lay)));
            if (p->overlaps >= 0)
                fprintf(out, "  ~#%d", p->overlaps + 1);
            fprintf(out, "\n");
        }
        fprintf(out, "(~#k: time and cost ranges overlap point k's: the "
                     "model cannot tell them apart)\n");
    }
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
            option_line(out, p);
            breach_text(s, p, buf, sizeof(buf));
            fprintf(out, ", %s", buf);
        }
        fprintf(out, "\n");
    }
    {
        size_t dominated = s->why_count[SIZE_OK] - s->nfront;

        if (dominated)
            fprintf(out, "  %-26s %6zu\n", "dominated", dominated);
    }
    if (ferror(out))
        return diag_set(d, CP_ERR_IO, "output", "cannot write output");
    return CP_OK;
}

/* ---- JSON ---------------------------------------------------------------- */

static json_t *num(double x)
{
    return json_real(isfinite(x) ? x : 0);
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
    json_object_set_new(o, "days", num(p->days));
    json_object_set_new(o, "days_low", num(p->days_lo));
    json_object_set_new(o, "days_high", num(p->days_hi));
    json_object_set_new(o, "cost_usd", num(p->usd));
    json_object_set_new(o, "cost_usd_low", num(p->usd_lo));
    json_object_set_new(o, "cost_usd_high", num(p->usd_hi));
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

enum cp_status export_json_size(FILE *out, const struct size_result *s,
                                struct diag *d)
{
    json_t *root = json_object(), *search = json_object(),
           *front = json_array(), *ex = json_array(), *c = json_object();
    size_t i, w;
    int rc;

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
    json_object_set_new(search, "stopped_early",
                        json_boolean(s->stopped_early));
    json_object_set_new(root, "search", search);
    for (i = 0; i < s->nfront; i++) {
        json_t *p = point_json(&s->pt[s->front[i]]);

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
                            s->closest[w] >= 0
                                ? point_json(&s->pt[s->closest[w]])
                                : json_null());
        json_array_append_new(ex, e);
    }
    json_object_set_new(root, "excluded", ex);
    json_object_set_new(root, "nearest",
                        s->nearest >= 0 ? point_json(&s->pt[s->nearest])
                                        : json_null());
    rc = json_dumpf(root, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    json_decref(root);
    if (rc != 0 || fputc('\n', out) == EOF)
        return diag_set(d, CP_ERR_IO, "json", "cannot write output");
    return CP_OK;
}

/* ---- CSV ----------------------------------------------------------------- */

static void csv_row(FILE *out, const struct size_point *p, size_t rank)
{
    char r[24] = "";

    if (rank)
        snprintf(r, sizeof(r), "%zu", rank);
    fprintf(out,
            "%s,%s,%s,%s,%s,%llu,%s,%s,%s,%.6g,%.6g,%.6g,%.10g,%.10g,"
            "%.10g,%.6g,%.6g,%.6g,%.6g,%.6g,%.4f,%llu,%llu,%llu,%llu,%llu,"
            "%llu,%llu,%d,%s,%s,%s\n",
            r,
            p->why == SIZE_OK ? (p->frontier ? "frontier" : "dominated")
                              : size_why_name(p->why),
            p->accel, p->system, p->stack, (unsigned long long)p->gpus,
            p->rented ? "rent" : "own", p->rented ? p->offer : "",
            p->rented ? term_name(p->term) : "", p->days, p->days_lo,
            p->days_hi, p->usd, p->usd_lo, p->usd_hi, p->mwh, p->mwh_lo,
            p->mwh_hi, p->facility_mw, p->rack_kw, p->mfu,
            (unsigned long long)p->layout.tp, (unsigned long long)p->layout.pp,
            (unsigned long long)p->layout.dp, (unsigned long long)p->layout.cp,
            (unsigned long long)p->layout.ep,
            (unsigned long long)p->layout.microbatch,
            (unsigned long long)p->layout.interleave, p->layout.zero,
            recompute_name(p->layout.recompute),
            p->layout.sequence_parallel ? "yes" : "no", p->full ? "yes" : "no");
}

/* One row per option: the frontier first (rank 1..), then the rest in
 * evaluation order with an empty rank and their status. */
enum cp_status export_csv_size(FILE *out, const struct size_result *s,
                               struct diag *d)
{
    size_t i;

    fprintf(out, "rank,status,accelerator,system,stack,gpus,buy,offer,term,"
                 "days,days_low,days_high,cost_usd,cost_usd_low,cost_usd_high,"
                 "energy_mwh,energy_mwh_low,energy_mwh_high,facility_mw,"
                 "rack_kw,mfu,tp,pp,dp,cp,ep,microbatch,interleave,zero,"
                 "recompute,sequence_parallel,full_search\n");
    for (i = 0; i < s->nfront; i++)
        csv_row(out, &s->pt[s->front[i]], i + 1);
    for (i = 0; i < s->n; i++)
        if (!s->pt[i].frontier)
            csv_row(out, &s->pt[i], 0);
    if (ferror(out))
        return diag_set(d, CP_ERR_IO, "output", "cannot write output");
    return CP_OK;
}
