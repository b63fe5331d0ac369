DROP INDEX "cp_meter_values_cp_idx";--> statement-breakpoint
CREATE INDEX "cp_meter_values_chart_idx" ON "cp_meter_values" USING btree ("cp_id","connector_id","ts","energy","voltage","ampere");