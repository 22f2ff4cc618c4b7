/*
 * number.h - the number syntax of plan values and options (README "Plans"):
 * plain integers, decimals and exponents ("15e12", "1.5e3", "-2"), with the
 * suffixes K, M, G, T (powers of 1000) for counts ("15T"), in either case,
 * and B for billions (10^9, as model sizes are written: "70B").  Anything
 * else -
 * hex, "nan", "inf", trailing junk, empty text, out-of-range magnitude - is
 * an error.  Independent of the locale: '.' is the decimal point.
 */
#ifndef LLMPLAN_UTIL_NUMBER_H
#define LLMPLAN_UTIL_NUMBER_H

#include <stdint.h>

#include "core/status.h"

/* A finite double with an optional K/M/G/T/B suffix when allow_suffix.
 * CP_ERR_PARSE for bad syntax, CP_ERR_RANGE for non-finite results. */
enum cp_status number_parse(const char *s, int allow_suffix,
                            double *out /* OUT */);

/* A whole non-negative count (suffixes allowed) up to 2^53, so that it is
 * exact as a double.  "1.5K" is 1500; "1.5" is CP_ERR_RANGE (not whole);
 * "-3" is CP_ERR_RANGE. */
enum cp_status number_parse_count(const char *s, uint64_t *out /* OUT */);

#endif
