-- 0021_rocm_kernels.sql - two kernels a serving engine may have on one
-- vendor's accelerators and not another's (issue 22, x22b).  Two stack
-- columns, appended at the end of the table in the same place as in
-- src/catalog/catalog_kinds.c STACK_COLS; the built-in rows get the value
-- data/stacks.csv gives them, `llmplan catalog reset` refreshes them all.
--
-- custom_ar_on: the accelerator vendors on which the engine runs its own
-- TP all-reduce kernel (serve.c tp_allreduce_s); elsewhere every
-- all-reduce goes to the vendor's collective library (NCCL, RCCL) at its
-- measured latency and bus bandwidth (accelerators nccl_ar_us,
-- nccl_ar_gb_s).  vLLM 0.6: NVIDIA only (vllm/config.py
-- ParallelConfig._verify_args: "if is_hip(): self.disable_custom_all_reduce
-- = True", "Disabled the custom all-reduce kernel because it is not
-- supported on AMD GPUs."; MI300 got it in vLLM PR #14125, 2025-03).
--
-- fp8_row_fused_on: the vendors on which a GEMM of FP8 weights scaled per
-- output channel and activations scaled per token (software.fp8_scaling =
-- row: Meta's FP8 checkpoints, fbgemm_fp8) runs with the scales fused into
-- its epilogue; elsewhere it writes fp32 and dequantises in separate
-- passes (serve_dequant.c).  vLLM 0.6: NVIDIA only (CUTLASS scaled_mm;
-- on ROCm w8a8_utils.apply_fp8_linear's "Fallback for channelwise case,
-- where we use unfused DQ due to limitations with scaled_mm").
--
-- Empty = every vendor the stack runs on.

ALTER TABLE stacks ADD COLUMN custom_ar_on TEXT;
ALTER TABLE stacks ADD COLUMN fp8_row_fused_on TEXT;
UPDATE stacks SET custom_ar_on = 'NVIDIA', fp8_row_fused_on = 'NVIDIA'
    WHERE id IN ('vllm-0.6', 'vllm-0.6-chunked');
