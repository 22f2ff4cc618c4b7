/*
 * energy.h - power draw, energy over the run, emissions, rack density.
 *
 * Model (README "The model"; reference/catalog.md sections 2, 5):
 *   - accelerators: gpus x TDP x accel.power_frac, the calibrated mean
 *     draw while training as a fraction of TDP (measured training draw
 *     sits below TDP); ENERGY_DEFAULT_POWER_FRAC when the catalog has no
 *     value (Epoch AI: average draw = 0.75 x max).
 *   - hosts: nodes x system.host_power_w x ENERGY_HOST_LOAD_FRAC.
 *     host_power_w is the node's maximum minus its accelerators' TDP
 *     (DGX H100: 10.2 kW - 8 x 700 W = 4.6 kW, reference 2), so it is
 *     scaled by Epoch's 0.75 mean-to-max ratio.
 *   - network: the BOM's power (netbom.h); storage: provisioned TB x
 *     storage.watts_per_tb.
 *   - IT = sum; facility = IT x PUE (site.pue; site.liquid_pue for a
 *     direct-liquid hall when lower); energy = power x the
 *     effective (failure-inclusive) run time, at full power throughout;
 *     tCO2e = facility MWh x kgCO2/kWh (MWh x kg/kWh = t).
 *   - rack density: the provisioned (nameplate) draw of the nodes in the
 *     fullest rack, (gpus_per_node x TDP + host_power_w) x min(nodes,
 *     nodes_per_rack) - the figure facilities are built for (NVIDIA RA:
 *     4 DGX H100 = 40.8 kW per rack).  Air-cooled up to
 *     site.air_kw_per_rack (0 = no limit given), air-cooled servers
 *     behind rear-door heat exchangers up to site.rear_door_kw_per_rack
 *     (0 = no rear doors), else direct liquid; a warning when the rack
 *     exceeds the liquid limit or the site has none.
 *   - nameplate IT = nodes x (gpus_per_node x TDP + host_power_w) +
 *     network + storage: the hall is built and leased for it, not for
 *     the mean draw.  Idle IT = ENERGY_IDLE_FRAC x nameplate (cost.h bills
 *     it for the hours the cluster is not busy).
 * Model cards (Llama 2/3) report GPU-hours x TDP, Patterson et al. 2021
 * measured energy: compare with the one that matches.
 */
#ifndef LLMPLAN_CORE_ENERGY_H
#define LLMPLAN_CORE_ENERGY_H

#include "result.h"
#include "spec.h"

#define ENERGY_DEFAULT_POWER_FRAC 0.75 /* Epoch: mean draw / max */
#define ENERGY_HOST_LOAD_FRAC 0.75     /* Epoch: mean draw / max */
/* Idle draw as a fraction of peak: energy-proportional servers idle at
 * about 30% of peak (Barroso, Clidaras and Hoelzle, "The Datacenter as a
 * Computer", 2nd ed. 2013, section 5.3); an ESTIMATE for GPU nodes. */
#define ENERGY_IDLE_FRAC 0.3

/* Fill r->energy.  Reads r->network (nodes, power_w), r->storage (via
 * storage_provisioned_tb), r->reliability.effective_train_days (falls
 * back to r->time.train_days when 0); may warn about rack density. */
void energy_estimate(const struct scenario *sc, struct result *r /* OUT */);

#endif
