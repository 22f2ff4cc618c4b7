/*
 * plan.c - plan keys (the rows of core/fields.h), value parsing, INI
 * reading and writing.  See plan.h.
 */
#include <assert.h>
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "plan/plan.h"
#include "util/ini.h"
#include "util/number.h"

/* The plan key enum is the field enum (plan_keys.h). */
_Static_assert((int)PLAN_KEY_COUNT == (int)FIELD_COUNT, "plan keys");

const char *const *const plan_sections = field_sections;

const struct field_info *plan_key_info(enum plan_key k)
{
    return field_info((enum field_id)k);
}

enum cp_status plan_key_find(const char *name, enum plan_key *out)
{
    enum field_id f;

    if (field_find(name, &f) != CP_OK)
        return CP_ERR_NOT_FOUND;
    *out = (enum plan_key)f;
    return CP_OK;
}

enum catalog_kind plan_key_kind(const struct field_info *ki)
{
    static const enum catalog_kind kinds[] = {
        [FIELD_REF_NONE] = CATALOG_KIND_COUNT,
        [FIELD_REF_ACCELERATORS] = CATALOG_ACCELERATORS,
        [FIELD_REF_SYSTEMS] = CATALOG_SYSTEMS,
        [FIELD_REF_FABRICS] = CATALOG_FABRICS,
        [FIELD_REF_STORAGE] = CATALOG_STORAGE,
        [FIELD_REF_SITES] = CATALOG_SITES,
        [FIELD_REF_CLOUD] = CATALOG_CLOUD,
        [FIELD_REF_MODELS] = CATALOG_MODELS,
        [FIELD_REF_STACKS] = CATALOG_STACKS,
    };

    return kinds[ki->ref];
}

void plan_init(struct plan *p, const char *name)
{
    memset(p, 0, sizeof(*p));
    snprintf(p->name, sizeof(p->name), "%s", name ? name : "plan");
}

size_t plan_enum_count(const struct field_info *ki)
{
    return field_enum_count(ki);
}

const char *plan_enum_choice(const struct field_info *ki, size_t i, char *buf,
                             size_t n)
{
    return field_enum_choice(ki, i, buf, n);
}

/* Choices as "a, b or c" for messages. */
static void choices_text(const struct field_info *ki, char *buf, size_t n)
{
    size_t i, count = plan_enum_count(ki);
    size_t used = 0;
    char word[32];

    buf[0] = '\0';
    for (i = 0; i < count && used < n; i++) {
        const char *sep = i == 0 ? "" : i + 1 == count ? " or " : ", ";
        int w = snprintf(buf + used, n - used, "%s%s", sep,
                         plan_enum_choice(ki, i, word, sizeof(word)));

        if (w < 0)
            break;
        used += (size_t)w;
    }
    if ((ki->flags & PKF_AUTO) && used < n)
        snprintf(buf + used, n - used, " or auto");
}

/* "1e+06" style bounds read badly in messages; print whole numbers whole. */
static void bound_text(double v, char *buf, size_t n)
{
    if (v == floor(v) && fabs(v) < 1e15)
        snprintf(buf, n, "%.0f", v);
    else
        snprintf(buf, n, "%g", v);
}

static int valid_id(const char *s)
{
    size_t n = strlen(s), i;

    if (n == 0 || n >= CP_ID_MAX)
        return 0;
    for (i = 0; i < n; i++) {
        char c = s[i];

        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' ||
              c == '-' || c == '_'))
            return 0;
    }
    return 1;
}

static enum cp_status parse_bool(const char *s, uint64_t *out)
{
    static const char *const yes[] = {"yes", "true", "on", "1"};
    static const char *const no[] = {"no", "false", "off", "0"};
    size_t i;

    for (i = 0; i < 4; i++) {
        if (strcmp(s, yes[i]) == 0) {
            *out = 1;
            return CP_OK;
        }
        if (strcmp(s, no[i]) == 0) {
            *out = 0;
            return CP_OK;
        }
    }
    return CP_ERR_PARSE;
}

/* Quote user text in messages, cut to keep the line short. */
#define SHOWN(s) (int)(strlen(s) > 40 ? 40 : strlen(s)), (s)

/* serve.percentile was a number before it named a statistic; plans and
 * published case files still write 50, 90 or 99 for p50, p90, p99. */
