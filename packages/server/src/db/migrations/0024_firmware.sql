-- Firmware updates (issue 29): firmware images, update jobs sent in waves to chargers, each target charger's state, and each charger's last firmware / diagnostics status.
CREATE TABLE "firmware" (
	"firmware_id" serial PRIMARY KEY NOT NULL,
	"version" text NOT NULL,
	"charge_point_vendor" text,
	"charge_point_model" text,
	"url" text NOT NULL,
	"checksum" text,
	"notes" text,
	"cre_dttm" timestamp with time zone DEFAULT now() NOT NULL,
	"lupd_dttm" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "firmware_jobs" (
	"firmware_job_id" serial PRIMARY KEY NOT NULL,
	"firmware_id" integer NOT NULL,
	"target_kind" text NOT NULL,
	"target_ids" integer[] NOT NULL,
	"retrieve_date" timestamp with time zone NOT NULL,
	"retries" integer,
	"retry_interval" integer,
	"max_failure_pct" integer DEFAULT 100 NOT NULL,
	"wave_size" integer DEFAULT 5 NOT NULL,
	"status" text DEFAULT 'Running' NOT NULL,
	"stop_reason" text,
	"total" integer DEFAULT 0 NOT NULL,
	"created_by" integer,
	"created_by_name" text,
	"finished_at" timestamp with time zone,
	"cre_dttm" timestamp with time zone DEFAULT now() NOT NULL,
	"lupd_dttm" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "firmware_job_chargers" (
	"id" serial PRIMARY KEY NOT NULL,
	"firmware_job_id" integer NOT NULL,
	"cp_id" integer NOT NULL,
	"cp_no" text NOT NULL,
	"state" text DEFAULT 'Queued' NOT NULL,
	"state_at" timestamp with time zone DEFAULT now() NOT NULL,
	"claimed_at" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"reported_version" text,
	"history" jsonb DEFAULT '[]'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cp_firmware_status" (
	"cp_id" integer PRIMARY KEY NOT NULL,
	"firmware_status" text,
	"firmware_status_at" timestamp with time zone,
	"diagnostics_status" text,
	"diagnostics_status_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "firmware_jobs" ADD CONSTRAINT "firmware_jobs_firmware_id_firmware_firmware_id_fk" FOREIGN KEY ("firmware_id") REFERENCES "public"."firmware"("firmware_id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "firmware_job_chargers" ADD CONSTRAINT "firmware_job_chargers_firmware_job_id_firmware_jobs_firmware_job_id_fk" FOREIGN KEY ("firmware_job_id") REFERENCES "public"."firmware_jobs"("firmware_job_id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "firmware_job_chargers" ADD CONSTRAINT "firmware_job_chargers_cp_id_cps_cp_id_fk" FOREIGN KEY ("cp_id") REFERENCES "public"."cps"("cp_id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "cp_firmware_status" ADD CONSTRAINT "cp_firmware_status_cp_id_cps_cp_id_fk" FOREIGN KEY ("cp_id") REFERENCES "public"."cps"("cp_id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "firmware_job_chargers_job_cp_uq" ON "firmware_job_chargers" USING btree ("firmware_job_id","cp_id");
--> statement-breakpoint
CREATE INDEX "firmware_job_chargers_cp_idx" ON "firmware_job_chargers" USING btree ("cp_id","id");
--> statement-breakpoint
CREATE INDEX "firmware_jobs_running_idx" ON "firmware_jobs" USING btree ("status") WHERE "firmware_jobs"."status" = 'Running';
