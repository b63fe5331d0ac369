-- Trigram indexes: the list text filter is a case-insensitive "contains" (ILIKE '%x%'), which a b-tree cannot serve.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "user_log_msg_trgm_idx" ON "user_log" USING gin ("msg" gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "user_log_username_trgm_idx" ON "user_log" USING gin ("username" gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "user_log_ip_trgm_idx" ON "user_log" USING gin ("ip" gin_trgm_ops);
