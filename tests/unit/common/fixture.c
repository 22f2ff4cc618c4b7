/* fixture.c - hand-built scenarios for core tests; see fixture.h. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "core/scenario.h"
#include "fixture.h"

void fixture_gpt(struct scenario *sc, uint64_t layers, uint64_t hidden,
                 uint64_t heads, uint64_t vocab)
{
    memset(&sc->model, 0, sizeof(sc->model));
    sc->model.layers = layers;
    sc->model.hidden = hidden;
    sc->model.heads = heads;
    sc->model.kv_heads = heads;
    sc->model.ffn = 4 * hidden;
    sc->model.vocab = vocab;
    sc->model.tied_embeddings = true;
}

void fixture_scenario(struct scenario *sc, const char *accel)
{
    struct accel_spec *a = &sc->accel;
    bool h100 = strcmp(accel, "h100-sxm") == 0;

    scenario_defaults(sc);
    snprintf(a->id, sizeof(a->id), "%s", accel);
    /* datasheet figures (reference/accelerators.csv) */
    a->peak_flops[PREC_FP32] = h100 ? 67e12 : 19.5e12;
    a->peak_flops[PREC_TF32] = h100 ? 494.5e12 : 156e12;
    a->peak_flops[PREC_BF16] = h100 ? 989e12 : 312e12;
    a->peak_flops[PREC_FP16] = h100 ? 989e12 : 312e12;
    a->peak_flops[PREC_FP8] = h100 ? 1979e12 : 0;
    a->peak_flops[PREC_INT8] = h100 ? 1979e12 : 624e12;
    a->hbm_bytes = 80.0 * 1024 * 1024 * 1024;
    a->hbm_bps = h100 ? 3.35e12 : 2.039e12;
    a->scaleup_bps = h100 ? 450e9 : 300e9;
    a->tdp_w = h100 ? 700 : 400;
    a->price_usd = h100 ? 31905 : 17349;
    a->gemm_frac = h100 ? 0.6 : 0.76;
    a->gemm_half_flops = h100 ? 2.4e11 : 3.7e10;
    a->attn_frac = h100 ? 0.19 : 0.26;
    a->hbm_frac = 0.85;
    a->kernel_s = 4.5e-6;
    a->power_frac = 0.75;

    snprintf(sc->system.id, sizeof(sc->system.id), "%s",
             h100 ? "dgx-h100" : "dgx-a100");
    sc->system.gpus_per_node = 8;
    sc->system.scaleup_domain = 8;
    sc->system.scaleup_frac = h100 ? 0.8 : 0.78;
    sc->system.host_power_w = h100 ? 4600 : 3300;
    sc->system.node_price_usd = h100 ? 270000 : 199000;
    sc->system.nodes_per_rack = 4;
    sc->system.node_mtbf_h = 6336;

    snprintf(sc->fabric.id, sizeof(sc->fabric.id), "%s",
             h100 ? "ib-ndr" : "ib-hdr");
    sc->fabric.gbps_per_gpu = h100 ? 400 : 200;
    sc->fabric.latency_s = 8e-6;
    sc->fabric.bw_frac = 0.85;
    sc->fabric.switch_radix = h100 ? 64 : 40;
    sc->fabric.switch_price_usd = 30000;
    sc->fabric.switch_power_w = 1500;
    sc->fabric.nic_price_usd = 1500;
    sc->fabric.nic_power_w = 25;
    sc->fabric.transceiver_price_usd = 700;
    sc->fabric.transceiver_power_w = 17;
    sc->fabric.cable_price_usd = 100;
    sc->fabric.rail_optimized = true;

    snprintf(sc->storage.id, sizeof(sc->storage.id), "parallel-fs");
    sc->storage.read_bps = 400e9;
    sc->storage.write_bps = 200e9;
    sc->storage.usd_per_tb = 150;
    sc->storage.watts_per_tb = 5;

    snprintf(sc->site.id, sizeof(sc->site.id), "us-average");
    sc->site.pue = 1.3;
    sc->site.usd_per_kwh = 0.0826;
    sc->site.kgco2_per_kwh = 0.367;
    sc->site.air_kw_per_rack = 30;
    sc->site.liquid_kw_per_rack = 140;
    sc->site.build_usd_per_mw = 11.7e6;

    sc->cloud_usd_per_gpu_hour = h100 ? 6.88 : 3.43;

    fixture_gpt(sc, 48, 6144, 64, 51200);
    sc->train.tokens = 1e12;
    sc->train.seq_len = 2048;
    sc->train.global_batch = 4;
    sc->gpus = 8;
    sc->layout.tp = 8;
    sc->layout.microbatch = 4;
}

/* DGX H100 (~$270k per 8 GPUs, reference 2) on NDR InfiniBand at a
 * US-average site (8 c/kWh, PUE 1.3, $11.7M per MW built; reference 5),
 * default finance (5 years, 8%, 80% utilization, 5% maintenance).
 * Fabric prices are plausible round numbers, not catalog values. */
