CREATE TABLE "app_settings" (
	"key" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"lupd_dttm" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "login_tokens" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"token_hash" text NOT NULL,
	"ip" text,
	"cre_dttm" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_dttm" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "portal_action_log" (
	"id" serial PRIMARY KEY NOT NULL,
	"action" text NOT NULL,
	"target" text NOT NULL,
	"target_id" text,
	"old_data" jsonb,
	"new_data" jsonb,
	"remark" text,
	"cre_user" text,
	"user_id" integer,
	"cre_dttm" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "privileges" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"enable_flag" smallint DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "role_privileges" (
	"role_id" integer NOT NULL,
	"privilege_id" integer NOT NULL,
	CONSTRAINT "role_privileges_role_id_privilege_id_pk" PRIMARY KEY("role_id","privilege_id")
);
--> statement-breakpoint
CREATE TABLE "roles" (
	"id" serial PRIMARY KEY NOT NULL,
	"role" text NOT NULL,
	"name_chi" text NOT NULL,
	"level" integer DEFAULT 10 NOT NULL,
	"cre_dttm" timestamp with time zone DEFAULT now() NOT NULL,
	"lupd_dttm" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_log" (
	"user_log_id" serial PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"username" text,
	"msg" text,
	"ip" text,
	"user_id" integer,
	"cre_dttm" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_sites" (
	"user_id" integer NOT NULL,
	"loc_id" integer NOT NULL,
	CONSTRAINT "user_sites_user_id_loc_id_pk" PRIMARY KEY("user_id","loc_id")
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"role_id" integer NOT NULL,
	"username" text NOT NULL,
	"email" text,
	"password_hash" text NOT NULL,
	"active" smallint DEFAULT 1 NOT NULL,
	"cp_loc_flag" smallint DEFAULT 1 NOT NULL,
	"cre_dttm" timestamp with time zone DEFAULT now() NOT NULL,
	"lupd_dttm" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "cp_connectors" (
	"id" serial PRIMARY KEY NOT NULL,
	"cp_id" integer NOT NULL,
	"connector_id" integer NOT NULL,
	"connector_name" text,
	"status" text,
	"error_code" text,
	"vendor_error_code" text,
	"info" text,
	"last_status_dttm" timestamp with time zone,
	"extra" jsonb,
	"cre_dttm" timestamp with time zone DEFAULT now() NOT NULL,
	"lupd_dttm" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cp_locs" (
	"loc_id" serial PRIMARY KEY NOT NULL,
	"address" text NOT NULL,
	"address_chi" text,
	"address_chs" text,
	"enable_flag" smallint DEFAULT 1 NOT NULL,
	"provider_id" integer,
	"mode_id" integer,
	"district_id" integer,
	"gps_lat" double precision,
	"gps_lang" double precision,
	"rate_id" integer,
	"min_charging_unit" integer,
	"max_charging_unit" integer,
	"default_charging_unit" integer,
	"free_charge_flag" smallint DEFAULT 0 NOT NULL,
	"postpaid_min_charge" integer,
	"postpaid_max_charge" integer,
	"postpaid_allowance_min" integer,
	"lms_profile_id" integer,
	"enable_lms" smallint DEFAULT 0 NOT NULL,
	"external_loc_id" text,
	"mall_id" text,
	"station_code" text,
	"contact_number" text,
	"remark" text,
	"cre_dttm" timestamp with time zone DEFAULT now() NOT NULL,
	"lupd_dttm" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "cp_pow" (
	"power_meter_type_id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"factor" double precision DEFAULT 1 NOT NULL,
	"rotation_value" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cp_zones" (
	"zone_id" serial PRIMARY KEY NOT NULL,
	"loc_id" integer NOT NULL,
	"name_chi" text NOT NULL,
	"max_physical_current_limit" integer NOT NULL,
	"cre_dttm" timestamp with time zone DEFAULT now() NOT NULL,
	"lupd_dttm" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cps" (
	"cp_id" serial PRIMARY KEY NOT NULL,
	"cp_no" text NOT NULL,
	"name" text NOT NULL,
	"name_chi" text,
	"charge_box_serial_number" text,
	"charger_type" text,
	"cp_type" text,
	"loc_id" integer NOT NULL,
	"zone_id" integer,
	"power_meter_type_id" integer,
	"power_meter_factor" double precision,
	"power_meter_rotation_value" integer,
	"firmware_version" text,
	"charging_status_code" text,
	"charging_status" text,
	"connectora_status" text,
	"connectorb_status" text,
	"online_flag" smallint DEFAULT 0 NOT NULL,
	"online_since" timestamp with time zone,
	"last_message_dttm" timestamp with time zone,
	"last_status_dttm" timestamp with time zone,
	"boot_dttm" timestamp with time zone,
	"enable_flag" smallint DEFAULT 1 NOT NULL,
	"max_power_output" integer DEFAULT 32 NOT NULL,
	"heartbeat_interval" integer DEFAULT 30 NOT NULL,
	"private_flag" smallint DEFAULT 0 NOT NULL,
	"ac_flag" smallint DEFAULT 1 NOT NULL,
	"dc_flag" smallint DEFAULT 0 NOT NULL,
	"mac_addr" text,
	"ip" text,
	"port" integer,
	"remark" text,
	"freecharge_flag" smallint DEFAULT 0 NOT NULL,
	"min_current_threshold" integer,
	"min_power_threshold" integer,
	"double_use_flag" smallint DEFAULT 0 NOT NULL,
	"change_availability" text,
	"charge_point_model" text,
	"charge_point_serial_number" text,
	"charge_point_vendor" text,
	"iccid" text,
	"imsi" text,
	"meter_serial_number" text,
	"meter_type" text,
	"error_code" text,
	"mct_status_code" text,
	"ocpp_password_hash" text,
	"cre_dttm" timestamp with time zone DEFAULT now() NOT NULL,
	"lupd_dttm" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "login_tokens" ADD CONSTRAINT "login_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "role_privileges" ADD CONSTRAINT "role_privileges_role_id_roles_id_fk" FOREIGN KEY ("role_id") REFERENCES "public"."roles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "role_privileges" ADD CONSTRAINT "role_privileges_privilege_id_privileges_id_fk" FOREIGN KEY ("privilege_id") REFERENCES "public"."privileges"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_sites" ADD CONSTRAINT "user_sites_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_role_id_roles_id_fk" FOREIGN KEY ("role_id") REFERENCES "public"."roles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cp_connectors" ADD CONSTRAINT "cp_connectors_cp_id_cps_cp_id_fk" FOREIGN KEY ("cp_id") REFERENCES "public"."cps"("cp_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cp_zones" ADD CONSTRAINT "cp_zones_loc_id_cp_locs_loc_id_fk" FOREIGN KEY ("loc_id") REFERENCES "public"."cp_locs"("loc_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cps" ADD CONSTRAINT "cps_loc_id_cp_locs_loc_id_fk" FOREIGN KEY ("loc_id") REFERENCES "public"."cp_locs"("loc_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cps" ADD CONSTRAINT "cps_zone_id_cp_zones_zone_id_fk" FOREIGN KEY ("zone_id") REFERENCES "public"."cp_zones"("zone_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cps" ADD CONSTRAINT "cps_power_meter_type_id_cp_pow_power_meter_type_id_fk" FOREIGN KEY ("power_meter_type_id") REFERENCES "public"."cp_pow"("power_meter_type_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "login_tokens_hash_uq" ON "login_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "login_tokens_user_idx" ON "login_tokens" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "portal_action_log_target_idx" ON "portal_action_log" USING btree ("target","target_id");--> statement-breakpoint
CREATE UNIQUE INDEX "privileges_name_uq" ON "privileges" USING btree ("name");--> statement-breakpoint
CREATE UNIQUE INDEX "roles_role_uq" ON "roles" USING btree ("role");--> statement-breakpoint
CREATE INDEX "user_log_cre_dttm_idx" ON "user_log" USING btree ("cre_dttm");--> statement-breakpoint
CREATE INDEX "user_log_type_idx" ON "user_log" USING btree ("type","user_log_id");--> statement-breakpoint
CREATE INDEX "user_log_username_idx" ON "user_log" USING btree ("username","user_log_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_username_uq" ON "users" USING btree ("username") WHERE deleted_at is null;--> statement-breakpoint
CREATE UNIQUE INDEX "cp_connectors_cp_conn_uq" ON "cp_connectors" USING btree ("cp_id","connector_id");--> statement-breakpoint
CREATE UNIQUE INDEX "cp_locs_address_uq" ON "cp_locs" USING btree ("address") WHERE deleted_at is null;--> statement-breakpoint
CREATE UNIQUE INDEX "cp_pow_name_uq" ON "cp_pow" USING btree ("name");--> statement-breakpoint
CREATE INDEX "cp_zones_loc_idx" ON "cp_zones" USING btree ("loc_id");--> statement-breakpoint
CREATE UNIQUE INDEX "cps_cp_no_uq" ON "cps" USING btree ("cp_no") WHERE deleted_at is null;--> statement-breakpoint
CREATE INDEX "cps_loc_idx" ON "cps" USING btree ("loc_id");--> statement-breakpoint
CREATE INDEX "cps_zone_idx" ON "cps" USING btree ("zone_id");