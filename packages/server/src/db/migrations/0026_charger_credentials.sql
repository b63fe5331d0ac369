-- Charger password rotation from the portal (issue 29): the previous sign-in stays accepted until the charger signs in with the new password.
ALTER TABLE "cps" ADD COLUMN "ocpp_password_previous_hash" text;
--> statement-breakpoint
ALTER TABLE "cps" ADD COLUMN "ocpp_password_rotating" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
ALTER TABLE "cps" ADD COLUMN "password_changed_at" timestamp with time zone;
