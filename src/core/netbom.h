/*
 * netbom.h - bill of materials of the scale-out network: nodes, racks,
 * NICs, switches, cables and transceivers, with their price and power.
 *
 * Model (README "The model"; reference/catalog.md section
 * 3.4).  The fabric is a folded-Clos ("fat tree") of radix-k switches, as
 * in Al-Fares et al., SIGCOMM 2008:
 *
 *   - endpoints E = one scale-out NIC per accelerator (DGX/HGX practice:
 *     8 x ConnectX-7 per DGX H100).  A job that fits in one scale-up
 *     domain (or in one node) needs no scale-out fabric at all: a single
 *     DGX talks over NVLink, a TPU slice within its pod over ICI.  Then
 *     tiers = 0 and every switch/cable/NIC count is 0 (storage and
 *     data-centre network are outside this BOM).
 *   - oversubscription o >= 1 at the leaf moves ports from up to down:
 *     down = k*o/(1+o), up = k - down (o = 1: k/2 and k/2).
 *   - 1 tier when E <= k; 2 tiers (leaf-spine) while the leaves fit the
 *     spine radix (L <= k, i.e. E <= k^2/2 non-blocking); 3 tiers (pods of
 *     k/2 leaves and `up` aggregation switches, plus cores) beyond, up to
 *     k^3/4 endpoints non-blocking.  Larger jobs are counted by extending
 *     the 3-tier formulas linearly, with a warning.
 *   - cables = endpoint links + switch-to-switch links; transceivers = 2
 *     per switch-to-switch link (optics on both ends); node-to-leaf links
 *     are assumed short copper (DAC/AEC) with no transceivers.
 *   - rail-optimized (DGX SuperPOD): NIC i of every node of a scalable
 *     unit goes to leaf i, so leaves = rails x ceil(nodes / down) - the
 *     same count as the plain tree whenever the nodes fill whole scalable
 *     units, and a little higher for a partial one.
 *
 * NIC price and power are counted only when system.nics_included is
 * false: whole-system prices (DGX) and host power already include them.
 *
 * Pure: no I/O, no allocation.  Every count is capped at 2^62 so absurd
 * inputs never wrap around.
 */
#ifndef LLMPLAN_CORE_NETBOM_H
#define LLMPLAN_CORE_NETBOM_H

#include "result.h"
#include "spec.h"

/* Fill r->network from sc (gpus, system, fabric, oversubscription).  Reads
 * nothing else of r; may append warnings to r.  sc must be validated. */
void netbom_estimate(const struct scenario *sc, struct result *r /* OUT */);

#endif
