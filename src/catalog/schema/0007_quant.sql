-- 0007_quant.sql - issue 22: models read from a Hugging Face config.json
-- (src/plan/hfconfig.c) and quantization as serving engines ship it.
-- Appended at the end of each table, in the same place as in
-- src/catalog/catalog_kinds.c.
--
-- models.first_dense_layers: the first n layers are dense and the rest
-- follow moe_every (DeepSeek-V2/V3 first_k_dense_replace); empty = none.

ALTER TABLE models ADD COLUMN first_dense_layers INTEGER;

-- accelerators.fp4_gemm_frac: the best measured 4-bit (NVFP4/MXFP4)
-- matmul over the 4-bit dense peak (ceilings.csv mamf_fp4_tflops); empty
-- = fp8_gemm_frac.

ALTER TABLE accelerators ADD COLUMN fp4_gemm_frac REAL;
