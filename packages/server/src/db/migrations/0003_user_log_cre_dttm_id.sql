-- user_log by date range: (cre_dttm, user_log_id) gives a range's ids by index alone, which the list sorts by id
-- (resources/list.ts), and pages a sort by time without a sort step. It covers the old (cre_dttm) index.
DROP INDEX "user_log_cre_dttm_idx";--> statement-breakpoint
CREATE INDEX "user_log_cre_dttm_id_idx" ON "user_log" USING btree ("cre_dttm","user_log_id");