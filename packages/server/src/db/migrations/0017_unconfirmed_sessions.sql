-- A running session the charger showed had ended without its StopTransaction (the connector reported Available,
-- or the charger booted): flagged unconfirmed, for the operator to close or the auto-close rule (issue 27).
ALTER TABLE "cp_sessions" ADD COLUMN "unconfirmed_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "cp_sessions" ADD COLUMN "unconfirmed_reason" text;--> statement-breakpoint
CREATE INDEX "cp_sessions_unconfirmed_idx" ON "cp_sessions" USING btree ("unconfirmed_since") WHERE session_end_time is null and unconfirmed_since is not null;
