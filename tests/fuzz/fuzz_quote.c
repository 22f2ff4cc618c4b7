/*
 * fuzz_quote.c - the whole `quote` path: bytes are mapped to a plan (a
 * catalog model and accelerator, then for each plan key: unset, a value in
 * its range - uniform, log-uniform or at a bound - just outside it, "auto",
 * or an unknown catalog id), which is resolved, searched when some layout
 * value is auto, validated and evaluated against a seeded in-memory
 * catalog.  Asserted: the status is CP_OK or invalid input (exit 2, never
 * a crash, never exit 1); every reported number is finite; the memory
 * components sum to the total; fits agrees with total <= capacity; the
 * JSON export works.
 */
#include <math.h>

#include "catalog/catalog.h"
#include "export/export.h"
#include "export/metrics.h"
#include "fuzz.h"
#include "plan/resolve.h"

#define IDS_MAX 256

struct idlist {
    size_t n;
    char id[IDS_MAX][CP_ID_MAX];
};

static struct catalog *cat;
static struct idlist ids[CATALOG_KIND_COUNT];

static enum cp_status collect(void *ctx, const char *const *v, size_t n)
{
    struct idlist *l = ctx;

    (void)n;
    if (l->n < IDS_MAX && (l->n == 0 || strcmp(l->id[l->n - 1], v[0]) != 0))
        snprintf(l->id[l->n++], CP_ID_MAX, "%s", v[0]);
    return CP_OK;
}

/* At exit, so that valgrind sees nothing left behind. */
static void cleanup(void)
{
    catalog_close(cat);
}

static void setup(void)
{
    struct diag d;
    int k;

    if (cat)
        return;
    FUZZ_CHECK(catalog_open(":memory:", 0, &cat, &d) == CP_OK, "open: %s",
               d.msg);
    for (k = 0; k < CATALOG_KIND_COUNT; k++)
        FUZZ_CHECK(catalog_foreach(cat, (enum catalog_kind)k, NULL, collect,
                                   &ids[k], &d) == CP_OK,
                   "list: %s", d.msg);
    atexit(cleanup);
}

static const char *pick_id(struct fuzz_bytes *b, enum catalog_kind k)
{
    unsigned i = fuzz_byte(b);

    if (i == 255 || ids[k].n == 0)
        return "no-such-id";
    return ids[k].id[i % ids[k].n];
}

/* A value for a COUNT or NUMBER key as text. */
static void number_value(struct fuzz_bytes *b, const struct field_info *ki,
                         char *buf, size_t n)
{
    unsigned mode = fuzz_byte(b) % 8;
    double f = (double)fuzz_u32(b) / 4294967296.0, v, lo, hi;

    lo = ki->min;
    hi = ki->max;
    switch (mode) {
    case 0: /* uniform in range */
        v = lo + (hi - lo) * f;
        break;
    case 1: /* log-uniform in range */
    case 2:
        lo = lo > 1e-3 ? lo : 1e-3;
        v = hi > lo ? exp(log(lo) + (log(hi) - log(lo)) * f) : lo;
        break;
    case 3: /* small */
        v = lo + 64 * f;
        break;
    case 4:
        v = lo;
        break;
    case 5:
        v = hi;
        break;
    case 6: /* just outside */
        v = f < 0.5 ? lo - 1 : hi * 2 + 1;
        break;
    default: /* a power of two */
        v = ldexp(1.0, (int)(f * 50));
        break;
    }
    if (ki->type == PT_COUNT) {
        v = floor(v);
        if (v < 0)
            snprintf(buf, n, "-1");
        else
            snprintf(buf, n, "%.0f", v);
    } else {
        snprintf(buf, n, "%.17g", v);
    }
}

static void set(struct plan *p, enum plan_key k, const char *v)
{
    struct diag d;

    /* values plan_set_key refuses are simply not set (exit 2 earlier) */
    (void)plan_set_key(p, k, v, NULL, &d);
}

