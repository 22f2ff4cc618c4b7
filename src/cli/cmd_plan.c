/*
 * cmd_plan.c - `llmplan plan list | show NAME | save NAME [PLAN] |
 * delete NAME`: plans kept in the catalog as INI text.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_opts.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* Plan names are ids: [a-z0-9._-], 1..63 characters. */
static enum cp_status check_name(const char *name, struct diag *d)
{
    size_t n = strlen(name), i;

    if (name[0] == '@')
        return check_name(name + 1, d);
    if (n == 0 || n > 63)
        return diag_set(d, CP_ERR_USAGE, "plan", "'%.64s' is not a plan name",
                        name);
    for (i = 0; i < n; i++) {
        char c = name[i];

        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' ||
              c == '_' || c == '-'))
            return diag_set(d, CP_ERR_USAGE, name,
                            "plan names use only a-z, 0-9, '.', '_' and '-'");
    }
    return CP_OK;
}

static const char *bare(const char *name)
{
    return name[0] == '@' ? name + 1 : name;
}

struct list_ctx {
    FILE *out;
    size_t n;
};

static enum cp_status list_one(void *ctx, const char *name,
                               const char *updated_at)
{
    struct list_ctx *lc = ctx;

    lc->n++;
    fprintf(lc->out, "%-32s %s\n", name, updated_at ? updated_at : "");
    return CP_OK;
}

static enum cp_status plan_list(struct catalog *cat, FILE *out, struct diag *d)
{
    struct list_ctx lc = {out, 0};

    return catalog_plan_list(cat, list_one, &lc, d);
}

static enum cp_status plan_show(struct catalog *cat, const char *name,
                                FILE *out, struct diag *d)
{
    char *text = NULL;
    enum cp_status st = catalog_plan_load(cat, bare(name), &text, d);

    if (st == CP_ERR_NOT_FOUND)
        return diag_set(d, st, name, "no saved plan of that name");
    if (st)
        return st;
    fputs(text, out);
    if (text[0] && text[strlen(text) - 1] != '\n')
        fputc('\n', out);
    free(text);
    return CP_OK;
}

static enum cp_status plan_save(struct catalog *cat, const struct cli_args *a,
                                struct diag *d)
{
    struct plan *p = xcalloc(1, sizeof(*p));
    struct strbuf sb;
    enum cp_status st = CP_OK;

    strbuf_init(&sb, 1 << 20);
    plan_init(p, bare(a->pos[1]));
    if (a->npos == 3)
        st = cli_load_plan(cat, a->pos[2], p, d);
    if (!st) {
        plan_merge(p, &a->overrides);
        st = plan_write_ini(p, &sb);
    }
    if (!st && sb.len == 0)
        st = diag_set(d, CP_ERR_USAGE, "plan save",
                      "nothing to save: give a plan file or options");
    if (!st)
        st = catalog_plan_save(cat, bare(a->pos[1]), sb.buf, d);
    strbuf_release(&sb);
    free(p);
    return st;
}

int cmd_plan(const struct global_opts *g, int argc, char **argv)
{
    struct cli_args *a = xcalloc(1, sizeof(*a));
    struct catalog *cat = NULL;
    struct cli_out o = {0};
    const char *sub;
    struct diag d;
    enum cp_status st;
    int want, rc;

    diag_clear(&d);
    st = cli_parse(CMD_PLAN_SAVE, argc, argv, a, &d);
    if (!st && a->help) {
        rc = cli_command_help("plan");
        goto out;
    }
    if (st)
        goto fail;
    if (a->npos < 1) {
        st = diag_set(&d, CP_ERR_USAGE, "plan",
                      "missing subcommand: list, show, save or delete");
        goto fail;
    }
    sub = a->pos[0];
    want = strcmp(sub, "list") == 0     ? 1
           : strcmp(sub, "save") == 0   ? -2
           : strcmp(sub, "show") == 0   ? 2
           : strcmp(sub, "delete") == 0 ? 2
                                        : 0;
    if (!want) {
        st = diag_set(&d, CP_ERR_USAGE, sub,
                      "unknown plan subcommand (list, show, save, delete)");
        goto fail;
    }
    if ((want > 0 && a->npos != want) ||
        (want == -2 && (a->npos < 2 || a->npos > 3))) {
        st = diag_set(&d, CP_ERR_USAGE, "plan",
                      "usage: plan list | show NAME | save NAME [PLAN] | "
                      "delete NAME");
        goto fail;
    }
    if (strcmp(sub, "save") != 0) {
        size_t k;

        for (k = 0; k < PLAN_KEY_COUNT; k++)
            if (a->overrides.v[k].set) {
                st = diag_set(&d, CP_ERR_USAGE, sub,
                              "plan options apply only to plan save");
                goto fail;
            }
    }
    if (a->npos >= 2)
        st = check_name(a->pos[1], &d);
    if (!st)
        st = strcmp(sub, "list") == 0 || strcmp(sub, "show") == 0
                 ? cli_open_catalog_read(g, &cat, &d)
                 : cli_open_catalog(g, &cat, &d);
    if (!st)
        st = cli_out_open(&o, &d);
    if (st)
        goto fail;
    if (strcmp(sub, "list") == 0)
        st = plan_list(cat, o.fp, &d);
    else if (strcmp(sub, "show") == 0)
        st = plan_show(cat, a->pos[1], o.fp, &d);
    else if (strcmp(sub, "save") == 0)
        st = plan_save(cat, a, &d);
    else
        st = catalog_plan_delete(cat, bare(a->pos[1]), &d);
    if (st == CP_ERR_NOT_FOUND && strcmp(sub, "delete") == 0)
        st = diag_set(&d, st, a->pos[1], "no saved plan of that name");
    st = cli_out_end(&o, st, NULL, &d);
    if (st)
        goto fail;
    rc = 0;
    goto out;
fail:
    rc = cli_error(st, &d);
out:
    if (cat)
        catalog_close(cat);
    free(a);
    return rc;
}
