ALTER TABLE "cp_sessions" ADD COLUMN "stop_note" text;--> statement-breakpoint
ALTER TABLE "cp_sessions" ADD COLUMN "planned_end_dttm" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "cp_sessions" ADD COLUMN "planned_stop_sent_dttm" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "cp_sessions_planned_end_idx" ON "cp_sessions" USING btree ("planned_end_dttm") WHERE session_end_time is null and planned_end_dttm is not null and planned_stop_sent_dttm is null;