/*
 * calibrate.h - fit a training stack's knobs on measured runs: the one
 * fitter, of `llmplan calibrate` on a user's runs and of `make validate`
 * and data/stacks.csv (tests/calibration/fit_stacks.py only drives
 * `llmplan calibrate --all-stacks` / `--loso`, see calibrate_all.c).  The
 * knob list and bounds (CALIB_KNOB_LIST), the objective, the descent, the
 * knobs a stack has by definition and the MoE gating are here alone.
 *
 * A run is a row of a calibration CSV (id, metric, expected, tol, source,
 * sets; tests/data/training_cases.csv): `sets` is space-separated
 * section.key=value plan settings, `metric` one of the names
 * ../shared/acceptance/validate.py reads from `quote --format json`
 * (calib_metric).  Each run is resolved once (plan_resolve: the resolver
 * `quote` uses); a trial sets the stack's knobs in the resolved scenario
 * and evaluates it (plan_evaluate_resolved: the rest of quote's path), so
 * a prediction here is what `quote` prints with that stack row.
 *
 * The fit (calib_fit) is coordinate descent on the mean absolute
 * percentage error over the knobs of CALIB_KNOB_LIST: the knobs that move
 * the runs at all are found first (each pushed to its far bound), then
 * three sweeps of a golden-section search (12 steps) per knob within its
 * bounds.  A run the model refuses counts as 100 % error.  Knob values are
 * evaluated as the catalog would store them (6 significant digits), so a
 * prediction equals `quote` after importing that row.
 *
 * Ownership: struct calib_set is large and caller-owned (calib_set_new /
 * calib_set_free); the catalog is borrowed for calib_resolve only.
 */
#ifndef LLMPLAN_PLAN_CALIBRATE_H
#define LLMPLAN_PLAN_CALIBRATE_H

#include <stdbool.h>
#include <stddef.h>

#include "catalog/catalog.h"
#include "core/diag.h"
#include "plan/resolve.h"

/* The knobs a calibration fits: the stack column (its unit in the name),
 * the struct stack_spec member, the column's scale into that member, the
 * plausible bounds of the effect and the catalog default (`calibrate
 * --format json` lists them with their bounds).  A new knob is one row
 * here (and its column in the stacks table).
 * A framework's kernels reach at least half of the measured ceiling of
 * the same kernel class; host dispatch of eager PyTorch is ~10-20 us. */
#define CALIB_KNOB_LIST(X)                                                     \
    X(GEMM_EFF, "gemm_eff", gemm_eff, 1, 0.50, 1.00, 0.85)                     \
    X(ATTN_EFF, "attn_eff", attn_eff, 1, 0.50, 1.00, 0.80)                     \
    X(FP8_EFF, "fp8_eff", fp8_eff, 1, 0.50, 1.00, 1.00)                        \
    X(KERNEL_US, "kernel_us", kernel_s, 1e-6, 0.0, 20.0, 0.0)                  \
    X(SELECTIVE_KEEP, "selective_keep", selective_keep, 1, 0.20, 1.00, 1.00)   \
    X(EP_OVERLAP, "ep_overlap", ep_overlap, 1, 0.0, 1.00, 0.0)                 \
    X(MOE_IMBALANCE, "moe_imbalance", moe_imbalance, 1, 1.0, 3.0, 1.0)         \
    X(MEM_RESERVE_GIB, "mem_reserve_gib", mem_reserve_bytes, 1073741824.0,     \
      0.25, 8.0, 1.0)

enum calib_knob {
#define CALIB_KNOB_ENUM(e, name, member, scale, lo, hi, dflt) CK_##e,
    CALIB_KNOB_LIST(CALIB_KNOB_ENUM)
#undef CALIB_KNOB_ENUM
        CK_COUNT
};

struct calib_knob_info {
    const char *name; /* the stack column */
    double scale;     /* column unit -> struct stack_spec member */
    double low, high, dflt;
};

const struct calib_knob_info *calib_knob_info(enum calib_knob k);

/* Fewest MoE runs that may tell a stack's dropless routing imbalance (one
 * or two would make it a per-run fit). */
