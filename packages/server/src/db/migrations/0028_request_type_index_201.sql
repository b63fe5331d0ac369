-- The type filter index leaves out the OCPP 2.0.1 Heartbeat and MeterValues too (issue 31), as it does the 1.6 ones.
DROP INDEX "cp_requests_type_idx";--> statement-breakpoint
CREATE INDEX "cp_requests_type_idx" ON "cp_requests" USING btree ("request_type","req_id") WHERE request_type NOT IN (6, 11, 105, 106);