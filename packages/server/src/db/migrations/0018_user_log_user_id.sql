-- A user's own log (the users view's User Log tab) is filtered by user_id, newest first.
CREATE INDEX IF NOT EXISTS "user_log_user_id_idx" ON "user_log" USING btree ("user_id","user_log_id");
