-- The charging profiles the server set on each connector (issue 29): written when a charger accepts SetChargingProfile, removed when it clears them.
CREATE TABLE "cp_charging_profiles" (
	"cp_id" integer NOT NULL,
	"connector_id" integer NOT NULL,
	"charging_profile_id" integer NOT NULL,
	"purpose" text NOT NULL,
	"stack_level" integer NOT NULL,
	"kind" text NOT NULL,
	"recurrency" text,
	"valid_from" timestamp with time zone,
	"valid_to" timestamp with time zone,
	"transaction_id" integer,
	"schedule" jsonb NOT NULL,
	"source" text NOT NULL,
	"set_at" timestamp with time zone DEFAULT now() NOT NULL,
	"set_by" text,
	CONSTRAINT "cp_charging_profiles_cp_id_charging_profile_id_pk" PRIMARY KEY("cp_id","charging_profile_id")
);
--> statement-breakpoint
ALTER TABLE "cp_charging_profiles" ADD CONSTRAINT "cp_charging_profiles_cp_id_cps_cp_id_fk" FOREIGN KEY ("cp_id") REFERENCES "public"."cps"("cp_id") ON DELETE cascade ON UPDATE no action;
