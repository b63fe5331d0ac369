-- Zones get an English name beside name_chi, so the English portal no longer shows Chinese zone names (issue 27).
-- Optional: the spec's zone has only name_chi, and its clients create zones without one; where it is blank the
-- English reader sees name_chi. Existing zones start with their Chinese name so no list shows a blank.
ALTER TABLE "cp_zones" ADD COLUMN "name" text;--> statement-breakpoint
UPDATE "cp_zones" SET "name" = "name_chi";
