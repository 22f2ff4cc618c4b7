/*
 * load.h - the seam between workloads and the fleet models.
 *
 * Energy, network, storage and cost do not know what the GPUs run: they
 * read struct load_result (result.h), which each workload fills - the
 * GPUs and nodes provisioned, the wall-clock hours they draw power, the
 * GPU-hours paid for, the goodput and the mean power fraction.  Training
 * fills it from step time and reliability (load_train); serving from its
 * replicas and the daily demand profile (serve.c).
 *
 * Never: I/O, allocation, reading a workload's own inputs from another
 * module.
 */
#ifndef LLMPLAN_CORE_LOAD_H
#define LLMPLAN_CORE_LOAD_H

#include "result.h"
#include "spec.h"

/* The fleet part: gpus (>= 1), nodes of the system, the accelerator's
 * power fraction (or energy.h's default), goodput 1, no hours. */
void load_fleet(const struct scenario *sc, double gpus,
                struct load_result *out /* OUT */);

/* Training's load from r->time and r->reliability (already estimated):
 * wall hours = effective_train_days x 24 (steady days when no reliability
 * result), busy GPU-hours = gpu_hours / goodput.  With train.gpu_hours
 * given, that figure is the wall-clock GPU-hours, failures included, and
 * r->time / r->reliability are restated from it (see load.c). */
void load_train(const struct scenario *sc, struct result *r /* IN/OUT */);

#endif
