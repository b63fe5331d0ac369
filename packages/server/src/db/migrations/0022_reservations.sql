-- OCPP 1.6 reservations (issue 29): one row per ReserveNow, its reservationId being the row id.
CREATE TABLE "reservations" (
	"reservation_id" serial PRIMARY KEY NOT NULL,
	"cp_id" integer NOT NULL,
	"connector_id" integer DEFAULT 0 NOT NULL,
	"id_tag" text NOT NULL,
	"parent_id_tag" text,
	"expiry_dttm" timestamp with time zone NOT NULL,
	"status" text DEFAULT 'Pending' NOT NULL,
	"answer" text,
	"created_by" text,
	"session_id" integer,
	"ended_dttm" timestamp with time zone,
	"cre_dttm" timestamp with time zone DEFAULT now() NOT NULL,
	"lupd_dttm" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "reservations" ADD CONSTRAINT "reservations_cp_id_cps_cp_id_fk" FOREIGN KEY ("cp_id") REFERENCES "public"."cps"("cp_id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "reservations_cp_id_idx" ON "reservations" USING btree ("cp_id","reservation_id");
--> statement-breakpoint
CREATE INDEX "reservations_open_expiry_idx" ON "reservations" USING btree ("expiry_dttm") WHERE "reservations"."status" IN ('Pending', 'Accepted');
