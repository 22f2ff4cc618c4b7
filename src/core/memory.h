/*
 * memory.h - bytes per accelerator while training, by component.
 *
 * Model states (Rajbhandari et al. 2020, ZeRO section 3.1): 16-bit weights
 * (4 bytes when training in fp32), gradients in train.grad_dtype (fp32 as
 * Megatron's main grads, 16-bit as in ZeRO), optimizer states (Adam: fp32
 * master copy + m + v = 12 bytes; 8-bit Adam: master + two 1-byte states =
 * 6; SGD: master + momentum = 8).  ZeRO stage 1 shards the optimizer over
 * the data-parallel group (dp * cp ranks, as Megatron's distributed
 * optimizer), stage 2 also the gradients, stage 3 also the weights, whose
 * working buffers (the layer in use and the stack's zero3_prefetch layers
 * gathered ahead, 16-bit, plus one layer's unsharded gradient before its
 * reduce-scatter, as FSDP2 holds them; under a live-parameter cap, as
 * DeepSpeed's stage3_max_live_parameters, at most the cap plus one module
 * and one module's gradient) are counted in overhead so that model states
 * match ZeRO Table 1.  A stack that shards inside the scale-up domain only
 * (dp_shard_domain) divides by the group's ranks in one domain.
 * software.offload=optimizer_activations puts the checkpoints of full
 * recomputation in host memory (off the accelerator's total;
 * host_optimizer_gib stays the optimizer's).
 *
 * Activations (Korthikanti et al. 2022, Table 2 and section 4), derived from
 * the tensors a layer saves so that GQA, gated FFNs and MoE change them:
 *   replicated by TP (split only with sequence parallelism):
 *     2 layernorm inputs 4sbh, QKV and FFN inputs 2sbh + 2sbh, 2 dropout
 *     masks 2sbh                                          -> 10 sbh
 *   split by TP: Q 2sbh, K and V 2sbh*g each (g = a_kv/a), attention
 *     output 2sbh, FFN internals 4sbf (6sbf gated: gate, up, product)
 *                                              -> 24 sbh for GPT shapes
 *   attention scores when materialised and not recomputed: 5 a s^2 b
 *     (softmax 2, dropout mask 1, dropout output 2 bytes per score), /t.
 * Selective recomputation drops the scores; full recomputation keeps only
 * each layer's input (2sbh, /t with SP) plus one layer's working set.
 * Context parallelism divides s by c.  MoE layers keep k copies of the
 * routed tokens and k expert FFNs' internals per token.
 * Pipeline (1F1B): the first stage holds min(m, p) microbatches of its L/p
 * layers; interleaving multiplies by 1 + (p-1)/(p v) (Korthikanti 4.2.3).
 * The last stage adds the fp32 logits 4 s b V / t.
 * Overhead: the stack's reserve (CUDA context, cuBLAS workspace, NCCL
 * buffers) plus its allocator slack as a fraction of activations, plus
 * ZeRO-3 gather buffers.
 *
 * The busiest accelerator is the pipeline stage (first or last) with the
 * larger total; its components are reported.
 */
#ifndef LLMPLAN_CORE_MEMORY_H
#define LLMPLAN_CORE_MEMORY_H

#include "core/model.h"
#include "core/result.h"
#include "core/spec.h"

/* Bytes of stored activations of one transformer layer for one microbatch
 * on one accelerator (all terms above; attention scores included when
 * `scores` is true and the layer is not recomputed). */
double memory_layer_activation_bytes(const struct scenario *sc,
                                     const struct model_shape *m, bool moe,
                                     bool scores);

/* True when memory keeps the attention scores: a materialised attention
 * core (attention_materialised) that is not recomputed. */
bool memory_keeps_scores(const struct scenario *sc);

/* The ranks ZeRO shards the model state over: dp x cp, or the group's
 * ranks inside one scale-up domain when the stack shards there only and
 * replicates across domains (stack dp_shard_domain). */
double memory_zero_shard(const struct scenario *sc);

/* The weight matrices of one dense layer on one accelerator (TP split t),
 * in parameters and in the order the forward uses them: fused QKV,
 * attention output, FFN in, FFN out.  ZeRO-3 under DeepSpeed gathers them
 * one module at a time. */
#define MEMORY_LAYER_TENSORS 4
void memory_layer_tensors(const struct model_shape *m, double t,
                          double out[MEMORY_LAYER_TENSORS] /* OUT */);

/* Fill *out for sc (validated) with shape m. */
void memory_estimate(const struct scenario *sc, const struct model_shape *m,
                     struct memory_result *out /* OUT */);

#endif
