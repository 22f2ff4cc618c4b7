/*
 * storage.c - checkpoint, ingest and capacity (see storage.h for the model).
 */
#include <math.h>
#include <string.h>

#include "core/clamp.h"
#include "core/storage.h"

double storage_checkpoint_bytes_per_param(enum optimizer o)
{
    /* 2 bytes of bf16/fp16 weights plus the optimizer state, fp32 master
     * weights included (Rajbhandari et al. 2020, ZeRO section 3.1: K = 12
     * for mixed-precision Adam; 8-bit Adam keeps m and v in one byte each,
     * Dettmers et al. 2022; SGD keeps one fp32 momentum). */
    switch (o) {
    case OPT_ADAM8BIT:
        return 2 + 4 + 1 + 1;
    case OPT_SGD:
        return 2 + 4 + 4;
    case OPT_ADAM:
    default:
        return 2 + 4 + 4 + 4;
    }
}

double storage_bytes_per_token(uint64_t vocab)
{
    /* Token ids stored as uint16 when they fit (Megatron-LM's indexed
     * dataset picks the smallest dtype that holds the vocabulary), else
     * as int32.  vocab 0 means the derived default 51,200. */
    return vocab <= 65536 ? 2 : 4;
}

void storage_estimate(const struct scenario *sc, struct result *r)
{
    struct storage_result *s = &r->storage;
    double params = clamp_pos(r->model.params);
    double per_token = storage_bytes_per_token(sc->model.vocab);
    double tokens = clamp_pos(sc->train.tokens);
    double ckpt, need, have;

    memset(s, 0, sizeof(*s));
    ckpt = clamp_pos(params *
                     storage_checkpoint_bytes_per_param(sc->train.optimizer));
    s->checkpoint_bytes = ckpt;

    /* All nodes write their shards at once; the shared tier's aggregate
     * write bandwidth is the limit (BLOOM: 2.3 TB in ~40 s, reference 4).
     * No bandwidth given: the write time is not modelled. */
    if (sc->storage.write_bps > 0)
        s->checkpoint_write_s = clamp_pos(ckpt / sc->storage.write_bps);
    else
        result_warn(r, "storage has no write bandwidth; checkpoint time "
                       "not modelled");

    /* Each trained token is read once from the tokenized dataset. */
    s->ingest_bytes_per_s = clamp_pos(r->time.tokens_per_s * per_token);
    if (sc->storage.read_bps > 0 &&
        s->ingest_bytes_per_s > sc->storage.read_bps)
        result_warn(r,
                    "data ingest (%.3g GB/s) exceeds the storage read "
                    "bandwidth (%.3g GB/s)",
                    s->ingest_bytes_per_s / 1e9, sc->storage.read_bps / 1e9);

    /* Keep the last checkpoints (one may be half-written when a failure
     * strikes); the dataset as text and tokenized; scratch on top; all
     * on a file system of which only part is usable. */
    s->checkpoints_bytes = clamp_pos(STORAGE_CHECKPOINTS_KEPT * ckpt);
    s->dataset_bytes =
        clamp_pos(tokens * (per_token + STORAGE_RAW_BYTES_PER_TOKEN));
    s->scratch_bytes = clamp_pos(STORAGE_SCRATCH_FRAC *
                                 (s->checkpoints_bytes + s->dataset_bytes));
    need =
        clamp_pos((s->checkpoints_bytes + s->dataset_bytes + s->scratch_bytes) /
                  STORAGE_USABLE_FRAC);
    s->capacity_bytes = need;
    s->provisioned_bytes = storage_provisioned_tb(sc, r) * 1e12;
    have = sc->storage.capacity_tb * 1e12;
    if (have > 0 && need > have)
        result_warn(r,
                    "job needs %.0f TB of storage, more than the %.0f TB "
                    "provisioned",
                    need / 1e12, sc->storage.capacity_tb);
}

double storage_provisioned_tb(const struct scenario *sc, const struct result *r)
{
    if (sc->storage.capacity_tb > 0)
        return clamp_pos(sc->storage.capacity_tb);
    return clamp_pos(r->storage.capacity_bytes / 1e12);
}
