-- A charger's own configuration keys as it last answered GetConfiguration (issue 29): one row per key.
CREATE TABLE "cp_config_keys" (
	"cp_id" integer NOT NULL,
	"key" text NOT NULL,
	"known" boolean NOT NULL,
	"readonly" boolean,
	"value" text,
	"read_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cp_config_keys_cp_id_key_pk" PRIMARY KEY("cp_id","key")
);
--> statement-breakpoint
ALTER TABLE "cp_config_keys" ADD CONSTRAINT "cp_config_keys_cp_id_cps_cp_id_fk" FOREIGN KEY ("cp_id") REFERENCES "public"."cps"("cp_id") ON DELETE cascade ON UPDATE no action;
