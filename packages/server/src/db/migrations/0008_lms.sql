CREATE TABLE "lms_allocations" (
	"cp_id" integer PRIMARY KEY NOT NULL,
	"loc_id" integer NOT NULL,
	"zone_id" integer,
	"state" text NOT NULL,
	"distributed_current" double precision DEFAULT 0 NOT NULL,
	"queueing_pos" integer,
	"wants_since" timestamp with time zone,
	"start_queueing_at" timestamp with time zone,
	"start_tran_at" timestamp with time zone,
	"accepted_current" double precision,
	"profile_status" text,
	"uncontrolled" smallint DEFAULT 0 NOT NULL,
	"lupd_dttm" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lms_profiles" (
	"lms_profile_id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"cp_loc" integer NOT NULL,
	"mode" text NOT NULL,
	"cre_dttm" timestamp with time zone DEFAULT now() NOT NULL,
	"lupd_dttm" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "lms_profiles_mode_ck" CHECK ("lms_profiles"."mode" IN ('QUEUEING', 'DISTRIBUTION', 'MIXED'))
);
--> statement-breakpoint
CREATE TABLE "zone_lms_profiles" (
	"id" serial PRIMARY KEY NOT NULL,
	"lms_profile_id" integer NOT NULL,
	"zone_id" integer NOT NULL,
	"zone_max_available_current" integer NOT NULL,
	"max_charging_current" integer NOT NULL,
	"min_charging_current" integer NOT NULL,
	"cre_dttm" timestamp with time zone DEFAULT now() NOT NULL,
	"lupd_dttm" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "zone_lms_profiles_bounds_ck" CHECK ("zone_lms_profiles"."min_charging_current" >= 0 AND "zone_lms_profiles"."min_charging_current" <= "zone_lms_profiles"."max_charging_current")
);
--> statement-breakpoint
ALTER TABLE "lms_allocations" ADD CONSTRAINT "lms_allocations_cp_id_cps_cp_id_fk" FOREIGN KEY ("cp_id") REFERENCES "public"."cps"("cp_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lms_profiles" ADD CONSTRAINT "lms_profiles_cp_loc_cp_locs_loc_id_fk" FOREIGN KEY ("cp_loc") REFERENCES "public"."cp_locs"("loc_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "zone_lms_profiles" ADD CONSTRAINT "zone_lms_profiles_lms_profile_id_lms_profiles_lms_profile_id_fk" FOREIGN KEY ("lms_profile_id") REFERENCES "public"."lms_profiles"("lms_profile_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "zone_lms_profiles" ADD CONSTRAINT "zone_lms_profiles_zone_id_cp_zones_zone_id_fk" FOREIGN KEY ("zone_id") REFERENCES "public"."cp_zones"("zone_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "lms_allocations_loc_idx" ON "lms_allocations" USING btree ("loc_id");--> statement-breakpoint
CREATE INDEX "lms_profiles_loc_idx" ON "lms_profiles" USING btree ("cp_loc");--> statement-breakpoint
CREATE UNIQUE INDEX "zone_lms_profiles_uq" ON "zone_lms_profiles" USING btree ("lms_profile_id","zone_id");