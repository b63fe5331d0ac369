-- The BRIN time index of cp_requests summarizes 512 pages a range instead of 128: at 128, above about 9,000
-- MeterValues a second, autovacuum's queue of summary requests overflowed and PostgreSQL logged every lost
-- request with the whole group-commit statement (issue 14; db/schema/ocpp.ts). A BRIN index builds in one
-- pass over the table.
DROP INDEX "cp_requests_cre_dttm_idx";--> statement-breakpoint
CREATE INDEX "cp_requests_cre_dttm_idx" ON "cp_requests" USING brin ("cre_dttm") WITH (autosummarize=true,pages_per_range=512);
