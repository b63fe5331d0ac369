CREATE TABLE "account_service_plans" (
	"asp_id" serial PRIMARY KEY NOT NULL,
	"acc_id" integer NOT NULL,
	"plan_id" integer NOT NULL,
	"cp_id" integer,
	"start_date" date NOT NULL,
	"end_date" date,
	"plan_total" bigint DEFAULT 0 NOT NULL,
	"cre_dttm" timestamp with time zone DEFAULT now() NOT NULL,
	"lupd_dttm" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "account_vehicles" (
	"id" serial PRIMARY KEY NOT NULL,
	"acc_id" integer NOT NULL,
	"cp" integer,
	"car_reg_no" text NOT NULL,
	"rfid_cards" text DEFAULT '' NOT NULL,
	"acc_status" smallint DEFAULT 1 NOT NULL,
	"cre_dttm" timestamp with time zone DEFAULT now() NOT NULL,
	"lupd_dttm" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "accounts" (
	"acc_id" serial PRIMARY KEY NOT NULL,
	"first_name" text,
	"last_name" text,
	"mobile_no" text,
	"email" text,
	"acc_bal" bigint DEFAULT 0 NOT NULL,
	"hkid" text,
	"birthday" date,
	"acc_status" smallint DEFAULT 1 NOT NULL,
	"default_lang" text,
	"tnc_flag" smallint DEFAULT 0 NOT NULL,
	"rfid_cards" text DEFAULT '' NOT NULL,
	"address" text,
	"reg_dttm" timestamp with time zone DEFAULT now() NOT NULL,
	"car_reg_no" text,
	"loc_ids" integer[] DEFAULT '{}'::int[] NOT NULL,
	"master_flag" smallint DEFAULT 0 NOT NULL,
	"cre_dttm" timestamp with time zone DEFAULT now() NOT NULL,
	"lupd_dttm" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "alert" (
	"alert_id" bigserial PRIMARY KEY NOT NULL,
	"cp_id" integer NOT NULL,
	"cp_no" text NOT NULL,
	"error_id" text NOT NULL,
	"loc_id" integer,
	"location" text,
	"message" text,
	"last_date" timestamp with time zone DEFAULT now() NOT NULL,
	"level" integer DEFAULT 1 NOT NULL,
	"is_fixes" smallint DEFAULT 0 NOT NULL,
	"fixed_dttm" timestamp with time zone,
	"tran_id" integer,
	"cre_dttm" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alert_notification" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"alert_id" bigint NOT NULL,
	"contact_group_id" integer NOT NULL,
	"level" integer NOT NULL,
	"sent_dttm" timestamp with time zone,
	"error" text,
	"cre_dttm" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "app_config" (
	"id" serial PRIMARY KEY NOT NULL,
	"config_key" text NOT NULL,
	"config_value" text NOT NULL,
	"authority" text DEFAULT 'Admin' NOT NULL,
	"description" text,
	"cre_dttm" timestamp with time zone DEFAULT now() NOT NULL,
	"lupd_dttm" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "contact" (
	"contact_id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"status" smallint DEFAULT 1 NOT NULL,
	"cre_dttm" timestamp with time zone DEFAULT now() NOT NULL,
	"lupd_dttm" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "contact_group" (
	"contact_group_id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"status" smallint DEFAULT 1 NOT NULL,
	"level" smallint DEFAULT 1 NOT NULL,
	"contact_ids" integer[] DEFAULT '{}'::int[] NOT NULL,
	"loc_ids" integer[] DEFAULT '{}'::int[] NOT NULL,
	"error_ids" text[] DEFAULT '{}'::text[] NOT NULL,
	"cre_dttm" timestamp with time zone DEFAULT now() NOT NULL,
	"lupd_dttm" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "contact_group_level_ck" CHECK ("contact_group"."level" IN (1, 5, 10))
);
--> statement-breakpoint
CREATE TABLE "cp_opening_hour" (
	"cp_id" integer PRIMARY KEY NOT NULL,
	"opening_hour_id" integer NOT NULL,
	"applied_state" text,
	"applied_dttm" timestamp with time zone,
	"cre_dttm" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "data_rotation_setup" (
	"id" serial PRIMARY KEY NOT NULL,
	"item" text NOT NULL,
	"period_month" integer DEFAULT 12 NOT NULL,
	"is_enabled" smallint DEFAULT 0 NOT NULL,
	"last_run_dttm" timestamp with time zone,
	"last_deleted" bigint,
	"lupd_dttm" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "opening_hour" (
	"opening_hour_id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"start_time" text NOT NULL,
	"end_time" text NOT NULL,
	"weekday" integer[] DEFAULT '{}'::int[] NOT NULL,
	"date_list" text[] DEFAULT '{}'::text[] NOT NULL,
	"cre_dttm" timestamp with time zone DEFAULT now() NOT NULL,
	"lupd_dttm" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "service_plans" (
	"plan_id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"cre_dttm" timestamp with time zone DEFAULT now() NOT NULL,
	"lupd_dttm" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "third_party_conf" (
	"id" serial PRIMARY KEY NOT NULL,
	"key_name" text NOT NULL,
	"app_id" text NOT NULL,
	"assigned" text,
	"privilege_key" text NOT NULL,
	"api_key_hash" text,
	"cre_dttm" timestamp with time zone DEFAULT now() NOT NULL,
	"lupd_dttm" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "third_party_error_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"app_id" text,
	"rsr_id" integer,
	"action" text,
	"carpark_id" text,
	"member_id" text,
	"charger_id" text,
	"connector_id" integer,
	"connector_status" text,
	"error_code" text,
	"mall_id" text,
	"reason" text,
	"error_time" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "account_service_plans" ADD CONSTRAINT "account_service_plans_acc_id_accounts_acc_id_fk" FOREIGN KEY ("acc_id") REFERENCES "public"."accounts"("acc_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_service_plans" ADD CONSTRAINT "account_service_plans_plan_id_service_plans_plan_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."service_plans"("plan_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_service_plans" ADD CONSTRAINT "account_service_plans_cp_id_cps_cp_id_fk" FOREIGN KEY ("cp_id") REFERENCES "public"."cps"("cp_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_vehicles" ADD CONSTRAINT "account_vehicles_acc_id_accounts_acc_id_fk" FOREIGN KEY ("acc_id") REFERENCES "public"."accounts"("acc_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_vehicles" ADD CONSTRAINT "account_vehicles_cp_cps_cp_id_fk" FOREIGN KEY ("cp") REFERENCES "public"."cps"("cp_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert" ADD CONSTRAINT "alert_cp_id_cps_cp_id_fk" FOREIGN KEY ("cp_id") REFERENCES "public"."cps"("cp_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_notification" ADD CONSTRAINT "alert_notification_alert_id_alert_alert_id_fk" FOREIGN KEY ("alert_id") REFERENCES "public"."alert"("alert_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_notification" ADD CONSTRAINT "alert_notification_contact_group_id_contact_group_contact_group_id_fk" FOREIGN KEY ("contact_group_id") REFERENCES "public"."contact_group"("contact_group_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cp_opening_hour" ADD CONSTRAINT "cp_opening_hour_cp_id_cps_cp_id_fk" FOREIGN KEY ("cp_id") REFERENCES "public"."cps"("cp_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cp_opening_hour" ADD CONSTRAINT "cp_opening_hour_opening_hour_id_opening_hour_opening_hour_id_fk" FOREIGN KEY ("opening_hour_id") REFERENCES "public"."opening_hour"("opening_hour_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "account_service_plans_acc_idx" ON "account_service_plans" USING btree ("acc_id");--> statement-breakpoint
CREATE INDEX "account_vehicles_acc_idx" ON "account_vehicles" USING btree ("acc_id");--> statement-breakpoint
CREATE INDEX "accounts_mobile_idx" ON "accounts" USING btree ("mobile_no");--> statement-breakpoint
CREATE UNIQUE INDEX "alert_open_uq" ON "alert" USING btree ("cp_id","error_id") WHERE is_fixes = 0;--> statement-breakpoint
CREATE INDEX "alert_loc_idx" ON "alert" USING btree ("loc_id","alert_id");--> statement-breakpoint
CREATE UNIQUE INDEX "alert_notification_uq" ON "alert_notification" USING btree ("alert_id","contact_group_id","level");--> statement-breakpoint
CREATE UNIQUE INDEX "app_config_key_uq" ON "app_config" USING btree ("config_key");--> statement-breakpoint
CREATE INDEX "cp_opening_hour_oh_idx" ON "cp_opening_hour" USING btree ("opening_hour_id");--> statement-breakpoint
CREATE UNIQUE INDEX "data_rotation_setup_item_uq" ON "data_rotation_setup" USING btree ("item");--> statement-breakpoint
CREATE UNIQUE INDEX "third_party_conf_app_uq" ON "third_party_conf" USING btree ("app_id") WHERE deleted_at is null;--> statement-breakpoint
INSERT INTO "app_config" ("config_key", "config_value", "authority") SELECT "key", "value", 'Admin' FROM "app_settings" ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO "data_rotation_setup" ("item", "period_month", "is_enabled") VALUES ('cp_request', 12, 0), ('cp_session', 36, 0), ('cp_meter_value', 12, 0), ('transaction', 36, 0) ON CONFLICT DO NOTHING;
