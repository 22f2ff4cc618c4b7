/*
 * reliability.c - Young/Daly checkpoint interval and goodput (see
 * reliability.h for the model and its sources).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/clamp.h"
#include "core/reliability.h"

double reliability_young_s(double delta_s, double mtbf_s)
{
    /* Young, CACM 17(9), 1974: first-order optimum of checkpoint cost
     * delta against expected rework tau/2 per failure. */
    if (!(delta_s > 0) || !(mtbf_s > 0))
        return 0;
    return clamp_pos(sqrt(2 * delta_s) * sqrt(mtbf_s));
}

double reliability_daly_s(double delta_s, double mtbf_s)
{
    double x;

    if (!(delta_s > 0) || !(mtbf_s > 0))
        return 0;
    /* Daly, FGCS 22(3), 2006, eq. 37 (as in LLNL SCR's
     * scr_ckpt_interval.py): higher-order correction of Young's interval,
     * valid while the write takes less than two MTBFs; beyond that,
     * checkpoint once per MTBF. */
    if (delta_s >= 2 * mtbf_s)
        return clamp_pos(mtbf_s);
    x = delta_s / (2 * mtbf_s);
    return clamp_pos(reliability_young_s(delta_s, mtbf_s) *
                         (1 + sqrt(x) / 3 + x / 9) -
                     delta_s);
}

/* The same lost fraction, uncapped: 1 or more when failures outpace
 * progress (no work survives a checkpoint interval); HUGE_VAL for no
 * MTBF. */
static double lost_raw(double delta_s, double tau_s, double mtbf_s,
                       double restart_s)
{
    double lost = 0;

    if (!(mtbf_s > 0))
        return HUGE_VAL;
    if (tau_s > 0)
        lost += delta_s / tau_s;
    lost += (tau_s / 2 + clamp_pos(restart_s)) / mtbf_s;
    return lost > 0 ? lost : 0;
}

double reliability_lost_frac(double delta_s, double tau_s, double mtbf_s,
                             double restart_s)
{
    double lost = 0;

    if (!(mtbf_s > 0))
        return RELIABILITY_MAX_LOST_FRAC;
    /* Reference 7.3, standard first-order model: writing costs delta per
     * interval tau; each failure (one per M) loses half an interval of
     * work on average plus the restart time R. */
    if (tau_s > 0)
        lost += delta_s / tau_s;
    lost += (tau_s / 2 + clamp_pos(restart_s)) / mtbf_s;
    if (!(lost > 0))
        return 0;
    return lost < RELIABILITY_MAX_LOST_FRAC ? lost : RELIABILITY_MAX_LOST_FRAC;
}

double reliability_node_mtbf_h(const struct scenario *sc)
{
    if (sc->reliability.node_mtbf_h > 0)
        return clamp_pos(sc->reliability.node_mtbf_h);
    if (sc->system.node_mtbf_h > 0)
        return clamp_pos(sc->system.node_mtbf_h);
    return RELIABILITY_DEFAULT_NODE_MTBF_H;
}

/* The combined interruption rate's cluster MTBF, checkpoint write and
 * interval (reliability_goodput_with, reliability_never_with). */
static void combined(const struct scenario *sc, const struct result *r,
                     double extra_per_h, double *m_s, double *delta,
                     double *tau)
{
    double gpn =
        sc->system.gpus_per_node >= 1 ? (double)sc->system.gpus_per_node : 1;
    double nodes = r->network.nodes >= 1 ? (double)r->network.nodes
                                         : ceil((double)sc->gpus / gpn);

    if (nodes < 1)
        nodes = 1;
    *m_s = clamp_pos(
        3600 / (nodes / reliability_node_mtbf_h(sc) + clamp_pos(extra_per_h)));
    *delta = clamp_pos(r->storage.checkpoint_write_s);
    *tau = reliability_daly_s(*delta, *m_s);
}

