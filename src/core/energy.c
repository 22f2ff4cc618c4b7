/*
 * energy.c - power, energy, emissions and cooling (see energy.h).
 */
#include <math.h>
#include <string.h>

#include "core/clamp.h"
#include "core/energy.h"
#include "core/storage.h"

void energy_estimate(const struct scenario *sc, struct result *r)
{
    struct energy_result *e = &r->energy;
    double gpn =
        sc->system.gpus_per_node >= 1 ? (double)sc->system.gpus_per_node : 1;
    double npr =
        sc->system.nodes_per_rack >= 1 ? (double)sc->system.nodes_per_rack : 1;
    double nodes = r->network.nodes >= 1 ? (double)r->network.nodes
                                         : clamp_pos(r->load.nodes);
    /* a power cap (hardware.power_limit_w) bounds the board's draw */
    double tdp =
        clamp_pos(sc->power_limit_w > 0 && sc->power_limit_w < sc->accel.tdp_w
                      ? sc->power_limit_w
                      : sc->accel.tdp_w);
    double pf =
        r->load.power_frac > 0 ? r->load.power_frac : ENERGY_DEFAULT_POWER_FRAC;
    double host = clamp_pos(sc->system.host_power_w);
    double hours, node_peak_kw, air, liquid, rear;

    memset(e, 0, sizeof(*e));

    /* Mean draw under training load: TDP x calibrated fraction for the
     * accelerators, Epoch's 0.75 of maximum for the rest of the node
     * (reference 2 and 8). */
    e->gpu_kw = clamp_pos(r->load.gpus * tdp * pf / 1000);
    e->host_kw = clamp_pos(nodes * host * ENERGY_HOST_LOAD_FRAC / 1000);
    e->network_kw = clamp_pos(r->network.power_w / 1000);
    e->storage_kw = clamp_pos(storage_provisioned_tb(sc, r) *
                              sc->storage.watts_per_tb / 1000);
    e->it_kw =
        clamp_pos(e->gpu_kw + e->host_kw + e->network_kw + e->storage_kw);
    /* The provisioned draw the hall, its power and cooling are built for:
     * every node at its maximum (accelerators at TDP plus host), the
     * fabric and storage at their rated power. */
    node_peak_kw = (gpn * tdp + host) / 1000;
    e->nameplate_it_kw =
        clamp_pos(nodes * node_peak_kw + e->network_kw + e->storage_kw);
    if (e->nameplate_it_kw < e->it_kw)
        e->nameplate_it_kw = e->it_kw;
    /* A powered but idle cluster still draws ENERGY_IDLE_FRAC of its
     * nameplate. */
    e->idle_it_kw = clamp_pos(e->nameplate_it_kw * ENERGY_IDLE_FRAC);
    if (e->idle_it_kw > e->it_kw)
        e->idle_it_kw = e->it_kw;

    /* Rack density at nameplate power (what cooling is built for): room
     * air up to the site's air limit, air-cooled servers behind rear-door
     * heat exchangers up to its rear-door limit, direct liquid above. */
    e->rack_kw = clamp_pos(node_peak_kw * (nodes < npr ? nodes : npr));
    air = sc->site.air_kw_per_rack;
    rear = sc->site.rear_door_kw_per_rack;
    liquid = sc->site.liquid_kw_per_rack;
    e->cooling = COOLING_AIR;
    if (air > 0 && e->rack_kw > air) {
        if (rear > air && e->rack_kw <= rear) {
            e->cooling = COOLING_REAR_DOOR;
        } else {
            e->cooling = COOLING_LIQUID;
            if (!(liquid > 0))
                result_warn(r,
                            "racks draw %.1f kW, above the site's %.0f kW "
                            "air limit, and the site has no liquid cooling",
                            e->rack_kw, rear > air ? rear : air);
            else if (e->rack_kw > liquid)
                result_warn(r,
                            "racks draw %.1f kW, above the site's %.0f kW "
                            "liquid-cooling limit",
                            e->rack_kw, liquid);
        }
    }
    /* PUE is defined as facility power / IT power (The Green Grid).  A
     * direct-liquid hall moves most heat without chillers or room fans:
     * site.liquid_pue when it is lower than the site's. */
    e->pue = clamp_pos(sc->site.pue);
    if (e->cooling == COOLING_LIQUID && sc->site.liquid_pue >= 1 &&
        sc->site.liquid_pue < e->pue)
        e->pue = sc->site.liquid_pue;
    e->facility_kw = clamp_pos(e->it_kw * e->pue);

    /* Energy over the wall-clock hours of the load (training: the run,
     * failures and restarts included; serving: one day). */
    hours = clamp_pos(r->load.wall_h);
    e->it_mwh = clamp_pos(e->it_kw * hours / 1000);
    e->facility_mwh = clamp_pos(e->facility_kw * hours / 1000);
    /* MWh x kg/kWh = 1000 kWh x kg/kWh = 1000 kg = t. */
    e->tco2e = clamp_pos(e->facility_mwh * sc->site.kgco2_per_kwh);
}
