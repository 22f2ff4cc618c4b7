/*
 * bounds.h - the ranges that a plan key (plan/plan.c), a catalog column
 * (catalog/catalog_kinds.c) and scenario_validate() (core/scenario.c) all
 * check, written once.  They used to disagree (a cloud price could be
 * imported at $5,000 per GPU-hour that --set refused above $1,000, and a
 * plan could not say what the core accepted); check_plan's
 * test_bounds_agree compares the plan keys with the catalog columns.
 *
 * Choice lists come from the enum X-lists of spec.h the same way: the
 * texts a plan key or a catalog column accepts are the names the code
 * prints (TERM_CHOICES).
 */
#ifndef LLMPLAN_CORE_BOUNDS_H
#define LLMPLAN_CORE_BOUNDS_H

#include "core/spec.h"

/* site: a PUE of 1 is a perfect facility; 5 no real one reaches; power
 * prices and grid intensity an order above any published tariff/grid */
#define B_PUE_MIN 1.0
#define B_PUE_MAX 5.0
#define B_USD_PER_KWH_MAX 10.0
#define B_KGCO2_PER_KWH_MAX 5.0

/* model shape: wider than any published model by two orders, narrow
 * enough that every product in the model stays far from overflow.  A 0 in
 * a catalog row stands for "from the shape" where the column says so. */
/* fewer than 1000 parameters describes no transformer the shape can be
 * derived for */
#define B_MODEL_PARAMS_MIN 1e3
#define B_MODEL_PARAMS_MAX 1e15
#define B_MODEL_LAYERS_MAX 1e5
#define B_MODEL_WIDTH_MAX 1048576.0 /* hidden, MLA ranks */
#define B_MODEL_HEADS_MAX 65536.0   /* heads, head dims, experts */
#define B_MODEL_FFN_MAX 4194304.0   /* dense and expert FFN width */
#define B_MODEL_VOCAB_MAX 16777216.0
#define B_MODEL_MOE_EVERY_MAX 1000.0

/* cluster: more accelerators than anyone has (2^24) */
#define B_GPUS_MAX 16777216.0
/* a count of GPUs, sequences, tokens of one request or users: 2^24, more
 * than anyone has */
#define B_COUNT_MAX 16777216.0

/* reliability: a node's mean time between interruptions, hours (the
 * largest published figure is under 1e5) */
#define B_NODE_MTBF_H_MIN 1.0
#define B_NODE_MTBF_H_MAX 1e9

/* cloud: a negotiated or listed price per accelerator-hour */
#define B_USD_PER_GPU_HOUR_MAX 1e4

/* fat-tree oversubscription at the leaf (1: non-blocking) */
#define B_OVERSUBSCRIPTION_MIN 1.0
#define B_OVERSUBSCRIPTION_MAX 64.0

/* "on_demand|reserved_1y|reserved_3y|spot", from TERM_LIST: an address
 * constant, so static tables can hold it. */
#define TERM_CHOICE_(name, str) "|" str
#define TERM_CHOICES (("" TERM_LIST(TERM_CHOICE_)) + 1)

#endif
