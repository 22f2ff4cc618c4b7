/*
 * fuzz_number.c - the number syntax of plan values and options
 * (util/number.h): any text is a finite number, or an error; a count is
 * whole, at most 2^53, and agrees with the plain parse.
 */
#include <math.h>

#include "fuzz.h"
#include "util/number.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    double x = 0, y = 0;
    uint64_t u = 0;
    enum cp_status a, b, c;

    a = number_parse(text, 0, &x);
    b = number_parse(text, 1, &y);
    c = number_parse_count(text, &u);
    FUZZ_CHECK(a == CP_OK || a == CP_ERR_PARSE || a == CP_ERR_RANGE, "%d",
               (int)a);
    FUZZ_CHECK(b == CP_OK || b == CP_ERR_PARSE || b == CP_ERR_RANGE, "%d",
               (int)b);
    FUZZ_CHECK(c == CP_OK || c == CP_ERR_PARSE || c == CP_ERR_RANGE, "%d",
               (int)c);
    if (a == CP_OK) {
        FUZZ_CHECK(isfinite(x), "'%s' -> %g", text, x);
        /* what parses without suffixes parses the same with them */
        FUZZ_CHECK(b == CP_OK && y == x, "'%s': %g vs %g", text, x, y);
    }
    if (b == CP_OK)
        FUZZ_CHECK(isfinite(y), "'%s' -> %g", text, y);
    if (c == CP_OK) {
        FUZZ_CHECK(u <= (1ull << 53), "'%s' -> %llu", text,
                   (unsigned long long)u);
        FUZZ_CHECK(b == CP_OK && (double)u == y, "'%s': count %llu, number %g",
                   text, (unsigned long long)u, y);
    }
    free(text);
    return 0;
}
