/* comm.c - collectives written once; the model is in comm.h. */
#include <math.h>

#include "core/comm.h"

/* NCCL's latency steps: a ring takes n - 1, its trees about 2 log2(n). */
static double ring_latency(double n, double alpha)
{
    double ring = n - 1, tree = 2 * log2(n);

    return alpha * (ring < tree ? ring : tree);
}

double comm_allreduce_call_s(double bytes, double n, double beta, double call_s)
{
    if (n <= 1 || bytes <= 0)
        return 0;
    return 2 * (n - 1) / n * bytes / beta + call_s;
}

double comm_allreduce_s(double bytes, double n, double beta, double alpha)
{
    return comm_allreduce_call_s(bytes, n, beta, 2 * ring_latency(n, alpha));
}

double comm_reduce_scatter_s(double bytes, double n, double beta, double alpha)
{
    if (n <= 1 || bytes <= 0)
        return 0;
    return (n - 1) / n * bytes / beta + (n - 1) * alpha;
}

double comm_all_gather_s(double bytes, double n, double beta, double alpha)
{
    return comm_reduce_scatter_s(bytes, n, beta, alpha);
}

double comm_all_to_all_s(double bytes, double n, double beta, double alpha)
{
    if (n <= 1 || bytes <= 0)
        return 0;
    return (n - 1) / n * bytes / beta + (n - 1) * alpha;
}

double comm_p2p_s(double bytes, double beta, double alpha)
{
    return bytes > 0 ? bytes / beta + alpha : 0;
}

double comm_remote_copies(double n, double g, double k, bool forward)
{
    double D = n / g;

    if (!(D > 1))
        return 0;
    if (!forward)
        return k * (n - g) / n;
    /* 1 - (1 - 1/D)^k, accurate for large D */
    return (D - 1) * -expm1(k * log1p(-1 / D));
}

double comm_all_to_all_tiers_s(double bytes, double n, double g, double k,
                               bool forward, double beta_in, double beta_out)
{
    if (n <= 1 || bytes <= 0)
        return 0;
    if (k < 1)
        k = 1;
    return bytes * (g - 1) / n / beta_in +
           bytes / k * comm_remote_copies(n, g, k, forward) / beta_out;
}

double comm_all_to_all_reach_s(double bytes, double n, double g, double k,
                               double reach, double beta_in, double beta_out)
{
    double D = n / g, hit;

    if (n <= 1 || bytes <= 0)
        return 0;
    if (k < 1)
        k = 1;
    if (!(D > 1) || reach >= D)
        return comm_all_to_all_tiers_s(bytes, n, g, k, true, beta_in, beta_out);
    reach = reach < 1 ? 1 : reach;
    hit = reach > 1 ? reach * -expm1(k * log1p(-1 / reach)) : 1;
    return bytes * (g - 1) / n / beta_in +
           bytes / k * hit * (D - 1) / D / beta_out;
}
