/*
 * clamp.h - the one guard every core output passes through: a figure
 * that is not positive (0, negative, NaN) is 0, and one past 1e300 is
 * 1e300, so no result carries a NaN, an infinity or a negative cost.
 */
#ifndef LLMPLAN_CORE_CLAMP_H
#define LLMPLAN_CORE_CLAMP_H

static inline double clamp_pos(double x)
{
    if (!(x > 0))
        return 0;
    return x < 1e300 ? x : 1e300;
}

#endif