static const char *percentile_alias(enum plan_key k, const char *value)
{
    if (k != PK_SERVE_PERCENTILE)
        return value;
    if (strcmp(value, "50") == 0)
        return "p50";
    if (strcmp(value, "90") == 0)
        return "p90";
    if (strcmp(value, "99") == 0)
        return "p99";
    return value;
}

/* value as a number of field ki (a count takes K/M/G/T suffixes) within
 * the field's bounds. */
static enum cp_status number_in(const struct field_info *ki,
                                const char *value, const char *where,
                                double *x, struct diag *d)
{
    char lo[32], hi[32];
    enum cp_status st = number_parse(value, ki->type == PT_COUNT, x);

    if (st == CP_ERR_PARSE)
        return diag_set(d, CP_ERR_PARSE, where, "'%.*s' is not a number",
                        SHOWN(value));
    if (st || *x < ki->min || *x > ki->max) {
        bound_text(ki->min, lo, sizeof(lo));
        bound_text(ki->max, hi, sizeof(hi));
        return diag_set(d, CP_ERR_RANGE, where,
                        "'%.*s' is out of range (%s to %s)", SHOWN(value), lo,
                        hi);
    }
    return CP_OK;
}

enum cp_status plan_set_key(struct plan *p, enum plan_key k, const char *value,
                            const char *origin, struct diag *d)
{
    const struct field_info *ki = plan_key_info(k);
    const char *where = origin ? origin : ki->name;
    struct plan_value v;
    char text[160], trimmed[256];
    enum cp_status st;
    size_t len;
    double x;

    memset(&v, 0, sizeof(v));
    v.set = true;
    v.origin = origin;
    while (*value == ' ' || *value == '\t')
        value++;
    /* Trailing blanks too ("--set 'train.precision=bf16 '"). */
    len = strlen(value);
    while (len && (value[len - 1] == ' ' || value[len - 1] == '\t'))
        len--;
    /* No value of the schema is this long; cutting it would validate a
     * prefix ("8", 300 blanks, "junk" read as 8). */
    if (len >= sizeof(trimmed))
        return diag_set(d, CP_ERR_RANGE, where,
                        "value longer than %zu characters",
                        sizeof(trimmed) - 1);
    snprintf(trimmed, sizeof(trimmed), "%.*s", (int)len, value);
    value = percentile_alias(k, trimmed);
    if ((ki->flags & PKF_AUTO) && strcmp(value, "auto") == 0) {
        v.is_auto = true;
        p->v[k] = v;
        return CP_OK;
    }
    switch (ki->type) {
    case PT_COUNT:
        st = number_in(ki, value, where, &x, d);
        if (st)
            return st;
        if (x != floor(x))
            return diag_set(d, CP_ERR_RANGE, where,
                            "'%.*s' is not a whole number", SHOWN(value));
        v.u = (uint64_t)x;
        break;
    case PT_NUMBER:
        st = number_in(ki, value, where, &x, d);
        if (st)
            return st;
        v.d = x;
        break;
    case PT_BOOL:
        if (parse_bool(value, &v.u) != CP_OK)
            return diag_set(d, CP_ERR_PARSE, where, "'%.*s' is not yes or no%s",
                            SHOWN(value),
                            (ki->flags & PKF_AUTO) ? " or auto" : "");
        break;
    case PT_ENUM: {
        size_t i, n = plan_enum_count(ki);
        char word[32];

        for (i = 0; i < n; i++)
            if (strcmp(plan_enum_choice(ki, i, word, sizeof(word)), value) == 0)
                break;
        if (i == n) {
            choices_text(ki, text, sizeof(text));
            return diag_set(d, CP_ERR_PARSE, where, "'%.*s' is not one of %s",
                            SHOWN(value), text);
        }
        v.u = i;
        break;
    }
    case PT_ID:
        if (!valid_id(value))
            return diag_set(d, CP_ERR_PARSE, where,
                            "'%.*s' is not a catalog id ([a-z0-9.-])",
                            SHOWN(value));
        snprintf(v.id, sizeof(v.id), "%s", value);
        break;
    }
    p->v[k] = v;
    return CP_OK;
}

enum cp_status plan_set_assignment(struct plan *p, const char *assignment,
                                   struct diag *d)
{
    const char *eq = strchr(assignment, '=');
    char name[96];
    size_t n;
    enum plan_key k;

