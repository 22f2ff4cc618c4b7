/*
 * serve_money.c - what a serving fleet costs: GPU-hours a day over the
 * daily profile, owned, rented and hybrid (owned base + cloud burst)
 * money per day and cash committed (serve_load, serve_money; see
 * serve.h).  serve.c holds the engine and its operating point.
 */
#include <math.h>

#include "core/clamp.h"
#include "core/cost.h"
#include "core/load.h"
#include "core/serve.h"

/* GPU-hours a day the demand needs, and the hybrid split against an
 * owned base (hours above it burst to the cloud, hours below it idle). */
static void daily(const struct scenario *sc, struct serve_result *s)
{
    double f[SERVE_PROFILE_STEPS];
    double r = serve_peak_ratio(&sc->serve);
    double dt = 24.0 / SERVE_PROFILE_STEPS, need_peak, owned = s->owned_gpus;
    double gpi = sc->cloud.gpus_per_instance >= 1
                     ? (double)sc->cloud.gpus_per_instance
                     : 1;
    int i;

    s->instances = clamp_pos(ceil(s->gpus / gpi - 1e-9));
    s->fleet_gpu_hours_per_day = clamp_pos(s->gpus * 24);
    s->billed_gpu_hours_per_day = clamp_pos(s->instances * gpi * 24);
    s->burst_gpu_hours_per_day = 0;
    s->owned_idle_gpu_hours_per_day = 0;
    if (!(s->demand_requests_per_s > 0) || !(s->utilization > 0))
        return;
    /* The GPUs the peak needs at full capacity; the profile scales them
     * (continuous, so replicas are not rounded hour by hour). */
    need_peak = s->gpus * s->utilization;
    serve_daily_profile(r, f, SERVE_PROFILE_STEPS);
    s->fleet_gpu_hours_per_day = 0;
    s->billed_gpu_hours_per_day = 0;
    for (i = 0; i < SERVE_PROFILE_STEPS; i++) {
        double need = need_peak * f[i] / r;

        s->fleet_gpu_hours_per_day += need * dt;
        /* rented elastically: whole instances each step */
        s->billed_gpu_hours_per_day += ceil(need / gpi - 1e-9) * gpi * dt;
        if (owned > 0) {
            s->burst_gpu_hours_per_day +=
                need > owned ? ceil((need - owned) / gpi - 1e-9) * gpi * dt : 0;
            s->owned_idle_gpu_hours_per_day +=
                owned > need ? (owned - need) * dt : 0;
        }
    }
    s->fleet_gpu_hours_per_day = clamp_pos(s->fleet_gpu_hours_per_day);
    s->billed_gpu_hours_per_day = clamp_pos(s->billed_gpu_hours_per_day);
    s->burst_gpu_hours_per_day = clamp_pos(s->burst_gpu_hours_per_day);
    s->owned_idle_gpu_hours_per_day =
        clamp_pos(s->owned_idle_gpu_hours_per_day);
}

void serve_load(const struct scenario *sc, bool base, struct result *r)
{
    struct serve_result *s = &r->serve;
    struct load_result *l = &r->load;
    bool hybrid = base && s->owned_gpus > 0;
    double gpus = hybrid ? s->owned_gpus : s->gpus;
    double tokens_day;

    daily(sc, s);
    load_fleet(sc, gpus, l);
    l->wall_h = 24;
    tokens_day = sc->serve.tokens_per_day > 0 ? sc->serve.tokens_per_day
                                              : s->output_tokens_per_s * 86400;
    l->tokens = clamp_pos(tokens_day);
    /* The busy hours: the demand, up to the owned base of a hybrid. */
    l->busy_gpu_hours =
        hybrid ? clamp_pos(s->owned_gpus * 24 - s->owned_idle_gpu_hours_per_day)
               : s->fleet_gpu_hours_per_day;
    /* The fleet is priced at the utilization its own profile gives, not
     * the plan's finance.utilization (issue 18): 20B tokens a day at a
     * peak twice the mean keep a fleet sized for the peak half busy. */
    l->busy_frac = clamp_pos(l->busy_gpu_hours / (l->gpus * 24));
    l->burst_gpu_hours = hybrid ? s->burst_gpu_hours_per_day : 0;
    if (l->busy_frac > 1)
        l->busy_frac = 1;
}

void serve_money(const struct scenario *sc, double all_owned_usd_per_year,
                 struct result *r)
{
    struct serve_result *s = &r->serve;
    double cloud_h = r->cost.cloud.usd_per_gpu_hour;
    double tokens_day = r->load.tokens;
    double in_day, out_share = 1 - s->prefill_time_frac;
    double cloud_gpu_h;
    double gpi = sc->cloud.gpus_per_instance >= 1
                     ? (double)sc->cloud.gpus_per_instance
                     : 1;
    bool elastic =
        sc->cloud_term == TERM_ON_DEMAND || sc->cloud_term == TERM_SPOT;

    /* The owned fleet costs its capital recovery and OpEx all year, busy
     * or not: a day is a 365th of it. */
    s->usd_per_day_build = clamp_pos(all_owned_usd_per_year / 365);
    /* Rented in whole instances: on demand and spot follow the profile;
     * reserved terms pay for the fleet all day. */
    cloud_gpu_h =
        elastic ? s->billed_gpu_hours_per_day : s->instances * gpi * 24;
    s->usd_per_day_cloud = clamp_pos(cloud_h * cloud_gpu_h);
    s->cash_usd_build = r->cost.build.cash_usd;
    s->cash_usd_cloud = elastic ? s->usd_per_day_cloud
                                : clamp_pos(cloud_h * s->instances * gpi *
                                            cost_term_hours(sc->cloud_term));
    in_day = s->output_tokens_per_s > 0
                 ? tokens_day * s->input_tokens_per_s / s->output_tokens_per_s
                 : 0;
    if (tokens_day > 0) {
        s->usd_per_mtok_build =
            clamp_pos(s->usd_per_day_build * out_share / tokens_day * 1e6);
        s->usd_per_mtok_cloud =
            clamp_pos(s->usd_per_day_cloud * out_share / tokens_day * 1e6);
        s->wh_per_mtok = clamp_pos(
            r->energy.facility_kw * 24 * 1000 / tokens_day * 1e6 *
            (s->owned_gpus > 0 && s->gpus > 0 ? s->gpus / s->owned_gpus : 1));
    }
    if (in_day > 0) {
        s->usd_per_mtok_input_build = clamp_pos(
            s->usd_per_day_build * s->prefill_time_frac / in_day * 1e6);
        s->usd_per_mtok_input_cloud = clamp_pos(
            s->usd_per_day_cloud * s->prefill_time_frac / in_day * 1e6);
    }
    if (s->owned_gpus > 0) {
        s->burst_usd_per_day = clamp_pos(s->burst_gpu_hours_per_day * cloud_h);
        s->usd_per_day_hybrid = clamp_pos((r->cost.build.annual_capital_usd +
                                           r->cost.build.opex_usd_per_year) /
                                              365 +
                                          s->burst_usd_per_day);
        s->cash_usd_hybrid =
            clamp_pos(r->cost.build.cash_usd + s->burst_usd_per_day);
    }
}
