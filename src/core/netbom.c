/*
 * netbom.c - fat-tree bill of materials (see netbom.h for the model).
 *
 * All arithmetic is in double (exact for integers below 2^53) and converted
 * to counts once at the end, saturating, so 10^7 GPUs or a radix of 2 give
 * big but finite numbers instead of wrapped ones.
 */
#include <math.h>
#include <string.h>

#include "core/netbom.h"

#define COUNT_CAP 4611686018427387904.0 /* 2^62 */

/* Saturating double -> count; x is already integral (a ceil) or 0. */
static uint64_t count_of(double x)
{
    if (!(x > 0))
        return 0;
    if (x >= COUNT_CAP)
        return (uint64_t)COUNT_CAP;
    return (uint64_t)x;
}

/* NaN or negative -> 0, overflow -> 1e300: results stay finite. */
static double clamp_money(double x)
{
    if (!(x > 0))
        return 0;
    return x < 1e300 ? x : 1e300;
}

/* ceil(a / b) for a >= 0, b >= 1, in double. */
static double ceil_div(double a, double b)
{
    return b > 0 ? ceil(a / b) : a;
}

/*
 * Spines of a 2-tier tree: enough ports for all leaf uplinks, rounded up
 * to a divisor of the uplinks per leaf so every leaf spreads its uplinks
 * evenly over the spines.  This is what the NVIDIA H100 SuperPOD table
 * does (reference/catalog.md 3.4): 24 leaves x 32 uplinks need 12 spines
 * by ports, but 32 links do not split evenly over 12, so 16 are built.
 * Monotone in the leaf count, because the smallest divisor >= s grows
 * with s.
 */
static double spines_for(double leaves, double up, double k)
{
    double s = ceil_div(leaves * up, k);
    double d;

    if (up > 65536 || s >= up)
        return s;
    for (d = s; d < up; d++)
        if (fmod(up, d) == 0)
            return d;
    return up;
}

void netbom_estimate(const struct scenario *sc, struct result *r)
{
    struct network_result *n = &r->network;
    double gpus = r->load.gpus >= 1 ? r->load.gpus : 1;
    double gpn =
        sc->system.gpus_per_node >= 1 ? (double)sc->system.gpus_per_node : 1;
    double npr =
        sc->system.nodes_per_rack >= 1 ? (double)sc->system.nodes_per_rack : 1;
    double domain = (double)sc->system.scaleup_domain;
    double k =
        sc->fabric.switch_radix >= 2 ? (double)sc->fabric.switch_radix : 2;
    double o = sc->oversubscription >= 1 ? sc->oversubscription : 1;
    double nodes = ceil_div(gpus, gpn);
    double endpoints, down, up, leaves, spines = 0, cores = 0;
    double isl = 0; /* switch-to-switch links */
    double tiers, cables, xcvrs, switches, nic_usd, nic_w;
    const struct fabric_spec *f = &sc->fabric;

    memset(n, 0, sizeof(*n));
    n->nodes = count_of(nodes);
    n->racks = count_of(ceil_div(nodes, npr));

    /* A job inside one node or one scale-up domain (DGX over NVLink, an
     * NVL72 rack, a TPU slice within its pod over ICI) needs no scale-out
     * fabric: the BOM is empty. */
    if (nodes <= 1 || gpus <= domain)
        return;

    /* One scale-out NIC per accelerator, as DGX/HGX nodes are built
     * (8 x ConnectX-7 400G per DGX H100; reference/catalog.md 3.3). */
    endpoints = gpus;

    /* Leaf port split under oversubscription o (down:up = o:1). */
    down = floor(k * o / (1 + o));
    if (down < 1)
        down = 1;
    if (down > k - 1)
        down = k - 1;
    up = k - down;

    if (endpoints <= k) {
        /* One switch reaches every endpoint directly. */
        tiers = 1;
        leaves = 1;
    } else {
        /* Leaves: rail-optimized puts NIC i of each node of a scalable
         * unit (down nodes) on leaf i; otherwise pack endpoints densely.
         * Both give 8 leaves per 31-32 DGX (SuperPOD RA, one SU). */
        if (f->rail_optimized) {
            double rails = gpn < endpoints ? gpn : endpoints;

            leaves = rails * ceil_div(nodes, down);
        } else {
            leaves = ceil_div(endpoints, down);
        }
        if (leaves <= k) {
            /* Leaf-spine (Al-Fares 2008; 2 tiers up to k^2/2 hosts when
             * o = 1): every leaf reaches every spine. */
            tiers = 2;
            spines = spines_for(leaves, up, k);
            isl = leaves * up;
        } else {
            /* k-ary fat tree: pods of k/2 leaves, each pod with `up`
             * aggregation switches (k/2 down, k/2 up, non-blocking), and
             * cores of k ports taking every aggregation uplink.  With
             * o = 1 and a full tree: k^2/2 edge + k^2/2 agg + k^2/4 core
             * = 5k^2/4 switches for k^3/4 hosts (reference 3.4). */
            double half = floor(k / 2);
            double pods = ceil_div(leaves, half);

            tiers = 3;
            spines = pods * up;
            cores = ceil_div(leaves * up, k);
            isl = 2 * leaves * up;
            if (pods > k)
                result_warn(r,
                            "%.0f endpoints exceed a 3-tier fat tree of "
                            "radix %.0f; switch counts extrapolated",
                            endpoints, k);
        }
    }

    /* Node-to-leaf links are short DAC/AEC copper (no optics); every
     * switch-to-switch link carries a transceiver at each end. */
    cables = endpoints + isl;
    xcvrs = 2 * isl;
    switches = leaves + spines + cores;

    n->tiers = count_of(tiers);
    n->nics = count_of(endpoints);
    n->leaf_switches = count_of(leaves);
    n->spine_switches = count_of(spines);
    n->core_switches = count_of(cores);
    n->cables = count_of(cables);
    n->transceivers = count_of(xcvrs);
    /* NICs are bought (and powered) here only when the node price and
     * host power leave them out: a DGX H100's price and 10.2 kW include
     * its 8 ConnectX-7 (reference 2), and Epoch's x1.64 server multiplier
     * is derived from such whole-system prices. */
    nic_usd = sc->system.nics_included ? 0 : f->nic_price_usd;
    nic_w = sc->system.nics_included ? 0 : f->nic_power_w;
    n->capex_usd = endpoints * nic_usd + switches * f->switch_price_usd +
                   xcvrs * f->transceiver_price_usd +
                   cables * f->cable_price_usd;
    n->power_w = endpoints * nic_w + switches * f->switch_power_w +
                 xcvrs * f->transceiver_power_w;
    n->capex_usd = clamp_money(n->capex_usd);
    n->power_w = clamp_money(n->power_w);
}
