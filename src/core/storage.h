/*
 * storage.h - checkpoint size and write time, data ingest rate and the
 * capacity the job needs on the shared storage tier.
 *
 * Model (README "The model"; reference/catalog.md section 4):
 *   - a checkpoint holds the whole model's weights and optimizer state:
 *     params x (2 bytes of 16-bit weights + optimizer bytes per param).
 *     Optimizer bytes (mixed precision, fp32 master copy 4 B included):
 *     adam 12 (master 4 + m 4 + v 4; ZeRO section 3.1), adam8bit 6
 *     (master 4 + 8-bit m and v; Dettmers et al. 2022), sgd 8 (master 4
 *     + momentum 4).  So 14 / 8 / 10 bytes per parameter; the reference
 *     gives 14-16 for Adam.  Gradients are not checkpointed.
 *   - every node writes its shard in parallel, so the shared tier's write
 *     bandwidth is the bottleneck: write time = bytes / storage.write_bps
 *     (BLOOM-176B: 2.3 TB in ~40 s at ~57 GB/s).
 *   - ingest = tokens/s x bytes per stored token: 2 bytes (uint16 ids, as
 *     Megatron's indexed datasets store them) when the vocabulary fits in
 *     65,536 ids, else 4.
 *   - capacity (raw TB bought) = (STORAGE_CHECKPOINTS_KEPT checkpoints +
 *     the dataset, tokens x (bytes per stored token + raw text bytes per
 *     token) + scratch) / STORAGE_USABLE_FRAC.  A plan states the whole
 *     shared tier with hardware.storage_tb when it serves more than this
 *     job (Meta's RSC: 231 PB for every team).
 *
 * The warning "checkpoint write exceeds 10% of the interval" needs the
 * Young/Daly interval, so reliability_estimate() issues it.
 */
#ifndef LLMPLAN_CORE_STORAGE_H
#define LLMPLAN_CORE_STORAGE_H

#include "result.h"
#include "spec.h"

#define STORAGE_CHECKPOINTS_KEPT 2
/* The source text of the dataset, kept next to its tokens: about 4
 * characters (bytes of UTF-8 English) per BPE token (OpenAI tokenizer
 * guide: "1 token ~= 4 chars in English"). */
#define STORAGE_RAW_BYTES_PER_TOKEN 4.0
/* Scratch (shuffles, evaluation outputs, logs) as a fraction of the rest:
 * an llmplan ESTIMATE. */
#define STORAGE_SCRATCH_FRAC 0.2
/* Lustre usable capacity ~80% of raw (stas00, reference 4). */
#define STORAGE_USABLE_FRAC 0.8

/* Bytes per parameter in a checkpoint (16-bit weights + optimizer state)
 * for optimizer o: adam 14, adam8bit 8, sgd 10. */
double storage_checkpoint_bytes_per_param(enum optimizer o);

/* Bytes per stored token for a model of vocabulary vocab (0 = the derived
 * default 51,200): 2 up to 65,536 ids, else 4. */
double storage_bytes_per_token(uint64_t vocab);

/* Fill r->storage.  Reads r->model.params and r->time.tokens_per_s; may
 * append warnings (ingest above the read bandwidth, capacity above the
 * provisioned one). */
void storage_estimate(const struct scenario *sc, struct result *r /* OUT */);

/* Terabytes (10^12 B) of shared storage the cluster owns and powers: the
 * provisioned storage.capacity_tb when given, else what the job needs
 * (r->storage.capacity_bytes).  Used by energy and cost. */
double storage_provisioned_tb(const struct scenario *sc,
                              const struct result *r);

#endif