void fixture_cluster(struct scenario *sc, struct result *r, uint64_t gpus)
{
    memset(sc, 0, sizeof(*sc));
    memset(r, 0, sizeof(*r));
    sc->gpus = gpus;
    sc->accel.tdp_w = 700;
    sc->accel.power_frac = 0.75;
    sc->system.gpus_per_node = 8;
    sc->system.scaleup_domain = 8;
    sc->system.host_power_w = 4600;
    sc->system.node_price_usd = 270000;
    sc->system.nodes_per_rack = 4;
    sc->fabric.switch_radix = 64;
    sc->fabric.switch_price_usd = 30000;
    sc->fabric.switch_power_w = 1000;
    sc->fabric.nic_price_usd = 1500;
    sc->fabric.nic_power_w = 25;
    sc->fabric.transceiver_price_usd = 800;
    sc->fabric.transceiver_power_w = 12;
    sc->fabric.cable_price_usd = 100;
    sc->fabric.rail_optimized = true;
    sc->oversubscription = 1;
    sc->storage.read_bps = 1e12;
    sc->storage.write_bps = 5e11;
    sc->storage.usd_per_tb = 200;
    sc->storage.watts_per_tb = 10;
    sc->site.pue = 1.3;
    sc->site.usd_per_kwh = 0.08;
    sc->site.kgco2_per_kwh = 0.367;
    sc->site.air_kw_per_rack = 30;
    sc->site.liquid_kw_per_rack = 100;
    sc->site.build_usd_per_mw = 11.7e6;
    sc->finance.depreciation_years = 5;
    sc->finance.cost_of_capital = 0.08;
    sc->finance.utilization = 0.8;
    sc->finance.maintenance_frac = 0.05;
    sc->train.tokens = 2e12;
    sc->model.vocab = 128256;
    sc->reliability.restart_min = 10;
    r->model.params = 70e9;
    r->time.train_days = 30;
    r->time.gpu_hours = (double)gpus * 30 * 24;
    r->time.tokens_per_s = 2e12 / (30 * 86400.0);
}

void fixture_llama8b(struct model_spec *m)
{
    memset(m, 0, sizeof(*m));
    m->layers = 32;
    m->hidden = 4096;
    m->heads = 32;
    m->kv_heads = 8;
    m->ffn = 14336;
    m->vocab = 128256;
    m->gated_ffn = true;
    m->attention = MATTN_GQA;
}

void fixture_llama70b(struct model_spec *m)
{
    fixture_llama8b(m);
    m->layers = 80;
    m->hidden = 8192;
    m->heads = 64;
    m->ffn = 28672;
}

void fixture_deepseek_v3(struct model_spec *m)
{
    memset(m, 0, sizeof(*m));
    m->layers = 61;
    m->hidden = 7168;
    m->heads = 128;
    m->kv_heads = 128;
    m->ffn = 18432;
    m->vocab = 129280;
    m->gated_ffn = true;
    m->experts = 256;
    m->experts_active = 8;
    m->shared_experts = 1;
    m->expert_ffn = 2048;
    m->moe_every = 1;
    m->head_dim = 128;
    m->attention = MATTN_MLA;
    m->kv_lora_rank = 512;
    m->rope_head_dim = 64;
}

/* One replica of tp x pp 1, no data, context or expert parallelism. */
static void serving_layout(struct scenario *sc, uint64_t tp)
{
    sc->workload = WORKLOAD_SERVE;
    sc->layout.tp = tp;
    sc->layout.pp = 1;
    sc->layout.dp = 1;
    sc->layout.cp = 1;
    sc->layout.ep = 1;
    sc->layout.microbatch = 1;
    sc->cloud_usd_per_gpu_hour = 2.5;
}

void fixture_serving(struct scenario *sc, uint64_t tp)
{
    fixture_scenario(sc, "h100-sxm");
    serving_layout(sc, tp);
    fixture_llama70b(&sc->model);
    sc->gpus = tp;
    sc->stack.gemm_eff = 0.75;
    sc->stack.attn_eff = 1;
    sc->stack.mbu = 0.8;
    sc->stack.kv_mem_frac = 0.9;
    sc->stack.max_seqs = 2048;
    sc->stack.allreduce_s = 5e-6;
    sc->stack.step_overhead_s = 2e-3;
    sc->stack.decode_overlap = 0.3;
    sc->serve.weights = SD_FP8;
    sc->serve.kv_cache = SD_FP8;
    sc->serve.input_tokens = 1000;
    sc->serve.output_tokens = 1000;
}

void fixture_wide_ep(struct scenario *sc)
{
    fixture_scenario(sc, "h100-sxm");
    serving_layout(sc, 1);
    fixture_deepseek_v3(&sc->model);
    sc->stack.gemm_eff = 0.7;
    sc->stack.attn_eff = 1;
    sc->stack.mbu = 0.75;
    sc->stack.kv_mem_frac = 0.9;
    sc->stack.allreduce_s = 10e-6;
    sc->stack.step_overhead_s = 1e-3;
    sc->stack.decode_overlap = 0.3;
    sc->stack.prefill_chunk = 8192;
    sc->serve.weights = SD_FP8;
    sc->serve.kv_cache = SD_BF16;
    sc->serve.input_tokens = 2000;
    sc->serve.output_tokens = 500;
}

void fixture_eval_ok(const struct scenario *sc, struct result *r)
{
    struct diag d;

    diag_clear(&d);
    ck_assert_msg(scenario_validate(sc, &d) == CP_OK, "%s: %s", d.where,
                  d.msg);
    scenario_eval(sc, r);
}
