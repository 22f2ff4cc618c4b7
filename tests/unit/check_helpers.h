/*
 * check_helpers.h - shared assertions for the Check suites.
 */
#ifndef LLMPLAN_TESTS_CHECK_HELPERS_H
#define LLMPLAN_TESTS_CHECK_HELPERS_H

#include <check.h>
#include <math.h>

/* |x - want| <= rel * |want| (or <= rel when want is 0). */
#define ck_assert_rel(x, want, rel)                                            \
    do {                                                                       \
        double ck_x_ = (x), ck_w_ = (want), ck_r_ = (rel);                     \
        double ck_tol_ = ck_w_ != 0 ? fabs(ck_w_) * ck_r_ : ck_r_;             \
        ck_assert_msg(fabs(ck_x_ - ck_w_) <= ck_tol_,                          \
                      "%s = %.10g, want %.10g (rel %.3g)", #x, ck_x_, ck_w_,   \
                      ck_r_);                                                  \
    } while (0)

#define ck_assert_finite(x)                                                    \
    ck_assert_msg(isfinite(x), "%s = %g is not finite", #x, (double)(x))

#define ck_assert_finite_nonneg(x)                                             \
    ck_assert_msg(isfinite(x) && (x) >= 0, "%s = %g is not finite and >= 0",  \
                  #x, (double)(x))

#endif
