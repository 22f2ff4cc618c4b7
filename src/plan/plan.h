/*
 * plan.h - a plan: the user's inputs, as given, before the catalog fills
 * the gaps.  One table of keys (the field table, core/fields.h) drives
 * INI parsing, --set, the shortcut options, validation messages, the INI
 * writer, the JSON "plan" echo, the CSV, --help and the TUI form.
 *
 * A struct plan is plain data (no heap): for every key whether it was set,
 * whether it is "auto", and its parsed value.  Values are checked for
 * syntax and bounds when set (CP_ERR_PARSE / CP_ERR_RANGE with d->where
 * naming the key, or the option it came from); whether catalog ids exist
 * and whether the layout divides the model is plan_resolve's job.
 *
 * Never: I/O beyond reading a plan file, catalog access, evaluation.
 */
#ifndef LLMPLAN_PLAN_PLAN_H
#define LLMPLAN_PLAN_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "catalog/catalog.h"
#include "core/diag.h"
#include "core/fields.h"
#include "core/spec.h"
#include "plan/plan_keys.h"
#include "util/strbuf.h"

/* A plan key's row is a field of core/fields.h: its type, bounds,
 * choices, default, help and where it lands in struct scenario. */

/* The row of key k; never NULL for k < PLAN_KEY_COUNT. */
const struct field_info *plan_key_info(enum plan_key k);

/* Look a key up by "section.key".  CP_ERR_NOT_FOUND when unknown. */
enum cp_status plan_key_find(const char *name, enum plan_key *out /* OUT */);

/* Sections in schema order, NULL-terminated ("model", "train", ...):
 * core's field_sections. */
extern const char *const *const plan_sections;

/* The catalog kind an ID key names (CATALOG_KIND_COUNT for other keys). */
enum catalog_kind plan_key_kind(const struct field_info *ki);

struct plan_value {
    bool set;
    bool is_auto;
    const char *origin; /* static option name ("--gpus") or NULL */
    uint64_t u;         /* COUNT; also BOOL (0/1) and ENUM (choice index) */
    double d;           /* NUMBER */
    char id[CP_ID_MAX]; /* ID */
};

#define PLAN_NAME_MAX 128

struct plan {
    char name[PLAN_NAME_MAX]; /* column header: file stem, @NAME or "plan" */
    struct plan_value v[PLAN_KEY_COUNT];
    /* The model was replaced as a whole (plan_set_model): plan_merge of
     * this plan into another drops the other's model keys first. */
    bool model_replaced;
};

/* An empty plan named name (NULL: "plan"). */
void plan_init(struct plan *p, const char *name);

/* Parse value for key k and store it.  origin (a static string such as
 * "--gpus", or NULL) names the input in messages and is remembered for
 * resolution errors.  On error p is unchanged and d->where is origin or
 * the key name. */
enum cp_status plan_set_key(struct plan *p, enum plan_key k, const char *value,
                            const char *origin, struct diag *d);

/* Replace the model of p by m (a model read by hfconfig_read): every
 * model.* key of p is unset, then set from m's field, except model.preset
 * and model.params, which stay unset (the count is derived from the
 * shape), and keys whose value is 0 where 0 is out of the key's range
 * (kv_lora_rank of a model without MLA); p->model_replaced is set.  origin is remembered as for plan_set_key.  On error (a
 * value out of a key's bounds, d->where naming the key) p is unchanged. */
enum cp_status plan_set_model(struct plan *p, const struct model_spec *m,
                              const char *origin, struct diag *d);

/* "section.key=value" as given to --set.  CP_ERR_USAGE when there is no
 * '=', CP_ERR_USAGE "unknown key" (d->where = the key) for unknown keys. */
enum cp_status plan_set_assignment(struct plan *p, const char *assignment,
                                   struct diag *d);

/* Parse INI text into p (keys add to / replace what p has).  name is used
 * in messages: "name:line: model.heads: ...". */
enum cp_status plan_parse_ini(struct plan *p, const char *name,
                              const char *text, struct diag *d);

/* Read and parse a plan file; p->name becomes the file's stem.
 * CP_ERR_NOT_FOUND (exit 2) when it cannot be read, naming the path. */
enum cp_status plan_load_file(struct plan *p, const char *path, struct diag *d);

/* Copy every key set in src over dst; when src->model_replaced, dst's
 * model keys are unset first (the model is src's alone). */
void plan_merge(struct plan *dst, const struct plan *src);

/* The value of key k as plan-file text ("auto", "15000000000000", "bf16");
 * "" when unset.  Returns buf. */
const char *plan_format_value(const struct plan *p, enum plan_key k, char *buf,
                              size_t n);

/* Number as plan text: the shortest %g that reads back identically. */
void plan_format_number(double v, char *buf, size_t n);

/* Write the set keys as INI, sections in schema order (plan_parse_ini of
 * the text gives back an equal plan).  Appends to out. */
enum cp_status plan_write_ini(const struct plan *p, struct strbuf *out);

/* Same values set (origins and names are ignored). */
bool plan_equal(const struct plan *a, const struct plan *b);

/* The number of choices of an ENUM key, and the i-th choice into buf. */
size_t plan_enum_count(const struct field_info *ki);
const char *plan_enum_choice(const struct field_info *ki, size_t i,
                             char *buf, size_t n);

#endif