#define CALIB_MOE_RUNS_MIN 3
/* Fewest runs a knob must move to be fitted, any knob: with one or two a
 * knob meets them whatever the physics it stands for (one run, one knob:
 * zero error), so it keeps the value it starts from.  The same rule for
 * `make validate`, `--loso` and `llmplan calibrate`. */
#define CALIB_KNOB_RUNS_MIN 3

#define CALIB_ID_MAX 96
#define CALIB_METRIC_MAX 64

struct calib_run {
    char id[CALIB_ID_MAX];
    char metric[CALIB_METRIC_MAX];
    char source[CP_TEXT_MAX]; /* the whole source cell */
    double expected;
    char *sets;                /* owned */
    bool moe; /* model.experts > 1, dropless and the router not forced
                 even: a run that tells moe_imbalance */
    char stack[CP_ID_MAX];     /* software.stack it names, "" when none */
    struct plan_resolved *res; /* after calib_resolve; owned */
};

struct calib_set {
    size_t n, cap;
    struct calib_run *runs;
};

struct calib_set *calib_set_new(void);
void calib_set_free(struct calib_set *cs);

/* Read a calibration CSV (name for messages).  Errors name the file, the
 * line and the column: a missing column, an empty id, an expected value
 * that is not a positive number, an unknown metric, a setting that is not
 * section.key=value of a known key. */
enum cp_status calib_read(struct calib_set *cs, const char *name, FILE *fp,
                          struct diag *d);

/* Keep only the runs of stack (a run naming no stack is one of it); the
 * number dropped goes to *dropped. */
void calib_filter_stack(struct calib_set *cs, const char *stack,
                        size_t *dropped /* OUT */);

/* Resolve every run against cat with software.stack = stack (NULL: the
 * stack the run names, or the accelerator's own).  An error names the run
 * and the key ("RUN-ID: parallel.tp: ..."). */
enum cp_status calib_resolve(struct calib_set *cs, struct catalog *cat,
                             const char *stack, struct diag *d);

/* Evaluate every resolved run with its stack as resolved: an error names
 * the run (a run the model refuses is bad input, not a 100 % miss).  A
 * run that leaves its layout to the search gets the layout the search
 * picks here, held for the fit (a measured run had one layout; searching
 * at every trial would cost seconds per run).  *pinned: how many. */
enum cp_status calib_pin_layouts(struct calib_set *cs, size_t *pinned /* OUT */,
                                 struct diag *d);

/* The knob values of a stack row, in column units. */
void calib_knobs_of(const struct stack_spec *st, double knobs[CK_COUNT]);
/* Set the knobs of a stack row (column units; stored as the catalog
 * would store them). */
void calib_set_knobs(struct stack_spec *st, const double knobs[CK_COUNT]);

/* The metric `name` of an evaluated plan, read as validate.py's metric()
 * reads it from `quote --format json`: step_s, mfu, tokens_per_s_per_gpu
 * (tokens_per_s / gpus), total_gib, model_states_gib, ... or a dotted
 * "section.key" of the export metric table.  false when unknown. */
bool calib_metric(const char *name, const struct plan_outcome *out,
                  double *v /* OUT */);
/* Whether calib_metric knows name. */
bool calib_metric_known(const char *name);

/* The prediction for run i of cs under stack st with knobs applied;
 * false when the model refuses the plan or the value is not finite. */
bool calib_predict(const struct calib_set *cs, size_t i,
                   const struct stack_spec *st, const double knobs[CK_COUNT],
                   double *v /* OUT */);

/* Mean absolute percentage error of runs sel[0..nsel) (a refused run
 * counts 1); with errs, each run's signed error (refused: 1). */
double calib_score(const struct calib_set *cs, const size_t *sel, size_t nsel,
                   const struct stack_spec *st, const double knobs[CK_COUNT],
                   double *errs /* OUT, may be NULL */);

/* Why a knob is not fitted. */
enum calib_skip {
    CALIB_FIT,       /* fitted */
    CALIB_NO_EFFECT, /* moving it over its range does not change the runs */
    CALIB_NO_MEMORY, /* mem_reserve_gib: no run measures total_gib */
    CALIB_FEW_MOE,   /* moe_imbalance: fewer than CALIB_MOE_RUNS_MIN */
    CALIB_FEW_RUNS,  /* it moves fewer than CALIB_KNOB_RUNS_MIN runs */
    CALIB_DEFINED,   /* the stack has it by definition (selective_keep of
                        the Megatron stacks: 1; kernel_us of maxtext: 0) */
};

