/* number.c - strict number parsing; see number.h. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/number.h"

/* strtod accepts hex, "nan", "inf" and the locale's decimal point; we allow
 * only [+-]digits[.digits][e[+-]digits] and parse that by hand into a
 * C-locale buffer before calling strtod. */
static int valid_syntax(const char *s, size_t n)
{
    size_t i = 0, digits = 0;

    if (i < n && (s[i] == '+' || s[i] == '-'))
        i++;
    while (i < n && s[i] >= '0' && s[i] <= '9') {
        i++;
        digits++;
    }
    if (i < n && s[i] == '.') {
        i++;
        while (i < n && s[i] >= '0' && s[i] <= '9') {
            i++;
            digits++;
        }
    }
    if (!digits)
        return 0;
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        size_t exp_digits = 0;

        i++;
        if (i < n && (s[i] == '+' || s[i] == '-'))
            i++;
        while (i < n && s[i] >= '0' && s[i] <= '9') {
            i++;
            exp_digits++;
        }
        if (!exp_digits)
            return 0;
    }
    return i == n;
}

/* Parse s[0..n) in the C locale whatever LC_NUMERIC says: replace '.' with
 * the locale's radix character by asking strtod how it reads "1.5". */
static double c_strtod(const char *s, size_t n)
{
    char buf[128];
    char *end;
    double probe = strtod("1.5", &end);
    size_t i;

    memcpy(buf, s, n);
    buf[n] = '\0';
    if (probe != 1.5) {
        /* the locale uses ',' */
        for (i = 0; i < n; i++)
            if (buf[i] == '.')
                buf[i] = ',';
    }
    errno = 0;
    return strtod(buf, &end);
}

enum cp_status number_parse(const char *s, int allow_suffix, double *out)
{
    size_t n;
    double scale = 1, v;

    if (!s)
        return CP_ERR_PARSE;
    while (*s == ' ' || *s == '\t')
        s++;
    n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        n--;
    if (n == 0 || n >= 100)
        return CP_ERR_PARSE;
    if (allow_suffix) {
        /* K M G T, either case, and B for billions ("70B" parameters,
         * the way model sizes are written): powers of 1000. */
        switch (s[n - 1]) {
        case 'K':
        case 'k':
            scale = 1e3;
            break;
        case 'M':
        case 'm':
            scale = 1e6;
            break;
        case 'G':
        case 'g':
        case 'B':
        case 'b':
            scale = 1e9;
            break;
        case 'T':
        case 't':
            scale = 1e12;
            break;
        default:
            break;
        }
        if (scale != 1)
            n--;
    }
    if (!valid_syntax(s, n))
        return CP_ERR_PARSE;
    v = c_strtod(s, n);
    if (!isfinite(v) || errno == ERANGE)
        return CP_ERR_RANGE;
    v *= scale;
    if (!isfinite(v))
        return CP_ERR_RANGE;
    *out = v;
    return CP_OK;
}

enum cp_status number_parse_count(const char *s, uint64_t *out)
{
    double v;
    enum cp_status st = number_parse(s, 1, &v);

    if (st)
        return st;
    if (v < 0 || v > 9007199254740992.0 || v != floor(v))
        return CP_ERR_RANGE;
    *out = (uint64_t)v;
    return CP_OK;
}