    n = eq ? (size_t)(eq - assignment) : 0;
    while (n && (assignment[n - 1] == ' ' || assignment[n - 1] == '\t'))
        n--;
    /* no '=', or only blanks before it ("  = 8"): no key to name */
    if (!eq || n == 0)
        return diag_set(d, CP_ERR_USAGE, "--set",
                        "'%.*s' is not SECTION.KEY=VALUE", SHOWN(assignment));
    if (n >= sizeof(name))
        return diag_set(d, CP_ERR_USAGE, "--set", "'%.*s...' is not a key",
                        SHOWN(assignment));
    memcpy(name, assignment, n);
    name[n] = '\0';
    if (plan_key_find(name, &k) != CP_OK)
        return diag_set(d, CP_ERR_USAGE, name, "unknown key");
    return plan_set_key(p, k, eq + 1, NULL, d);
}

static int section_known(const char *section)
{
    size_t i;

    for (i = 0; plan_sections[i]; i++)
        if (strcmp(plan_sections[i], section) == 0)
            return 1;
    return 0;
}

static enum cp_status ini_key(void *ctx, const char *section, const char *key,
                              const char *value, int line, struct diag *d)
{
    struct plan *p = ctx;
    char name[160];
    enum plan_key k;

    (void)line;
    if (!section[0])
        return diag_set(d, CP_ERR_PARSE, key, "key outside a [section]");
    if (!section_known(section))
        return diag_set(d, CP_ERR_USAGE, section, "unknown section");
    snprintf(name, sizeof(name), "%s.%s", section, key);
    if (plan_key_find(name, &k) != CP_OK)
        return diag_set(d, CP_ERR_USAGE, name, "unknown key");
    return plan_set_key(p, k, value, NULL, d);
}

enum cp_status plan_parse_ini(struct plan *p, const char *name,
                              const char *text, struct diag *d)
{
    struct plan tmp = *p;
    enum cp_status st = ini_parse_text(name, text, ini_key, &tmp, d);

    if (st == CP_OK)
        *p = tmp;
    return st;
}

/* Unset every model.* key of p. */
static void clear_model(struct plan *p)
{
    int k;

    for (k = 0; k < PLAN_KEY_COUNT; k++)
        if (strcmp(plan_key_info(k)->section, "model") == 0)
            p->v[k].set = false;
}

enum cp_status plan_set_model(struct plan *p, const struct model_spec *m,
                              const char *origin, struct diag *d)
{
    struct plan *tmp = malloc(sizeof(*tmp));
    enum cp_status st = CP_OK;
    char buf[32];
    int k;

    if (!tmp)
        return diag_set(d, CP_ERR_NOMEM, origin, "out of memory");
    *tmp = *p;
    clear_model(tmp);
    tmp->model_replaced = true;
    for (k = PK_MODEL_LAYERS; !st && k < PLAN_KEY_COUNT; k++) {
        const struct field_info *ki = plan_key_info(k);
        const char *at;
        uint64_t u = 0;
        bool b;
        int e;

        if (strcmp(ki->section, "model") != 0)
            break;
        at = (const char *)m +
             (ki->offset - offsetof(struct scenario, model));
        if (ki->store == PS_U64) {
            memcpy(&u, at, sizeof(u));
        } else if (ki->store == PS_BOOL) {
            memcpy(&b, at, sizeof(b));
            u = b;
        } else {
            assert(ki->store == PS_INT && !ki->enum_values);
            memcpy(&e, at, sizeof(e));
            u = (uint64_t)e;
        }
        if (ki->type == PT_ENUM) {
            plan_enum_choice(ki, (size_t)u, buf, sizeof(buf));
        } else if (ki->type == PT_BOOL) {
            snprintf(buf, sizeof(buf), "%s", u ? "yes" : "no");
        } else {
            if ((double)u < ki->min)
                continue;
            snprintf(buf, sizeof(buf), "%llu", (unsigned long long)u);
        }
        st = plan_set_key(tmp, (enum plan_key)k, buf, origin, d);
    }
    if (!st)
        *p = *tmp;
    free(tmp);
    return st;
}

enum cp_status plan_load_file(struct plan *p, const char *path, struct diag *d)
{
    struct strbuf sb;
    enum cp_status st;
    const char *base, *dot;
    struct stat sbuf;
    FILE *fp;
    int e;

