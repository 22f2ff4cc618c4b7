-- 0017_expert_extras.sql - issue 19, gpt-oss-120B on Megatron-Bridge 25.11:
-- a model's experts may carry biases (the second layer's added expert by
-- expert) and clamp their gated activation (gpt-oss swiglu_limit), which
-- Megatron-Core runs as element-wise passes apart from the grouped GEMMs
-- (steptime.c steptime_moe_eager_bytes).  Empty = no; set by
-- `catalog import models --hf` from a gpt_oss config.json.

ALTER TABLE models ADD COLUMN expert_bias INTEGER;
ALTER TABLE models ADD COLUMN act_clamp INTEGER;