bool reliability_never_with(const struct scenario *sc, const struct result *r,
                            double extra_per_h)
{
    double m_s, delta, tau;

    combined(sc, r, extra_per_h, &m_s, &delta, &tau);
    return !(lost_raw(delta, tau, m_s,
                      clamp_pos(sc->reliability.restart_min * 60)) < 1);
}

double reliability_goodput_with(const struct scenario *sc,
                                const struct result *r, double extra_per_h)
{
    double gpn =
        sc->system.gpus_per_node >= 1 ? (double)sc->system.gpus_per_node : 1;
    double nodes = r->network.nodes >= 1 ? (double)r->network.nodes
                                         : ceil((double)sc->gpus / gpn);
    double rate, m_s, delta, tau;

    if (nodes < 1)
        nodes = 1;
    /* Independent interruptions add their rates: node failures plus the
     * extra source (spot preemptions); the same Young/Daly interval and
     * lost-work model then applies to the combined rate. */
    rate = nodes / reliability_node_mtbf_h(sc) + clamp_pos(extra_per_h);
    m_s = clamp_pos(3600 / rate);
    delta = clamp_pos(r->storage.checkpoint_write_s);
    tau = reliability_daly_s(delta, m_s);
    return 1 -
           reliability_lost_frac(delta, tau, m_s,
                                 clamp_pos(sc->reliability.restart_min * 60));
}

void reliability_estimate(const struct scenario *sc, struct result *r)
{
    struct reliability_result *rel = &r->reliability;
    double gpn =
        sc->system.gpus_per_node >= 1 ? (double)sc->system.gpus_per_node : 1;
    double nodes = r->network.nodes >= 1 ? (double)r->network.nodes
                                         : ceil((double)sc->gpus / gpn);
    double m_h, m_s, delta, tau, restart, days;

    memset(rel, 0, sizeof(*rel));
    if (nodes < 1)
        nodes = 1;

    /* Failures are independent per node: the cluster fails N times as
     * often as a node (Llama 3: 2,048 nodes, ~3.1 h between unexpected
     * interruptions). */
    m_h = reliability_node_mtbf_h(sc) / nodes;
    m_s = clamp_pos(m_h * 3600);
    delta = clamp_pos(r->storage.checkpoint_write_s);
    restart = clamp_pos(sc->reliability.restart_min * 60);
    tau = reliability_daly_s(delta, m_s);

    /* Failures outpace progress: each interval's write, the half interval
     * lost and the restart take longer than the time between failures,
     * so no work survives; the floored goodput below keeps the numbers
     * finite, and the outputs say the run never finishes. */
    if (!(lost_raw(delta, tau, m_s, restart) < 1)) {
        rel->never = true;
        snprintf(rel->reason, sizeof(rel->reason),
                 "never finishes: failures every %.3g h outpace progress "
                 "(restart %.3g min, checkpoint write %.3g s)",
                 m_h, restart / 60, delta);
        result_warn(r, "%s", rel->reason);
    }

    rel->cluster_mtbf_h = clamp_pos(m_h);
    rel->checkpoint_interval_min = tau / 60;
    rel->lost_frac = reliability_lost_frac(delta, tau, m_s, restart);
    rel->goodput = 1 - rel->lost_frac;
    days = clamp_pos(r->time.train_days);
    rel->effective_train_days = clamp_pos(days / rel->goodput);
    rel->failures =
        m_h > 0 ? clamp_pos(rel->effective_train_days * 24 / m_h) : 0;

    if (tau > 0 && delta > 0.1 * tau)
        result_warn(r,
                    "checkpoint write (%.0f s) exceeds 10%% of the "
                    "checkpoint interval (%.0f s)",
                    delta, tau);
    if (rel->goodput < 0.5 && !rel->never)
        result_warn(r,
                    "goodput %.0f%%: failures every %.2g h waste most of "
                    "the run",
                    100 * rel->goodput, rel->cluster_mtbf_h);
}
