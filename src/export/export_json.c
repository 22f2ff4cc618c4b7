/*
 * export_json.c - JSON through jansson, the only code that includes
 * <jansson.h>.  Keys in metric-table order (JSON_PRESERVE_ORDER); numbers
 * are jansson reals (%.17g, locale-independent) or integers for counts.
 */
#include <assert.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "export/export.h"
#include "export/metrics.h"
#include "util/xalloc.h"

/* jansson allocates through xalloc_try, so an exhausted heap is
 * CP_ERR_NOMEM rather than an abort, and the tests can make it fail. */
static void *json_alloc(size_t n)
{
    return xalloc_try(n);
}

static void use_xalloc(void)
{
    json_set_alloc_funcs(json_alloc, free);
}

/* set_new() steals the reference; NULL values mean OOM. */
static int set_new(json_t *obj, const char *key, json_t *v)
{
    if (!v)
        return -1;
    return json_object_set_new(obj, key, v);
}

static json_t *number(double x)
{
    assert(isfinite(x));
    return json_real(x);
}

/* The object for a (possibly dotted) section, created on first use. */
static json_t *section_obj(json_t *root, const char *section)
{
    char part[64];
    json_t *cur = root;

    while (*section && cur) {
        size_t n = strcspn(section, ".");
        json_t *next;

        snprintf(part, sizeof(part), "%.*s", (int)n, section);
        next = json_object_get(cur, part);
        if (!next) {
            next = json_object();
            if (!next || json_object_set_new(cur, part, next) != 0)
                return NULL;
        }
        cur = next;
        section += n;
        if (*section == '.')
            section++;
    }
    return cur;
}

static int add_plan(json_t *root, const struct export_item *it)
{
    json_t *plan = json_object();
    size_t s, k;

    if (!plan || json_object_set_new(root, "plan", plan) != 0)
        return -1;
    for (s = 0; plan_sections[s]; s++) {
        json_t *sec;

        if (!metric_section_applies(plan_sections[s], it->r->workload))
            continue;
        sec = json_object();
        if (!sec || json_object_set_new(plan, plan_sections[s], sec) != 0)
            return -1;
        for (k = 0; k < PLAN_KEY_COUNT; k++) {
            const struct field_info *ki = plan_key_info((enum plan_key)k);
            struct plan_echo e;
            json_t *v = NULL;

            if (strcmp(ki->section, plan_sections[s]) != 0)
                continue;
            plan_echo_value(it->sc, it->r, (enum plan_key)k, &e);
            switch (e.type) {
            case PT_COUNT:
                v = json_integer((json_int_t)e.u);
                break;
            case PT_NUMBER:
                v = number(e.d);
                break;
            case PT_BOOL:
                v = json_boolean(e.u != 0);
                break;
            case PT_ENUM:
            case PT_ID:
                v = json_string(e.s);
                break;
            }
            if (set_new(sec, ki->key, v) != 0)
                return -1;
        }
    }
    return 0;
}

static json_t *quote_object(const struct export_item *it)
{
    json_t *root = json_object();
    json_t *warn;
    const struct metric *tab;
    size_t n, i;

    if (!root || add_plan(root, it) != 0)
        goto fail;
    tab = metrics_table(&n);
    for (i = 0; i < n; i++) {
        const struct metric *m = &tab[i];
        json_t *sec, *v;

        if (!metric_section_applies(m->section, it->r->workload))
            continue;
        sec = section_obj(root, m->section);
        if (!sec)
            goto fail;
        if (!metric_known(m, it->r)) {
            /* No value (a missing price, no break-even): null, never a
             * number that reads like one. */
            if (set_new(sec, m->key, json_null()) != 0)
                goto fail;
            continue;
        }
        switch (m->kind) {
        case MK_U64:
        case MK_INT:
            v = json_integer((json_int_t)metric_value(m, it->r));
            break;
        case MK_BOOL:
            v = json_boolean(metric_value(m, it->r) != 0);
            break;
        case MK_TEXT:
            v = json_string(metric_text(m, it->r));
            break;
        default:
            v = number(metric_value(m, it->r));
            break;
        }
        if (set_new(sec, m->key, v) != 0)
            goto fail;
    }
    warn = json_array();
    if (!warn || json_object_set_new(root, "warnings", warn) != 0)
        goto fail;
    for (i = 0; i < it->r->nwarnings && i < RESULT_MAX_WARNINGS; i++)
        if (json_array_append_new(warn, json_string(it->r->warnings[i])) != 0)
            goto fail;
    return root;
fail:
    json_decref(root);
    return NULL;
}

static enum cp_status dump(json_t *doc, FILE *out, struct diag *d)
{
    int rc;

