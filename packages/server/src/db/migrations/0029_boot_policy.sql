-- How each charger's BootNotification is answered (issue 31, OCPP 2.0.1 B02/B03): accept, provision (Pending until its configuration is read) or reject; boot_status the last answer when not Accepted.
ALTER TABLE "cps" ADD COLUMN "boot_policy" text DEFAULT 'accept' NOT NULL;--> statement-breakpoint
ALTER TABLE "cps" ADD COLUMN "boot_status" text;