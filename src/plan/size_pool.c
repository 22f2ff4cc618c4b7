/*
 * size_pool.c - size_pool_run: a small pthread pool (at most
 * SIZE_THREADS, and no more than the CPUs) that runs fn(ctx, i) for every
 * i below n; the layout searches of `llmplan size` run on it.
 */
#include <pthread.h>
#include <stddef.h>
#include <unistd.h>

#include "plan/size_int.h"

#define SIZE_THREADS 4 /* layout searches at once, at most (and CPUs) */

/* The generic pool behind size_pool_run. */
struct gpool {
    void (*fn)(void *ctx, size_t i);
    void *ctx;
    size_t n, next;
    pthread_mutex_t mu;
};

static void *gworker(void *arg)
{
    struct gpool *p = arg;

    for (;;) {
        size_t i;

        pthread_mutex_lock(&p->mu);
        i = p->next++;
        pthread_mutex_unlock(&p->mu);
        if (i >= p->n)
            break;
        p->fn(p->ctx, i);
    }
    return NULL;
}

void size_pool_run(size_t n, void (*fn)(void *ctx, size_t i), void *ctx)
{
    struct gpool p;
    pthread_t th[SIZE_THREADS];
    size_t nt = 0, i;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    size_t want = cpus > 1 ? (size_t)cpus : 1;

    if (want > SIZE_THREADS)
        want = SIZE_THREADS;
    if (want > n)
        want = n;
    p.fn = fn;
    p.ctx = ctx;
    p.n = n;
    p.next = 0;
    pthread_mutex_init(&p.mu, NULL);
    for (i = 1; i < want; i++)
        if (pthread_create(&th[nt], NULL, gworker, &p) == 0)
            nt++;
    gworker(&p);
    for (i = 0; i < nt; i++)
        pthread_join(th[i], NULL);
    pthread_mutex_destroy(&p.mu);
}
