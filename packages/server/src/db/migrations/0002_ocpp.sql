CREATE TABLE "auth_card" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"rfid_cards" text DEFAULT '' NOT NULL,
	"loc" integer,
	"cp" integer,
	"active" smallint DEFAULT 1 NOT NULL,
	"cre_dttm" timestamp with time zone DEFAULT now() NOT NULL,
	"lupd_dttm" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cp_meter_values" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"session_id" integer,
	"cp_id" integer NOT NULL,
	"connector_id" integer,
	"ts" timestamp with time zone NOT NULL,
	"energy" bigint,
	"voltage" double precision,
	"ampere" double precision,
	"soc" double precision,
	"cre_dttm" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cp_requests" (
	"req_id" bigserial PRIMARY KEY NOT NULL,
	"request_type" smallint NOT NULL,
	"cp_id" integer NOT NULL,
	"cp_no" text NOT NULL,
	"charge_box_serial_number" text,
	"connector_id" integer,
	"connector_status" text,
	"request_data" jsonb,
	"response_data" jsonb,
	"cre_dttm" timestamp with time zone DEFAULT now() NOT NULL,
	"session_id" integer,
	"tran_id" integer,
	"uuid" text,
	"loc" integer,
	"energy" bigint,
	"voltage" double precision,
	"ampere" double precision,
	"rsr_id" integer
);
--> statement-breakpoint
CREATE TABLE "cp_sessions" (
	"session_id" serial PRIMARY KEY NOT NULL,
	"tran_id" integer NOT NULL,
	"cp_id" integer NOT NULL,
	"cp_no" text NOT NULL,
	"loc_id" integer,
	"connector_id" integer NOT NULL,
	"connector_name" text,
	"id_tag" text NOT NULL,
	"account_id" integer,
	"session_start_time" timestamp with time zone NOT NULL,
	"session_end_time" timestamp with time zone,
	"start_meter" bigint NOT NULL,
	"end_meter" bigint,
	"total_pw_consume" bigint,
	"running_pw_consume" bigint DEFAULT 0 NOT NULL,
	"total_charge_time" integer,
	"start_soc" smallint,
	"end_soc" smallint,
	"stop_reason" text,
	"energy" bigint,
	"voltage" double precision,
	"ampere" double precision,
	"cre_dttm" timestamp with time zone DEFAULT now() NOT NULL,
	"lupd_dttm" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "auth_card" ADD CONSTRAINT "auth_card_loc_cp_locs_loc_id_fk" FOREIGN KEY ("loc") REFERENCES "public"."cp_locs"("loc_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auth_card" ADD CONSTRAINT "auth_card_cp_cps_cp_id_fk" FOREIGN KEY ("cp") REFERENCES "public"."cps"("cp_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cp_sessions" ADD CONSTRAINT "cp_sessions_cp_id_cps_cp_id_fk" FOREIGN KEY ("cp_id") REFERENCES "public"."cps"("cp_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "cp_meter_values_session_idx" ON "cp_meter_values" USING btree ("session_id","ts") WHERE session_id is not null;--> statement-breakpoint
CREATE INDEX "cp_meter_values_cp_idx" ON "cp_meter_values" USING btree ("cp_id","connector_id","ts");--> statement-breakpoint
CREATE INDEX "cp_requests_type_idx" ON "cp_requests" USING btree ("request_type","req_id");--> statement-breakpoint
CREATE INDEX "cp_requests_cp_idx" ON "cp_requests" USING btree ("cp_id","req_id");--> statement-breakpoint
CREATE INDEX "cp_requests_cre_dttm_idx" ON "cp_requests" USING btree ("cre_dttm");--> statement-breakpoint
CREATE INDEX "cp_requests_session_idx" ON "cp_requests" USING btree ("session_id","req_id") WHERE session_id is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "cp_sessions_start_uq" ON "cp_sessions" USING btree ("cp_id","connector_id","id_tag","session_start_time");--> statement-breakpoint
CREATE INDEX "cp_sessions_tran_idx" ON "cp_sessions" USING btree ("tran_id");--> statement-breakpoint
CREATE INDEX "cp_sessions_cp_idx" ON "cp_sessions" USING btree ("cp_id","session_id");--> statement-breakpoint
CREATE INDEX "cp_sessions_loc_idx" ON "cp_sessions" USING btree ("loc_id","session_id");--> statement-breakpoint
CREATE INDEX "cp_sessions_start_idx" ON "cp_sessions" USING btree ("session_start_time");--> statement-breakpoint
CREATE INDEX "cp_sessions_running_idx" ON "cp_sessions" USING btree ("cp_id","connector_id") WHERE session_end_time is null;