-- 0003_finance.sql - columns for the finance model (issue 12).
--
-- ALTER TABLE appends, so these columns come last in their tables, as
-- they do in src/catalog/catalog_kinds.c.  NULL reads as the column's
-- default there (nics_included yes; rear doors up to 50 kW at 400 USD/kW;
-- direct liquid at 1,000 USD/kW and PUE 1.15; no capacity limit known).
-- Registered after 0002 (the lead's migration): user_version 3.

ALTER TABLE systems ADD COLUMN nics_included INTEGER;

ALTER TABLE sites ADD COLUMN rear_door_kw_per_rack REAL;
ALTER TABLE sites ADD COLUMN rear_door_usd_per_kw REAL;
ALTER TABLE sites ADD COLUMN liquid_usd_per_kw REAL;
ALTER TABLE sites ADD COLUMN liquid_pue REAL;

ALTER TABLE cloud ADD COLUMN capacity_gpus INTEGER;
ALTER TABLE cloud ADD COLUMN spot_mtbi_h REAL;
