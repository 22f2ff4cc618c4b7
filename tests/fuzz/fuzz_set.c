/*
 * fuzz_set.c - `--set SECTION.KEY=VALUE` and the shortcut options: the
 * first byte picks a key (or, above PLAN_KEY_COUNT, the text is a whole
 * assignment); the value is set or refused as invalid input, the plan is
 * unchanged on error, and a value that was set formats as text that sets
 * the same value again.
 */
#include "fuzz.h"
#include "plan/plan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct plan p, before, q;
    char buf[256];
    struct diag d;
    enum cp_status st;
    enum plan_key k;
    char *text;

    if (size < 1)
        return 0;
    text = fuzz_text(data + 1, size - 1);
    plan_init(&p, "fuzz");
    before = p;
    diag_clear(&d);
    if (data[0] < PLAN_KEY_COUNT) {
        k = (enum plan_key)data[0];
        st = plan_set_key(&p, k, text, "--fuzz", &d);
    } else {
        st = plan_set_assignment(&p, text, &d);
        k = PLAN_KEY_COUNT;
        if (st == CP_OK) {
            char *eq = strchr(text, '=');

            FUZZ_CHECK(eq != NULL, "no '=' in '%s'", text);
            *eq = '\0';
            /* the key, as given (leading/trailing blanks allowed) */
            for (k = 0; k < PLAN_KEY_COUNT; k++)
                if (p.v[k].set)
                    break;
            FUZZ_CHECK(k < PLAN_KEY_COUNT, "nothing set by '%s'", text);
        }
    }
    if (st != CP_OK) {
        FUZZ_CHECK(fuzz_input_error(st), "status %d", (int)st);
        FUZZ_CHECK(d.where[0] != '\0', "error without where");
        FUZZ_CHECK(plan_equal(&p, &before), "plan changed on error");
    } else {
        FUZZ_CHECK(p.v[k].set, "key %d not set", (int)k);
        plan_format_value(&p, k, buf, sizeof(buf));
        plan_init(&q, "fuzz");
        st = plan_set_key(&q, k, buf, NULL, &d);
        FUZZ_CHECK(st == CP_OK, "'%s' does not read back: %s", buf, d.msg);
        FUZZ_CHECK(plan_equal(&p, &q), "'%s' reads back differently", buf);
    }
    free(text);
    return 0;
}
