-- 0020_cast_kernel.sql - the kernels a training stack casts to 8 bits
-- with (issue 19, x19c; steptime.c steptime_cast_bytes).  One stack
-- column, appended at the end of the table in the same place as in
-- src/catalog/catalog_kinds.c STACK_COLS; the built-in rows get the value
-- data/stacks.csv gives them, `llmplan catalog reset` refreshes them all.
--
-- cast_kernel: empty or te = Transformer Engine's casts, fused into the op
-- before (the FP8 recipes of Megatron-Core, NeMo, llm-foundry);
-- torchao = torchao.float8 and torchao mx_formats under torch.compile
-- (torchtitan): float8 without a recipe name is torchao's dynamic
-- tensorwise (torchtitan components/quantization/float8.py builds
-- Float8LinearConfig()), and MXFP8 casts along each axis in a kernel of
-- its own (torchao testing/training/roofline_utils.py, mxfp8_cublas;
-- torchtitan's MX mxfp8_dim1_cast_kernel_choice triton).

ALTER TABLE stacks ADD COLUMN cast_kernel TEXT;
UPDATE stacks SET cast_kernel = 'torchao' WHERE id = 'torchtitan';
