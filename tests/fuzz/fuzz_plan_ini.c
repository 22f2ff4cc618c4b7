/*
 * fuzz_plan_ini.c - plan files: any text either parses (and then writes
 * back as INI that parses to an equal plan) or is refused as invalid
 * input (exit class 2) with the plan left as it was.
 */
#include "fuzz.h"
#include "plan/plan.h"
#include "util/strbuf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    static struct plan p, q, before;
    struct strbuf sb = STRBUF_INIT;
    struct diag d;
    enum cp_status st;

    plan_init(&p, "fuzz");
    /* a key already set, so "unchanged on error" means something */
    plan_set_key(&p, PK_HW_GPUS, "64", NULL, &d);
    before = p;
    diag_clear(&d);
    st = plan_parse_ini(&p, "fuzz.ini", text, &d);
    if (st == CP_OK) {
        strbuf_init(&sb, 0);
        FUZZ_CHECK(plan_write_ini(&p, &sb) == CP_OK, "write");
        plan_init(&q, "fuzz");
        st = plan_parse_ini(&q, "written.ini", sb.buf, &d);
        FUZZ_CHECK(st == CP_OK, "written INI does not parse: %s: %s\n%s",
                   d.where, d.msg, sb.buf);
        FUZZ_CHECK(plan_equal(&p, &q), "round trip differs:\n%s", sb.buf);
        strbuf_release(&sb);
    } else {
        FUZZ_CHECK(fuzz_input_error(st), "status %d", (int)st);
        FUZZ_CHECK(d.msg[0] != '\0', "error without a message");
        FUZZ_CHECK(plan_equal(&p, &before), "plan changed on error");
    }
    free(text);
    return 0;
}
