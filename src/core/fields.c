/*
 * fields.c - the field table (see fields.h) and the checks that read it.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "core/bounds.h"
#include "core/fields.h"
#include "core/spec.h"

/* Enums are stored through int (PS_INT). */
_Static_assert(sizeof(enum precision) == sizeof(int), "enum size");
_Static_assert(sizeof(enum recompute) == sizeof(int), "enum size");
_Static_assert(sizeof(enum model_attention) == sizeof(int), "enum size");
_Static_assert(sizeof(enum workload_kind) == sizeof(int), "enum size");
_Static_assert(sizeof(enum serve_mode) == sizeof(int), "enum size");
_Static_assert(sizeof(enum serve_dtype) == sizeof(int), "enum size");
_Static_assert(sizeof(enum serve_disagg) == sizeof(int), "enum size");
_Static_assert(sizeof(enum recipe_switch) == sizeof(int), "enum size");
_Static_assert(sizeof(enum cuda_graphs) == sizeof(int), "enum size");
_Static_assert(sizeof(enum moe_dispatcher) == sizeof(int), "enum size");
_Static_assert(sizeof(enum fp8_scaling) == sizeof(int), "enum size");
_Static_assert(sizeof(enum offload) == sizeof(int), "enum size");
_Static_assert(sizeof(enum serve_offload) == sizeof(int), "enum size");
_Static_assert(sizeof(enum serve_pct) == sizeof(int), "enum size");

/* train.grad_dtype offers three of the precisions, in this order. */
static const int grad_dtype_values[] = {PREC_FP32, PREC_BF16, PREC_FP16};

#define OFF(member) offsetof(struct scenario, member)

static const struct field_info field_table[FIELD_COUNT] = {
#define FIELD_ROW(id, sec, k, type, flags, lo, hi, unit, choices, values, ref, \
                  def, store, off, help)                                       \
    [FLD_##id] = {sec "." k, sec,    k,   type, flags, lo,  hi,  unit,         \
                  choices,   values, ref, def,  store, off, help},
    FIELD_LIST(FIELD_ROW)
#undef FIELD_ROW
};

const char *const field_sections[] = {
    "model",    "workload", "software", "train", "serve",       "hardware",
    "parallel", "site",     "finance",  "cloud", "reliability", NULL,
};

const struct field_info *field_info(enum field_id f)
{
    return (unsigned)f < FIELD_COUNT ? &field_table[f] : NULL;
}

enum cp_status field_find(const char *name, enum field_id *out)
{
    size_t i;

    for (i = 0; i < FIELD_COUNT; i++) {
        if (strcmp(field_table[i].name, name) == 0) {
            *out = (enum field_id)i;
            return CP_OK;
        }
    }
    return CP_ERR_NOT_FOUND;
}

size_t field_enum_count(const struct field_info *fi)
{
    size_t n = 1;
    const char *c;

    if (!fi->choices)
        return 0;
    for (c = fi->choices; *c; c++)
        n += *c == '|';
    return n;
}

const char *field_enum_choice(const struct field_info *fi, size_t i, char *buf,
                              size_t n)
{
    const char *c = fi->choices;
    size_t len;

    while (c && i-- > 0) {
        c = strchr(c, '|');
        if (c)
            c++;
    }
    if (!c) {
        buf[0] = '\0';
        return buf;
    }
    len = strcspn(c, "|");
    snprintf(buf, n, "%.*s", (int)len, c);
    return buf;
}

enum cp_status field_check_count(enum field_id f, uint64_t v, struct diag *d)
{
    const struct field_info *fi = &field_table[f];

    if (v == 0 && (fi->flags & PKF_ZERO_UNSET))
        return CP_OK;
    if ((double)v < fi->min || (double)v > fi->max)
        return diag_set(d, CP_ERR_RANGE, fi->name,
                        "%llu is out of range [%g, %g]", (unsigned long long)v,
                        fi->min, fi->max);
    return CP_OK;
}

enum cp_status field_check_real(enum field_id f, double v, struct diag *d)
{
    const struct field_info *fi = &field_table[f];

    if (v == 0 && (fi->flags & PKF_ZERO_UNSET))
        return CP_OK;
    if (!isfinite(v) || v < fi->min || v > fi->max)
        return diag_set(d, CP_ERR_RANGE, fi->name,
                        "%g is out of range [%g, %g]", v, fi->min, fi->max);
    return CP_OK;
}

enum cp_status field_check_enum(enum field_id f, int v, struct diag *d)
{
    const struct field_info *fi = &field_table[f];
    size_t i, n = field_enum_count(fi);
    char words[256], one[64];
    size_t len = 0;

    for (i = 0; i < n; i++)
        if (fi->enum_values ? fi->enum_values[i] == v : (int)i == v)
            return CP_OK;
    words[0] = '\0';
    for (i = 0; i < n && len < sizeof(words); i++) {
        field_enum_choice(fi, i, one, sizeof(one));
        len += (size_t)snprintf(words + len, sizeof(words) - len, "%s%s",
                                i == 0       ? ""
                                : i + 1 == n ? " or "
                                             : ", ",
                                one);
    }
    return diag_set(d, CP_ERR_RANGE, fi->name, "must be %s", words);
}
