-- A charger's OCPP local authorization list (issue 29): the version it holds, what it was last sent and answered, pending card changes.
CREATE TABLE "cp_local_list" (
	"cp_id" integer PRIMARY KEY NOT NULL,
	"expected_version" integer DEFAULT 0 NOT NULL,
	"entries" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"reported_version" integer,
	"reported_at" timestamp with time zone,
	"pending_since" timestamp with time zone,
	"last_update_type" text,
	"last_version" integer,
	"last_answer" text,
	"sent_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "cp_local_list" ADD CONSTRAINT "cp_local_list_cp_id_cps_cp_id_fk" FOREIGN KEY ("cp_id") REFERENCES "public"."cps"("cp_id") ON DELETE cascade ON UPDATE no action;
