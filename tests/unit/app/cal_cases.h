/*
 * cal_cases.h - published runs from a calibration CSV (columns id, metric,
 * expected, tol, source, sets, as ../shared/calibration/ has them) through
 * the whole path: plan keys -> catalog -> core, and the metric read the
 * way validate.py reads it from `quote --format json`.  Shared by the
 * training and the serving calibration suites.
 */
#ifndef LLMPLAN_TESTS_CAL_CASES_H
#define LLMPLAN_TESTS_CAL_CASES_H

#include <stddef.h>

#include "catalog/catalog.h"
#include "plan/resolve.h"

#define CAL_CASES_MAX 256

struct cal_case {
    char id[64];
    char metric[64];
    char source[32]; /* the first words of the source: the publication */
    double expected, tol;
    double half_unit; /* half a unit in the last digit published */
    char sets[2048];
};

struct cal_set {
    size_t n;
    struct cal_case c[CAL_CASES_MAX];
};

/* Load the first of `paths` that can be read; fails the test when none
 * can, or when it holds fewer than `at_least` cases. */
void cal_load(struct cal_set *cs, const char *const *paths, size_t npaths,
              size_t at_least);

/* Evaluate one case's plan (its `sets`, searched by time where a key is
 * auto); fails the test naming the case when the plan is refused.  The
 * outcome is static: valid until the next call. */
const struct plan_outcome *cal_run(struct catalog *cat,
                                   const struct cal_case *c);

/* The metric `name` of an outcome: a dotted name ("serve.tpot_ms")
 * through the export metric table, else validate.py's training names
 * (step_s, mfu, tokens_per_s_per_gpu, total_gib, ...). */
double cal_metric(const char *name, const struct plan_outcome *out);

/* (predicted - published) / published for one case. */
double cal_error(struct catalog *cat, const struct cal_case *c);

#endif
