/*
 * fuzz_cli_args.c - the command line: the input, split at NUL bytes and
 * newlines, is argv (at most 24 items) for cli_main(), on a seeded
 * in-memory catalog ($LLMPLAN_CATALOG=:memory:).  Every command line ends
 * in exit status 0, 1 or 2 - never a crash, a hang or a leak.
 *
 * Arguments with a '/' are skipped, so that --output, --catalog and
 * export paths stay in the scratch directory fuzz-run and replay.sh run
 * in.  stdout and stderr go to /dev/null during the call.
 */
#include <fcntl.h>
#include <unistd.h>

#include "cli/cli.h"
#include "fuzz.h"

#define ARGS_MAX 24

static int devnull = -1, saved_out, saved_err;

static void quiet(int on)
{
    if (fuzz_debug())
        return;
    fflush(stdout);
    fflush(stderr);
    if (on) {
        saved_out = dup(1);
        saved_err = dup(2);
        dup2(devnull, 1);
        dup2(devnull, 2);
    } else {
        dup2(saved_out, 1);
        dup2(saved_err, 2);
        close(saved_out);
        close(saved_err);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text, *argv[ARGS_MAX + 2];
    static char prog[] = "llmplan";
    size_t i, start = 0;
    int argc = 1, rc;

    if (size > 4096)
        return 0;
    if (devnull < 0) {
        devnull = open("/dev/null", O_WRONLY);
        FUZZ_CHECK(devnull >= 0, "/dev/null");
        setenv("LLMPLAN_CATALOG", ":memory:", 1);
        unsetenv("NO_COLOR");
    }
    text = fuzz_text(data, size);
    argv[0] = prog;
    for (i = 0; i <= size && argc <= ARGS_MAX; i++) {
        if (i < size && text[i] != '\0' && text[i] != '\n')
            continue;
        text[i] = '\0';
        if (!strchr(text + start, '/'))
            argv[argc++] = text + start;
        start = i + 1;
    }
    argv[argc] = NULL;
    quiet(1);
    rc = cli_main(argc, argv);
    quiet(0);
    if (fuzz_debug())
        fprintf(stderr, "---> exit %d\n", rc);
    FUZZ_CHECK(rc == 0 || rc == 1 || rc == 2, "exit %d", rc);
    free(text);
    return 0;
}
