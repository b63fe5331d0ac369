-- When a charger's last connection ended: the portal shows an offline charger as "Offline since …".
ALTER TABLE "cps" ADD COLUMN "offline_since" timestamp with time zone;--> statement-breakpoint
UPDATE "cps" SET "offline_since" = "last_message_dttm" WHERE "online_flag" = 0;
