/*
 * load.c - what a workload asks of the fleet (see load.h).
 */
#include <math.h>
#include <string.h>

#include "core/energy.h"
#include "core/load.h"

void load_fleet(const struct scenario *sc, double gpus, struct load_result *l)
{
    double gpn =
        sc->system.gpus_per_node >= 1 ? (double)sc->system.gpus_per_node : 1;

    memset(l, 0, sizeof(*l));
    l->gpus = gpus >= 1 && gpus < 1e300 ? gpus : 1;
    l->nodes = ceil(l->gpus / gpn);
    l->power_frac = sc->accel.power_frac > 0 ? sc->accel.power_frac
                                             : ENERGY_DEFAULT_POWER_FRAC;
    l->goodput = 1;
}

void load_train(const struct scenario *sc, struct result *r)
{
    struct load_result *l = &r->load;
    double n, goodput = r->reliability.goodput;
    double days;

    load_fleet(sc, (double)sc->gpus, l);
    n = l->gpus;
    if (!(goodput > 0) || goodput > 1)
        goodput = 1;
    l->goodput = goodput;
    l->tokens = sc->train.tokens > 0 ? sc->train.tokens : 0;
    /* A run whose GPU-hours are known (train.gpu_hours, e.g. DeepSeek-V3's
     * published 2.788M H800 GPU-hours) is taken as wall-clock GPU-hours,
     * failures and restarts included, so energy and run costs follow it
     * exactly (run cost = GPU-hours x price); the steady-state figures
     * are the part the goodput leaves. */
    if (sc->train.gpu_hours > 0) {
        double wall_h = sc->train.gpu_hours / n;

        l->busy_gpu_hours = sc->train.gpu_hours;
        l->wall_h = wall_h;
        r->time.gpu_hours = sc->train.gpu_hours * goodput;
        r->time.train_days = r->time.gpu_hours / n / 24;
        r->reliability.effective_train_days = wall_h / 24;
        if (r->reliability.cluster_mtbf_h > 0)
            r->reliability.failures = wall_h / r->reliability.cluster_mtbf_h;
        return;
    }
    /* Both sides pay for the failure-inclusive hours (reliability.h). */
    l->busy_gpu_hours = r->time.gpu_hours > 0 ? r->time.gpu_hours / goodput : 0;
    days = r->reliability.effective_train_days > 0
               ? r->reliability.effective_train_days
               : r->time.train_days;
    l->wall_h = days > 0 ? days * 24 : 0;
}
