/*
 * fuzz_tui.c - TUI key sequences through the headless view driver (the
 * script terminal of src/ui/term_script.c, as `llmplan tui --ui-script`):
 * each input byte becomes one event - a key of the bindings, a printable
 * character, a resize or a click - and the session runs on a seeded
 * in-memory catalog.  Nothing may crash, leak or exit with anything but 0.
 *
 * The session may export or save files where a prompt's default points:
 * fuzz-run and replay.sh run it in a scratch directory with HOME and the
 * XDG variables pointing there.
 */
#include <unistd.h>

#include "cli/cli.h"
#include "fuzz.h"
#include "ui/ui.h"
#include "util/strbuf.h"

static const char *const keys[] = {
    "Enter", "Esc",  "Tab",  "BTab", "Up",  "Down",      "Left",
    "Right", "PgUp", "PgDn", "Home", "End", "Backspace", "Delete",
    "Space", "F1",   "F2",   "F5",   "F10", "C-c",       "C-l",
    "?",     "q",    "/",    "s",    "c",   "a",         "d",
    "e",     "x",    "r",    "t",    "1",   "2",         "3",
    "4",     "5",    "+",    "-",    "=",   "o",         "i",
};
#define NKEYS (sizeof(keys) / sizeof(keys[0]))

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[] = "/tmp/llmplan-fuzz-tui-XXXXXX";
    static char a0[] = "tui", a1[] = "--ui-script", a3[] = "--ui-size",
                a4[] = "80x24";
    char *argv[] = {a0, a1, path, a3, a4, NULL};
    struct global_opts g;
    struct strbuf sb = STRBUF_INIT;
    size_t i;
    int fd, rc;

    if (size > 512)
        return 0; /* long sessions find nothing short ones do not */
    strbuf_init(&sb, 0);
    for (i = 0; i < size; i++) {
        unsigned b = data[i];

        if (b < NKEYS * 4) {
            const char *k = keys[b % NKEYS];

            /* a quit would end the session early (the script's end does) */
            if (strcmp(k, "q") == 0)
                continue;
            strbuf_addf(&sb, "%s\n", k);
        } else if (b < 200) {
            strbuf_addf(&sb, "text:%c\n", "0123456789.eKMGT-_abcxyz/ "[b % 27]);
        } else if (b < 230) {
            strbuf_addf(&sb, "resize:%ux%u\n", 20 + (b % 7) * 30,
                        4 + (b % 5) * 12);
        } else {
            strbuf_addf(&sb, "click:%u,%u\n", (b * 7) % 80, (b * 3) % 24);
        }
    }
    fd = mkstemp(path);
    FUZZ_CHECK(fd >= 0, "mkstemp");
    FUZZ_CHECK(write(fd, sb.buf, sb.len) == (ssize_t)sb.len, "write");
    close(fd);
    memset(&g, 0, sizeof(g));
    g.catalog_path = ":memory:";
    g.no_color = true;
    rc = ui_cmd_tui(&g, 5, argv);
    unlink(path);
    strbuf_release(&sb);
    FUZZ_CHECK(rc == 0, "the session exited %d", rc);
    return 0;
}
