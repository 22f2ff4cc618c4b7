-- 0008_capacity.sql - issue 18, items 1 and 5 (after 0006_buy):
-- cloud.capacity_source, where an offer's capacity_gpus comes from
-- (instance quota, cluster size, capacity block): a published capacity
-- needs it.  The built-in systems get their sale, unit_gpus and
-- sale_source here (as data/systems.csv), so that a catalog made before
-- 0006_buy never offers to own a TPU; only those new columns are set.

ALTER TABLE cloud ADD COLUMN capacity_source TEXT;

UPDATE systems SET sale = 'both', unit_gpus = 16,
    sale_source = 'sold by the server: the row''s node price is one whole server'
    WHERE id = 'dgx-2';
UPDATE systems SET sale = 'both', unit_gpus = 8,
    sale_source = 'sold by the server: the row''s node price is one whole server'
    WHERE id = 'dgx-a100-320gb';
UPDATE systems SET sale = 'both', unit_gpus = 8,
    sale_source = 'sold by the server: the row''s node price is one whole server'
    WHERE id = 'dgx-a100';
UPDATE systems SET sale = 'both', unit_gpus = 8,
    sale_source = 'sold by the server: the row''s node price is one whole server'
    WHERE id = 'dgx-h100';
UPDATE systems SET sale = 'both', unit_gpus = 8,
    sale_source = 'sold by the server: the row''s node price is one whole server'
    WHERE id = 'hgx-h800';
UPDATE systems SET sale = 'both', unit_gpus = 8,
    sale_source = 'sold by the server: the row''s node price is one whole server'
    WHERE id = 'dgx-h200';
UPDATE systems SET sale = 'both', unit_gpus = 8,
    sale_source = 'sold by the server: the row''s node price is one whole server'
    WHERE id = 'h100-pcie-8';
UPDATE systems SET sale = 'both', unit_gpus = 8,
    sale_source = 'sold by the server: the row''s node price is one whole server'
    WHERE id = 'h100-nvl-8';
UPDATE systems SET sale = 'both', unit_gpus = 8,
    sale_source = 'sold by the server: the row''s node price is one whole server'
    WHERE id = 'l40s-8';
UPDATE systems SET sale = 'both', unit_gpus = 8,
    sale_source = 'sold by the server: the row''s node price is one whole server'
    WHERE id = 'dgx-b200';
UPDATE systems SET sale = 'both', unit_gpus = 8,
    sale_source = 'sold by the server: the row''s node price is one whole server'
    WHERE id = 'dgx-b300';
UPDATE systems SET sale = 'both', unit_gpus = 72,
    sale_source = 'NVIDIA GB200/GB300 NVL72 is sold as a rack of 72 GPUs in 18 trays on one NVLink domain (NVIDIA; reference catalog 1, 3.1)'
    WHERE id = 'gb200-nvl72';
UPDATE systems SET sale = 'both', unit_gpus = 72,
    sale_source = 'NVIDIA GB200/GB300 NVL72 is sold as a rack of 72 GPUs in 18 trays on one NVLink domain (NVIDIA; reference catalog 1, 3.1)'
    WHERE id = 'gb300-nvl72';
UPDATE systems SET sale = 'both', unit_gpus = 4,
    sale_source = 'sold by the server: the row''s node price is one whole server'
    WHERE id = 'mi250x-4';
UPDATE systems SET sale = 'both', unit_gpus = 8,
    sale_source = 'sold by the server: the row''s node price is one whole server'
    WHERE id = 'mi300x-8';
UPDATE systems SET sale = 'both', unit_gpus = 8,
    sale_source = 'sold by the server: the row''s node price is one whole server'
    WHERE id = 'mi325x-8';
UPDATE systems SET sale = 'both', unit_gpus = 8,
    sale_source = 'sold by the server: the row''s node price is one whole server'
    WHERE id = 'mi355x-8';
UPDATE systems SET sale = 'rent', unit_gpus = NULL,
    sale_source = 'Cloud TPU is offered only as a Google Cloud service (GCP docs, reference catalog 2); the node price is Epoch''s equivalent purchase estimate (arXiv 2405.21015), not a sale'
    WHERE id = 'tpu-v4-pod';
UPDATE systems SET sale = 'rent', unit_gpus = NULL,
    sale_source = 'Cloud TPU is offered only as a Google Cloud service (GCP docs, reference catalog 2); the node price is Epoch''s equivalent purchase estimate (arXiv 2405.21015), not a sale'
    WHERE id = 'tpu-v5e-pod';
UPDATE systems SET sale = 'rent', unit_gpus = NULL,
    sale_source = 'Cloud TPU is offered only as a Google Cloud service (GCP docs, reference catalog 2); the node price is Epoch''s equivalent purchase estimate (arXiv 2405.21015), not a sale'
    WHERE id = 'tpu-v5p-pod';
UPDATE systems SET sale = 'rent', unit_gpus = NULL,
    sale_source = 'Cloud TPU is offered only as a Google Cloud service (GCP docs, reference catalog 2); the node price is Epoch''s equivalent purchase estimate (arXiv 2405.21015), not a sale'
    WHERE id = 'tpu-v6e-pod';
UPDATE systems SET sale = 'both', unit_gpus = 8,
    sale_source = 'sold by the server: the row''s node price is one whole server'
    WHERE id = 'gaudi2-8';
UPDATE systems SET sale = 'both', unit_gpus = 8,
    sale_source = 'sold by the server: the row''s node price is one whole server'
    WHERE id = 'gaudi3-8';
UPDATE systems SET sale = 'rent', unit_gpus = NULL,
    sale_source = 'Trainium2 is offered only as Amazon EC2 Trn2 instances and UltraServers (AWS docs, reference catalog 2)'
    WHERE id = 'trn2-16';

-- the built-in offers' published capacities (as data/cloud.csv), where
-- the row has none of its own
UPDATE cloud SET capacity_gpus = 20000,
    capacity_source = 'AWS EC2 P5 product page (2023): P5 instances are deployed in EC2 UltraClusters of up to 20,000 H100 GPUs, the most one cluster supplies'
    WHERE id = 'aws-p5.48xlarge' AND capacity_gpus IS NULL;
UPDATE cloud SET capacity_gpus = 26000,
    capacity_source = 'Google Cloud via HPCwire/EnterpriseAI (2023-05-11): A3 supercomputers of up to 26,000 H100 GPUs in a single cluster for the largest customers'
    WHERE id = 'gcp-a3-highgpu-8g' AND capacity_gpus IS NULL;
