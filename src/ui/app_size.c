/*
 * app_size.c - the Size view's model: size_run for the plan (the pipeline
 * of `llmplan size`), the limits prompt's text, and making a frontier
 * point the plan.  See ui.h.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/export.h"
#include "ui/ui.h"
#include "util/fs.h"
#include "util/number.h"
#include "util/xalloc.h"

enum cp_status app_size(struct ui *ui, const struct size_opts *o,
                        struct size_result *out, struct diag *d)
{
    enum cp_status st = size_run(&ui->plan, ui->cat, o, out, d);

    if (st)
        ui_status(ui, true, "size: %s%s%s", d->where, d->where[0] ? ": " : "",
                  d->msg);
    else
        ui_status(ui, false,
                  "%zu options, %zu on the frontier (%llu layout searches, "
                  "%llu in full)",
                  out->n, out->nfront, (unsigned long long)out->searches,
                  (unsigned long long)out->full_searches);
    return st;
}

enum cp_status app_size_limits_parse(const char *text, struct size_opts *o,
                                     struct diag *d)
{
    struct size_opts n = *o;
    char buf[MODAL_TEXT_MAX], *save = NULL, *w;

    snprintf(buf, sizeof(buf), "%s", text);
    n.deadline_days = n.budget_usd = n.budget_run_usd = 0;
    n.site_mw = n.rack_kw = 0;
    n.gpus_max = 0;
    n.nids = 0;
    for (w = strtok_r(buf, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
        char *eq = strchr(w, '=');
        double x = 0;

        if (!eq)
            return diag_set(d, CP_ERR_USAGE, w, "not key=value");
        *eq++ = '\0';
        if (strcmp(w, "objective") == 0) {
            if (objective_parse(eq, &n.obj) != CP_OK)
                return diag_set(d, CP_ERR_USAGE, w,
                                "'%s' is not time, cost, energy or cash", eq);
            continue;
        }
        if (strcmp(w, "accel") == 0) {
            char *s2 = NULL, *id;

            for (id = strtok_r(eq, ",", &s2); id;
                 id = strtok_r(NULL, ",", &s2)) {
                if (n.nids >= SIZE_IDS_MAX || strlen(id) >= CP_ID_MAX)
                    return diag_set(d, CP_ERR_USAGE, w, "too many or too long");
                snprintf(n.ids[n.nids++], CP_ID_MAX, "%s", id);
            }
            continue;
        }
        if (number_parse(eq, 1, &x) != CP_OK || !(x > 0) || x > 1e15)
            return diag_set(d, CP_ERR_USAGE, w, "'%s' is not a positive number",
                            eq);
        if (strcmp(w, "deadline") == 0)
            n.deadline_days = x;
        else if (strcmp(w, "budget") == 0)
            n.budget_usd = x;
        else if (strcmp(w, "budget_run") == 0)
            n.budget_run_usd = x;
        else if (strcmp(w, "site_mw") == 0)
            n.site_mw = x;
        else if (strcmp(w, "rack_kw") == 0)
            n.rack_kw = x;
        else if (strcmp(w, "gpus_max") == 0 && x >= 1 && x <= 1e7)
            n.gpus_max = (uint64_t)x;
        else
            return diag_set(d, CP_ERR_USAGE, w,
                            "not deadline, budget, budget_run, site_mw, "
                            "rack_kw, gpus_max, objective or accel");
    }
    *o = n;
    return CP_OK;
}

/* A limit as the user would type it, never in e-notation: 20M, 2.5K, 90. */
static const char *limit_num(double v, char *buf, size_t n)
{
    static const struct {
        double f;
        const char *s;
    } sfx[] = {{1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "K"}};
    size_t i;

    for (i = 0; i < sizeof(sfx) / sizeof(sfx[0]); i++)
        if (v >= sfx[i].f && fmod(v * 1000, sfx[i].f) == 0) {
            snprintf(buf, n, "%.6g%s", v / sfx[i].f, sfx[i].s);
            return buf;
        }
    snprintf(buf, n, "%.6g", v);
    if (strchr(buf, 'e'))
        snprintf(buf, n, "%.0f", v);
    return buf;
}

void app_size_limits_text(const struct size_opts *o, char *buf, size_t n)
{
    char num[64];

    size_t u = 0, i;

#define ADD(...)                                                               \
    do {                                                                       \
        int w_ = snprintf(buf + u, n - u, __VA_ARGS__);                        \
        if (w_ > 0 && (size_t)w_ < n - u)                                      \
            u += (size_t)w_;                                                   \
    } while (0)
    buf[0] = '\0';
    ADD("objective=%s", objective_name(o->obj));
    if (o->deadline_days > 0)
        ADD(" deadline=%s", limit_num(o->deadline_days, num, sizeof(num)));
    if (o->budget_usd > 0)
        ADD(" budget=%s", limit_num(o->budget_usd, num, sizeof(num)));
    if (o->budget_run_usd > 0)
        ADD(" budget_run=%s", limit_num(o->budget_run_usd, num, sizeof(num)));
    if (o->site_mw > 0)
        ADD(" site_mw=%s", limit_num(o->site_mw, num, sizeof(num)));
    if (o->rack_kw > 0)
        ADD(" rack_kw=%s", limit_num(o->rack_kw, num, sizeof(num)));
    if (o->gpus_max > 0)
        ADD(" gpus_max=%llu", (unsigned long long)o->gpus_max);
    for (i = 0; i < o->nids; i++)
        ADD("%s%s", i ? "," : " accel=", o->ids[i]);
#undef ADD
}

unsigned app_size_apply(struct ui *ui, const struct size_point *pt)
{
    struct plan *np = xcalloc(1, sizeof(*np));
    struct diag d;

    if (size_point_plan(&ui->plan, pt, np, &d) != CP_OK) {
        ui_status(ui, true, "size: %s: %s", d.where, d.msg);
        free(np);
        return UI_REDRAW;
    }
    ui->plan = *np;
    free(np);
    ui->bad_key = -1;
    ui->bad_text[0] = '\0';
    ui_status(ui, false, "the plan is now %s x %llu %s%s%s%s", pt->accel,
              (unsigned long long)pt->gpus,
              pt->hybrid   ? "owned base + burst on "
              : pt->rented ? "rented on "
                           : "owned",
              pt->rented || pt->hybrid ? pt->offer : "",
              pt->rented || pt->hybrid ? " " : "",
              pt->rented || pt->hybrid ? term_name(pt->term) : "");
    return UI_RECOMPUTE | UI_REDRAW;
}

enum cp_status app_size_export(struct ui *ui, const struct size_result *res,
                               const char *path, struct diag *d)
{
    struct atomic_file af;
    char full[4096];
    const char *home = getenv("HOME");
    size_t len;
    enum cp_status st;

    (void)ui;
    /* ~/ as the plan exports take it */
    if (path[0] == '~' && path[1] == '/' && home && home[0])
        snprintf(full, sizeof(full), "%s%s", home, path + 1);
    else
        snprintf(full, sizeof(full), "%s", path);
    len = strlen(full);
    st = atomic_file_open(&af, full, 0644, d);
    if (st)
        return st;
    if (len >= 5 && strcmp(full + len - 5, ".json") == 0)
        st = export_json_size(af.fp, res, d);
    else
        st = export_csv_size(af.fp, res, d);
    if (st) {
        atomic_file_abort(&af);
        return st;
    }
    return atomic_file_commit(&af, d);
}
