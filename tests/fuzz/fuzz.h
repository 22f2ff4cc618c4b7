/*
 * fuzz.h - shared by the fuzz targets (tests/fuzz/fuzz_<name>.c).
 *
 * Each target defines LLVMFuzzerTestOneInput.  Built with clang and
 * -fsanitize=fuzzer,address,undefined by `make fuzz` (libFuzzer's main),
 * and with the project's compiler and flags, linked to driver.c, by `make
 * check`, which replays tests/fuzz/corpus/<name>/ through it
 * (tests/fuzz/replay.sh).  A failed invariant aborts with a message, so it
 * is a crash under libFuzzer and a FAIL in the replay.
 */
#ifndef LLMPLAN_TESTS_FUZZ_H
#define LLMPLAN_TESTS_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/status.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_CHECK(cond, ...)                                                  \
    do {                                                                       \
        if (!(cond)) {                                                         \
            fprintf(stderr, "fuzz: %s:%d: check failed: %s: ", __FILE__,       \
                    __LINE__, #cond);                                          \
            fprintf(stderr, __VA_ARGS__);                                      \
            fputc('\n', stderr);                                               \
            abort();                                                           \
        }                                                                      \
    } while (0)

/* FUZZ_DEBUG=1 in the environment: targets say what happened to stderr. */
static inline int fuzz_debug(void)
{
    static int v = -1;

    if (v < 0)
        v = getenv("FUZZ_DEBUG") != NULL;
    return v;
}

/* data as a malloc'd NUL-terminated string (embedded NULs end it early). */
static inline char *fuzz_text(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);

    if (!s)
        abort();
    if (size)
        memcpy(s, data, size);
    s[size] = '\0';
    return s;
}

/* Whether st is an "invalid input" status (exit 2). */
static inline int fuzz_input_error(enum cp_status st)
{
    return st != CP_OK && cp_status_exit(st) == 2;
}

/* A byte reader over the input: 0 once the bytes are used up. */
struct fuzz_bytes {
    const uint8_t *p;
    size_t n;
};

static inline unsigned fuzz_byte(struct fuzz_bytes *b)
{
    if (!b->n)
        return 0;
    b->n--;
    return *b->p++;
}

static inline uint32_t fuzz_u32(struct fuzz_bytes *b)
{
    uint32_t v = 0;
    int i;

    for (i = 0; i < 4; i++)
        v = (v << 8) | fuzz_byte(b);
    return v;
}

#endif