struct calib_fit {
    double start[CK_COUNT]; /* the stack row's knobs, clamped */
    double knobs[CK_COUNT]; /* fitted (= start for knobs not fitted) */
    enum calib_skip why[CK_COUNT];
    size_t moved[CK_COUNT]; /* runs the knob moves (at its far bound) */
    size_t nactive, moe_runs;
    double before, after; /* MAPE at start and fitted */
};

/* Fit the knobs of stack st on runs sel[0..nsel) (sel NULL: all), from
 * the row's values.  A knob is fitted only when it moves at least
 * CALIB_KNOB_RUNS_MIN of the runs (and moe_imbalance CALIB_MOE_RUNS_MIN
 * dropless MoE runs); otherwise it keeps its start. */
void calib_fit(const struct calib_set *cs, const size_t *sel, size_t nsel,
               const struct stack_spec *st, struct calib_fit *out /* OUT */);

/* What a fit's knobs are as the stack row stores them: the fitted and
 * the defined knobs to 3 significant digits (as data/stacks.csv has
 * them), the others as they started. */
void calib_written_knobs(const struct calib_fit *fit,
                         double written[CK_COUNT] /* OUT */);

/* Why a knob was (not) fitted, for reports ("fitted", "does not move
 * these runs", ...). */
const char *calib_why_text(enum calib_skip w);

/* ---- every stack at once, leave one source out (calibrate_all.c) -------
 * What `make validate` asks (tests/calibration/fit_stacks.py drives
 * `llmplan calibrate --all-stacks` / `--loso`): the runs resolved with
 * their own stacks (calib_resolve with stack NULL), grouped by stack, each
 * stack fitted on its own runs. */

/* The publication of a run: its source text before the first ';',
 * trimmed (what leave-one-source-out holds out together). */
void calib_source_of(const char *source, char *buf, size_t n);

struct calib_group {
    struct stack_spec st; /* the stack's catalog row */
    size_t *sel, nsel;    /* owned: its runs, indexes into the set */
};

struct calib_groups {
    size_t n;
    struct calib_group *g; /* owned; in order of the stacks' first run */
};

/* Group the resolved runs of cs by the stack they resolved to. */
enum cp_status calib_group_stacks(const struct calib_set *cs,
                                  struct catalog *cat,
                                  struct calib_groups *gs /* OUT */,
                                  struct diag *d);
void calib_groups_release(struct calib_groups *gs);

/* The knobs of a stack without runs to fit on: per knob, the median of
 * the stated cells of the other training stacks' rows in cat (except:
 * the stack left out), the knob's default when none states it. */
enum cp_status calib_typical_knobs(struct catalog *cat, const char *except,
                                   double knobs[CK_COUNT] /* OUT */,
                                   struct diag *d);

struct calib_loso_case {
    size_t run;                      /* index into the set */
    const struct calib_group *group; /* borrowed from the groups */
    double predicted;                /* NAN: the model refused it */
    double error;                    /* signed; refused: 1 */
    size_t fitted; /* knobs fitted on the other sources' runs */
    bool fallback; /* none: the typical stack's knobs (calib_typical_knobs),
                      no run of the stack from another source or none
                      that CALIB_KNOB_RUNS_MIN of them move */
};

/* Leave one source out: for every source (in strcmp order) and every
 * stack of its runs (in id order), the stack fitted on its runs from the
 * other sources predicts that source's runs.  The fit starts from the
 * typical knobs, not from the stack's row (which was fitted with the
 * held-out source): a knob those runs do not tell (calib_fit's rule)
 * stays typical.  *out (caller frees) gets one entry per run, in that
 * order. */
enum cp_status calib_loso(const struct calib_set *cs,
                          const struct calib_groups *gs, struct catalog *cat,
                          struct calib_loso_case **out, size_t *nout /* OUT */,
                          struct diag *d);

#endif