    if (!doc)
        return diag_set(d, CP_ERR_NOMEM, "json", "out of memory");
    rc = json_dumpf(doc, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    json_decref(doc);
    if (rc != 0 && !ferror(out))
        return diag_set(d, CP_ERR_NOMEM, "json", "out of memory");
    if (rc != 0 || fputc('\n', out) == EOF)
        return diag_set(d, CP_ERR_IO, "json", "cannot write output");
    return CP_OK;
}

enum cp_status export_json_quote(FILE *out, const struct export_item *it,
                                 struct diag *d)
{
    use_xalloc();
    return dump(quote_object(it), out, d);
}

static json_t *array_of(const struct export_item *items, size_t n)
{
    json_t *arr = json_array();
    size_t i;

    for (i = 0; arr && i < n; i++) {
        json_t *q = quote_object(&items[i]);

        if (!q || json_array_append_new(arr, q) != 0) {
            json_decref(arr);
            return NULL;
        }
    }
    return arr;
}

enum cp_status export_json_compare(FILE *out, const struct export_item *items,
                                   size_t n, struct diag *d)
{
    json_t *root;

    use_xalloc();
    root = json_object();

    if (root && set_new(root, "plans", array_of(items, n)) != 0) {
        json_decref(root);
        root = NULL;
    }
    return dump(root, out, d);
}

enum cp_status export_json_search(FILE *out, const struct export_search *s,
                                  const struct export_item *items, size_t n,
                                  struct diag *d)
{
    return export_json_search_ex(out, s, false, items, n, d);
}

enum cp_status export_json_search_ex(FILE *out, const struct export_search *s,
                                     bool stopped_early,
                                     const struct export_item *items, size_t n,
                                     struct diag *d)
{
    json_t *root, *stats;

    use_xalloc();
    root = json_object();

    if (!root)
        return dump(NULL, out, d);
    if (set_new(root, "search", json_object()) != 0)
        goto fail;
    stats = json_object_get(root, "search");
    if (set_new(stats, "objective", json_string(s->objective)) != 0 ||
        set_new(stats, "evaluated", json_integer((json_int_t)s->evaluated)) !=
            0 ||
        set_new(stats, "feasible", json_integer((json_int_t)s->feasible)) !=
            0 ||
        set_new(stats, "elapsed_s", number(s->elapsed_s)) != 0 ||
        set_new(stats, "stopped_early", json_boolean(stopped_early)) != 0 ||
        set_new(root, "results", array_of(items, n)) != 0)
        goto fail;
    return dump(root, out, d);
fail:
    json_decref(root);
    return dump(NULL, out, d);
}

/* A number, or null when it is unknown. */
static json_t *number_or_null(bool known, double x)
{
    return known && isfinite(x) ? json_real(x) : json_null();
}

/* One end of a --vary range (or the base: no value). */
static json_t *vary_end(const struct export_vary_end *e)
{
    json_t *o = json_object();
    bool margin = e->build_known && e->cloud_known;

    if (!o)
        return NULL;
    if (e->text && (set_new(o, "value", number(e->value)) ||
                    set_new(o, "fits", json_boolean(e->fits))))
        goto oom;
    if (set_new(o, "days", number_or_null(e->days_known, e->days)) ||
        set_new(o, "build_run_usd",
                number_or_null(e->build_known && e->days_known,
                               e->build_run_usd)) ||
        set_new(o, "cloud_run_usd",
                number_or_null(e->cloud_known && e->days_known,
                               e->cloud_run_usd)) ||
        set_new(o, "energy_mwh",
                number_or_null(e->days_known, e->energy_mwh)) ||
        set_new(o, "margin_usd_per_gpu_hour",
                number_or_null(margin, e->margin)) ||
        set_new(o, "verdict", json_string(e->verdict)))
        goto oom;
    return o;
oom:
    json_decref(o);
    return NULL;
}

enum cp_status export_json_vary(FILE *out, const struct export_vary_end *base,
                                const struct export_vary_row *rows, size_t n,
                                struct diag *d)
{
    json_t *root, *arr, *o;
    size_t i;

    use_xalloc();
    root = json_object();
    arr = json_array();
    if (!root || !arr || set_new(root, "base", vary_end(base)) ||
        json_object_set(root, "vary", arr)) {
        json_decref(arr);
        json_decref(root);
        return diag_set(d, CP_ERR_NOMEM, "json", "out of memory");
    }
    json_decref(arr); /* root holds it */
    for (i = 0; i < n; i++) {
        const struct export_vary_row *r = &rows[i];

        o = json_object();
        if (!o || set_new(o, "key", json_string(r->name)) ||
            set_new(o, "plan_key", json_string(r->plan_key)) ||
            set_new(o, "swing_usd_per_gpu_hour",
                    number_or_null(r->swing_known, r->swing)) ||
            set_new(o, "flips_verdict",
                    json_boolean(strcmp(r->end[0].verdict, r->end[1].verdict) !=
                                 0)) ||
            set_new(o, "low", vary_end(&r->end[0])) ||
            set_new(o, "high", vary_end(&r->end[1]))) {
            json_decref(o);
            json_decref(root);
            return diag_set(d, CP_ERR_NOMEM, "json", "out of memory");
        }
        if (json_array_append_new(arr, o)) { /* o released */
            json_decref(root);
            return diag_set(d, CP_ERR_NOMEM, "json", "out of memory");
        }
    }
    return dump(root, out, d);
}
