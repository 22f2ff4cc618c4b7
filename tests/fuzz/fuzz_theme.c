/*
 * fuzz_theme.c - theme files (src/ui/theme.h): any text parses or is
 * refused with CP_ERR_PARSE and one message line per problem; every
 * element ends up with a valid style either way.
 */
#include "fuzz.h"
#include "ui/theme.h"
#include "util/strbuf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    static struct theme t;
    struct strbuf errors = STRBUF_INIT;
    enum cp_status st;

    strbuf_init(&errors, 0);
    theme_init(&t, "fuzz");
    st = theme_parse(&t, "fuzz.theme", text, &errors);
    FUZZ_CHECK(st == CP_OK || fuzz_input_error(st), "status %d", (int)st);
    if (st != CP_OK)
        FUZZ_CHECK(errors.len > 0, "refused without a message");
    else
        FUZZ_CHECK(errors.len == 0, "accepted with messages: %s", errors.buf);
    theme_make_mono(&t);
    strbuf_release(&errors);
    free(text);
    return 0;
}
