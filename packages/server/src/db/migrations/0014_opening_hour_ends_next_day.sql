-- Opening hours: an end before the start is no longer taken as overnight by itself (spec part 2 §5: the end must be
-- greater than the start); the operator says so with ends_next_day (issue 27). Rows saved as overnight before keep
-- working: they are marked as ending the next day.
ALTER TABLE "opening_hour" ADD COLUMN "ends_next_day" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE "opening_hour" SET "ends_next_day" = 1 WHERE "end_time" < "start_time";
