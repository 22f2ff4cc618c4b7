/*
 * fuzz_keys.c - key binding files (src/ui/keymap.h): `bind <view> <key>
 * <action>` lines parse or are refused with a message; the keymap stays
 * usable (every lookup answers) and is freed without leaks.
 */
#include "fuzz.h"
#include "ui/keymap.h"
#include "util/strbuf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    struct keymap km;
    struct strbuf errors = STRBUF_INIT;
    enum cp_status st;
    char name[64];
    int key, v;
    size_t i;

    strbuf_init(&errors, 0);
    keymap_init(&km);
    st = keymap_parse(&km, "fuzz.keys", text, &errors);
    FUZZ_CHECK(st == CP_OK || fuzz_input_error(st), "status %d", (int)st);
    if (st != CP_OK)
        FUZZ_CHECK(errors.len > 0, "refused without a message");
    /* every view answers for the keys the input's bytes name */
    for (v = 0; v < VIEW_COUNT; v++)
        for (i = 0; i < size && i < 64; i++)
            (void)keymap_lookup(&km, (enum view_id)v, data[i]);
    /* a key name read from the input names a key that reads back */
    key = keymap_key_parse(text);
    if (key) {
        keymap_key_name(key, name, sizeof(name));
        FUZZ_CHECK(keymap_key_parse(name) == key, "'%s' -> %d -> '%s'", text,
                   key, name);
    }
    keymap_release(&km);
    strbuf_release(&errors);
    free(text);
    return 0;
}