static void build_plan(struct fuzz_bytes *b, struct plan *p)
{
    char buf[64];
    size_t k;

    plan_init(p, "fuzz");
    set(p, PK_MODEL_PRESET, pick_id(b, CATALOG_MODELS));
    set(p, PK_HW_ACCELERATOR, pick_id(b, CATALOG_ACCELERATORS));
    snprintf(buf, sizeof(buf), "%u", 1u << (fuzz_byte(b) % 15));
    set(p, PK_HW_GPUS, buf);
    set(p, PK_TRAIN_TOKENS, "1T");
    for (k = 0; k < PLAN_KEY_COUNT && b->n; k++) {
        const struct field_info *ki = plan_key_info((enum plan_key)k);
        unsigned what = fuzz_byte(b);

        if (what < 208)
            continue; /* most keys keep the preset's or default value */
        if (what >= 244 && (ki->flags & PKF_AUTO)) {
            set(p, (enum plan_key)k, "auto");
            continue;
        }
        switch (ki->type) {
        case PT_COUNT:
        case PT_NUMBER:
            number_value(b, ki, buf, sizeof(buf));
            break;
        case PT_BOOL:
            snprintf(buf, sizeof(buf), "%s", fuzz_byte(b) & 1 ? "yes" : "no");
            break;
        case PT_ENUM:
            plan_enum_choice(ki, fuzz_byte(b) % plan_enum_count(ki), buf,
                             sizeof(buf));
            break;
        case PT_ID:
            snprintf(buf, sizeof(buf), "%s", pick_id(b, plan_key_kind(ki)));
            break;
        }
        set(p, (enum plan_key)k, buf);
    }
}

static void check_result(const struct scenario *sc, const struct result *r)
{
    const struct metric *mt;
    const struct memory_result *m = &r->memory;
    double sum;
    size_t n, i;

    mt = metrics_table(&n);
    for (i = 0; i < n; i++) {
        if (mt[i].kind != MK_F64)
            continue;
        FUZZ_CHECK(isfinite(*(const double *)((const char *)r + mt[i].offset)),
                   "%s.%s is not finite", mt[i].section, mt[i].key);
    }
    sum = m->weights_bytes + m->gradients_bytes + m->optimizer_bytes +
          m->activations_bytes + m->overhead_bytes;
    FUZZ_CHECK(fabs(sum - m->total_bytes) <= 1e-9 * fabs(m->total_bytes) + 1,
               "memory parts %g != total %g", sum, m->total_bytes);
    FUZZ_CHECK(m->weights_bytes >= 0 && m->gradients_bytes >= 0 &&
                   m->optimizer_bytes >= 0 && m->activations_bytes >= 0 &&
                   m->overhead_bytes >= 0,
               "negative memory");
    FUZZ_CHECK(m->fits == (m->total_bytes <= m->capacity_bytes),
               "fits %d but total %g, capacity %g", (int)m->fits,
               m->total_bytes, m->capacity_bytes);
    FUZZ_CHECK(r->time.step_s >= 0 && r->energy.it_mwh >= 0 &&
                   r->cost.build.run_usd >= 0,
               "negative time, energy or cost");
    FUZZ_CHECK(scenario_validate(sc, NULL) == CP_OK,
               "evaluated an invalid scenario");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct plan p;
    static struct plan_outcome oc;
    struct fuzz_bytes b = {data, size};
    struct export_item item;
    enum objective obj;
    struct diag d;
    enum cp_status st;
    char *json = NULL;
    size_t len = 0;
    FILE *f;

    setup();
    obj = (enum objective)(fuzz_byte(&b) % 3);
    build_plan(&b, &p);
    diag_clear(&d);
    st = plan_evaluate(&p, cat, obj, &oc, &d);
    if (fuzz_debug()) {
        struct strbuf sb = STRBUF_INIT;

        strbuf_init(&sb, 0);
        plan_write_ini(&p, &sb);
        fprintf(stderr, "%s---> %s %s: %s (searched %d, fits %d)\n", sb.buf,
                cp_status_str(st), d.where, d.msg, (int)oc.searched,
                st == CP_OK ? (int)oc.result.memory.fits : -1);
        strbuf_release(&sb);
    }
    if (st != CP_OK) {
        FUZZ_CHECK(fuzz_input_error(st), "status %d: %s: %s", (int)st, d.where,
                   d.msg);
        FUZZ_CHECK(d.msg[0] != '\0', "error without a message");
        return 0;
    }
    check_result(&oc.res.sc, &oc.result);
    item.name = p.name;
    item.sc = &oc.res.sc;
    item.r = &oc.result;
    item.res = &oc.res;
    f = open_memstream(&json, &len);
    FUZZ_CHECK(f != NULL, "open_memstream");
    st = export_json_quote(f, &item, &d);
    fclose(f);
    FUZZ_CHECK(st == CP_OK, "JSON export: %s", d.msg);
    FUZZ_CHECK(len > 0 && json[0] == '{', "JSON is not an object");
    free(json);
    return 0;
}