    /* Opened once: a FIFO or a pipe has no second chance.  A missing file
     * or a directory is a usage error (2); a file that exists but cannot
     * be read (permissions, I/O) is a runtime one (1). */
    fp = fopen(path, "r");
    if (!fp)
        return diag_set(d,
                        errno == ENOENT || errno == ENOTDIR ? CP_ERR_NOT_FOUND
                                                            : CP_ERR_IO,
                        path, "cannot read plan file: %s", strerror(errno));
    if (fstat(fileno(fp), &sbuf) == 0 && S_ISDIR(sbuf.st_mode)) {
        fclose(fp);
        return diag_set(d, CP_ERR_USAGE, path,
                        "cannot read plan file: is a directory");
    }
    strbuf_init(&sb, 1 << 20);
    st = strbuf_read_stream(&sb, fp);
    e = errno;
    fclose(fp);
    if (st) {
        strbuf_release(&sb);
        return diag_set(d, st == CP_ERR_RANGE ? CP_ERR_RANGE : CP_ERR_IO, path,
                        "cannot read plan file: %s",
                        st == CP_ERR_RANGE ? "larger than 1 MiB"
                                           : strerror(e ? e : EIO));
    }
    if (memchr(sb.buf, '\0', sb.len)) {
        strbuf_release(&sb);
        return diag_set(d, CP_ERR_PARSE, path, "not a text file");
    }
    st = plan_parse_ini(p, path, sb.buf, d);
    strbuf_release(&sb);
    if (st)
        return st;
    base = strrchr(path, '/');
    base = base ? base + 1 : path;
    dot = strrchr(base, '.');
    snprintf(p->name, sizeof(p->name), "%.*s",
             (int)(dot && dot != base ? (size_t)(dot - base) : strlen(base)),
             base);
    return CP_OK;
}

void plan_merge(struct plan *dst, const struct plan *src)
{
    size_t i;

    if (src->model_replaced) {
        clear_model(dst);
        dst->model_replaced = true;
    }
    for (i = 0; i < PLAN_KEY_COUNT; i++)
        if (src->v[i].set)
            dst->v[i] = src->v[i];
}

void plan_format_number(double v, char *buf, size_t n)
{
    int prec;
    char *c;

    for (prec = 6; prec <= 17; prec++) {
        snprintf(buf, n, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            break;
    }
    /* '.' whatever LC_NUMERIC says (the CLI sets "C"; this is the guard). */
    for (c = buf; *c; c++)
        if (*c == ',')
            *c = '.';
}

const char *plan_format_value(const struct plan *p, enum plan_key k, char *buf,
                              size_t n)
{
    const struct field_info *ki = plan_key_info(k);
    const struct plan_value *v = &p->v[k];

    buf[0] = '\0';
    if (!v->set)
        return buf;
    if (v->is_auto) {
        snprintf(buf, n, "auto");
        return buf;
    }
    switch (ki->type) {
    case PT_COUNT:
        snprintf(buf, n, "%llu", (unsigned long long)v->u);
        break;
    case PT_NUMBER:
        plan_format_number(v->d, buf, n);
        break;
    case PT_BOOL:
        snprintf(buf, n, "%s", v->u ? "yes" : "no");
        break;
    case PT_ENUM:
        plan_enum_choice(ki, (size_t)v->u, buf, n);
        break;
    case PT_ID:
        snprintf(buf, n, "%s", v->id);
        break;
    }
    return buf;
}

enum cp_status plan_write_ini(const struct plan *p, struct strbuf *out)
{
    size_t s, i;
    char buf[64];
    enum cp_status st = CP_OK;

    for (s = 0; plan_sections[s] && !st; s++) {
        int header = 0;

        for (i = 0; i < PLAN_KEY_COUNT && !st; i++) {
            if (strcmp(plan_key_info(i)->section, plan_sections[s]) != 0 ||
                !p->v[i].set)
                continue;
            if (!header) {
                st = strbuf_addf(out, "%s[%s]\n", out->len ? "\n" : "",
                                 plan_sections[s]);
                header = 1;
            }
            if (!st)
                st = strbuf_addf(
                    out, "%s = %s\n", plan_key_info(i)->key,
                    plan_format_value(p, (enum plan_key)i, buf, sizeof(buf)));
        }
    }
    return st;
}

bool plan_equal(const struct plan *a, const struct plan *b)
{
    size_t i;

    for (i = 0; i < PLAN_KEY_COUNT; i++) {
        const struct plan_value *x = &a->v[i], *y = &b->v[i];

        if (x->set != y->set)
            return false;
        if (!x->set)
            continue;
        if (x->is_auto != y->is_auto || x->u != y->u || x->d != y->d ||
            strcmp(x->id, y->id) != 0)
            return false;
    }
    return true;
}
