CREATE TABLE "bay" (
	"id" serial PRIMARY KEY NOT NULL,
	"bayId" text NOT NULL,
	"bayName" text,
	"type" text DEFAULT 'Normal' NOT NULL,
	"cpLocId" text,
	"mallId" text,
	"locId" integer,
	"cpId" integer,
	"connectorId" integer,
	"brand" text,
	"licensePlate" text,
	"inTime" timestamp with time zone,
	"outTime" timestamp with time zone,
	"autoDownloadFlag" smallint DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'Vacant' NOT NULL,
	"penaltyMode" text,
	"image" text,
	"urlGetBayInfo" text,
	"cre_dttm" timestamp with time zone DEFAULT now() NOT NULL,
	"lupd_dttm" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "bay_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"sessionId" text,
	"status" text,
	"requestStatus" text,
	"bayUpdateStatus" text,
	"relatedRsr" integer,
	"bayId" integer,
	"brand" text,
	"licensePlate" text,
	"imageLocalPath" text,
	"locId" integer,
	"mallId" text,
	"inTime" timestamp with time zone,
	"outTime" timestamp with time zone,
	"errorCode" text,
	"response" text,
	"cre_dttm" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "campaign" (
	"id" serial PRIMARY KEY NOT NULL,
	"externalCampaignId" text,
	"name" text NOT NULL,
	"nameCHT" text,
	"nameCHS" text,
	"applicableTime" text,
	"applicableTimeCHT" text,
	"applicableTimeCHS" text,
	"tnc" text,
	"tncCHT" text,
	"tncCHS" text,
	"fee" bigint DEFAULT 0 NOT NULL,
	"maxChargingUnit" integer,
	"isAllCpLocFlag" smallint DEFAULT 0 NOT NULL,
	"creUserName" text,
	"locIds" integer[] DEFAULT '{}'::int[] NOT NULL,
	"isVoucher" smallint DEFAULT 0 NOT NULL,
	"cre_dttm" timestamp with time zone DEFAULT now() NOT NULL,
	"lupd_dttm" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "campaign_rule" (
	"id" serial PRIMARY KEY NOT NULL,
	"campaignId" integer NOT NULL,
	"campaignRuleTypeCode" text NOT NULL,
	"ruleName" text,
	"campaignRuleConfig" text DEFAULT '[]' NOT NULL,
	"description" text,
	"descriptionCht" text,
	"descriptionChs" text,
	"cre_dttm" timestamp with time zone DEFAULT now() NOT NULL,
	"lupd_dttm" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "charging_rate" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"type" text DEFAULT 'Time' NOT NULL,
	"gracing_period" integer DEFAULT 0 NOT NULL,
	"loc_id" integer,
	"max_daily_charging_session" integer,
	"max_charging_unit" integer,
	"max_penalty_unit" integer,
	"redeem_period" integer,
	"max_redeem_count" integer,
	"unit" integer DEFAULT 15 NOT NULL,
	"cre_dttm" timestamp with time zone DEFAULT now() NOT NULL,
	"lupd_dttm" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "charging_rate_cp" (
	"cp_id" integer PRIMARY KEY NOT NULL,
	"chargingRateId" integer NOT NULL,
	"cre_dttm" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "charging_rate_detail" (
	"id" serial PRIMARY KEY NOT NULL,
	"chargingRateId" integer NOT NULL,
	"startTime" text NOT NULL,
	"endTime" text NOT NULL,
	"peak" smallint DEFAULT 0 NOT NULL,
	"maxChargingUnit" integer,
	"penaltyUnit" integer,
	"unit" text,
	"priceSchemeId" integer,
	"penaltyFee" bigint,
	"fee" bigint,
	"point" integer,
	"weekday" integer[] DEFAULT '{}'::int[] NOT NULL,
	"cre_dttm" timestamp with time zone DEFAULT now() NOT NULL,
	"lupd_dttm" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "cp_rsr" (
	"rsr_id" serial PRIMARY KEY NOT NULL,
	"external_account_id" text,
	"cp_id" integer NOT NULL,
	"connector_id" integer NOT NULL,
	"bay_id" integer,
	"charging_rate_id" integer,
	"campaign_id" integer,
	"status" text NOT NULL,
	"payment_status" text,
	"penalty_mode" text,
	"current_unit_session" integer DEFAULT 0 NOT NULL,
	"max_charging_unit" integer NOT NULL,
	"charging_fee" bigint DEFAULT 0 NOT NULL,
	"penalty_fee" bigint DEFAULT 0 NOT NULL,
	"point" integer DEFAULT 0 NOT NULL,
	"redeem_voucher_sessions" integer DEFAULT 0 NOT NULL,
	"session_id" integer,
	"tran_id" integer,
	"payment_result_id" integer,
	"duration" integer NOT NULL,
	"stop_type" text,
	"stop_reason" text,
	"start_time" timestamp with time zone,
	"end_time" timestamp with time zone,
	"actual_end_time" timestamp with time zone,
	"actual_finished_time" timestamp with time zone,
	"gracing_period_end_dttm" timestamp with time zone,
	"cancel_time" timestamp with time zone,
	"settled_time" timestamp with time zone,
	"start_code" text,
	"lp" text,
	"unit_in_minutes" integer NOT NULL,
	"rate" text,
	"uuid" uuid DEFAULT gen_random_uuid() NOT NULL,
	"mall_id" text,
	"carpark_id" text,
	"lprs_session_id" text,
	"lprs_out_session_id" text,
	"brand_in" text,
	"lp_in" text,
	"brand_out" text,
	"lp_out" text,
	"in_time" timestamp with time zone,
	"out_time" timestamp with time zone,
	"ev_disconnect_time" timestamp with time zone,
	"remarks" text,
	"is_free" text DEFAULT 'N' NOT NULL,
	"cre_dttm" timestamp with time zone DEFAULT now() NOT NULL,
	"lupd_dttm" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cp_rsr_api_log" (
	"api_log_id" bigserial PRIMARY KEY NOT NULL,
	"api_log_type" text NOT NULL,
	"rsr_id" integer,
	"url" text,
	"request_data" jsonb,
	"response_data" jsonb,
	"cre_dttm" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cp_rsr_request" (
	"rsr_req_id" bigserial PRIMARY KEY NOT NULL,
	"rsr_id" integer,
	"cp_no" text,
	"request_data" jsonb,
	"response_data" jsonb,
	"cre_dttm" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_result" (
	"id" serial PRIMARY KEY NOT NULL,
	"rsr_id" integer NOT NULL,
	"status" text DEFAULT 'Unsettled' NOT NULL,
	"amount" bigint NOT NULL,
	"cre_dttm" timestamp with time zone DEFAULT now() NOT NULL,
	"lupd_dttm" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_result_detail" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"resultId" integer NOT NULL,
	"referenceMemberId" text,
	"paymentType" text,
	"amount" bigint NOT NULL,
	"startTime" timestamp with time zone,
	"endTime" timestamp with time zone,
	"autoPaymentExpiredTime" timestamp with time zone,
	"gracingPeriodEndDttm" timestamp with time zone,
	"actualFinishedTime" timestamp with time zone,
	"penaltyDuration" integer,
	"point" integer,
	"redeemVoucherSessions" integer,
	"status" text NOT NULL,
	"actionType" text NOT NULL,
	"requestReference" text,
	"transactionReference" text,
	"currentUnitSession" integer,
	"shkOrderReferenceNum" text,
	"shkHeader" text,
	"cre_dttm" timestamp with time zone DEFAULT now() NOT NULL,
	"lupd_dttm" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "price_scheme" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"fee" bigint DEFAULT 0 NOT NULL,
	"locId" integer,
	"maxChargingUnit" integer DEFAULT 1 NOT NULL,
	"type" text DEFAULT 'Fixed' NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"cre_dttm" timestamp with time zone DEFAULT now() NOT NULL,
	"lupd_dttm" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "price_scheme_detail" (
	"id" serial PRIMARY KEY NOT NULL,
	"priceSchemeId" integer NOT NULL,
	"session" integer NOT NULL,
	"cash" bigint DEFAULT 0 NOT NULL,
	"point" integer DEFAULT 0 NOT NULL,
	"enable_flag" smallint DEFAULT 1 NOT NULL,
	"cre_dttm" timestamp with time zone DEFAULT now() NOT NULL,
	"lupd_dttm" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "voucher" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"memberId" text NOT NULL,
	"campaignId" integer NOT NULL,
	"voucherExpireDate" date NOT NULL,
	"rsrId" integer,
	"status" text DEFAULT 'Valid' NOT NULL,
	"creUserName" text,
	"redeemDttm" timestamp with time zone,
	"cre_dttm" timestamp with time zone DEFAULT now() NOT NULL,
	"lupd_dttm" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "bay" ADD CONSTRAINT "bay_locId_cp_locs_loc_id_fk" FOREIGN KEY ("locId") REFERENCES "public"."cp_locs"("loc_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bay" ADD CONSTRAINT "bay_cpId_cps_cp_id_fk" FOREIGN KEY ("cpId") REFERENCES "public"."cps"("cp_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_rule" ADD CONSTRAINT "campaign_rule_campaignId_campaign_id_fk" FOREIGN KEY ("campaignId") REFERENCES "public"."campaign"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "charging_rate" ADD CONSTRAINT "charging_rate_loc_id_cp_locs_loc_id_fk" FOREIGN KEY ("loc_id") REFERENCES "public"."cp_locs"("loc_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "charging_rate_cp" ADD CONSTRAINT "charging_rate_cp_cp_id_cps_cp_id_fk" FOREIGN KEY ("cp_id") REFERENCES "public"."cps"("cp_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "charging_rate_cp" ADD CONSTRAINT "charging_rate_cp_chargingRateId_charging_rate_id_fk" FOREIGN KEY ("chargingRateId") REFERENCES "public"."charging_rate"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "charging_rate_detail" ADD CONSTRAINT "charging_rate_detail_chargingRateId_charging_rate_id_fk" FOREIGN KEY ("chargingRateId") REFERENCES "public"."charging_rate"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "charging_rate_detail" ADD CONSTRAINT "charging_rate_detail_priceSchemeId_price_scheme_id_fk" FOREIGN KEY ("priceSchemeId") REFERENCES "public"."price_scheme"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cp_rsr" ADD CONSTRAINT "cp_rsr_cp_id_cps_cp_id_fk" FOREIGN KEY ("cp_id") REFERENCES "public"."cps"("cp_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cp_rsr" ADD CONSTRAINT "cp_rsr_bay_id_bay_id_fk" FOREIGN KEY ("bay_id") REFERENCES "public"."bay"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cp_rsr" ADD CONSTRAINT "cp_rsr_charging_rate_id_charging_rate_id_fk" FOREIGN KEY ("charging_rate_id") REFERENCES "public"."charging_rate"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cp_rsr" ADD CONSTRAINT "cp_rsr_campaign_id_campaign_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaign"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_result" ADD CONSTRAINT "payment_result_rsr_id_cp_rsr_rsr_id_fk" FOREIGN KEY ("rsr_id") REFERENCES "public"."cp_rsr"("rsr_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_result_detail" ADD CONSTRAINT "payment_result_detail_resultId_payment_result_id_fk" FOREIGN KEY ("resultId") REFERENCES "public"."payment_result"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "price_scheme" ADD CONSTRAINT "price_scheme_locId_cp_locs_loc_id_fk" FOREIGN KEY ("locId") REFERENCES "public"."cp_locs"("loc_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "price_scheme_detail" ADD CONSTRAINT "price_scheme_detail_priceSchemeId_price_scheme_id_fk" FOREIGN KEY ("priceSchemeId") REFERENCES "public"."price_scheme"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "voucher" ADD CONSTRAINT "voucher_campaignId_campaign_id_fk" FOREIGN KEY ("campaignId") REFERENCES "public"."campaign"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "bay_bay_id_uq" ON "bay" USING btree ("bayId") WHERE deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "bay_cp_idx" ON "bay" USING btree ("cpId","connectorId");--> statement-breakpoint
CREATE INDEX "bay_log_bay_idx" ON "bay_log" USING btree ("bayId","id");--> statement-breakpoint
CREATE INDEX "campaign_rule_campaign_idx" ON "campaign_rule" USING btree ("campaignId");--> statement-breakpoint
CREATE INDEX "charging_rate_loc_idx" ON "charging_rate" USING btree ("loc_id");--> statement-breakpoint
CREATE INDEX "charging_rate_cp_rate_idx" ON "charging_rate_cp" USING btree ("chargingRateId");--> statement-breakpoint
CREATE INDEX "charging_rate_detail_rate_idx" ON "charging_rate_detail" USING btree ("chargingRateId");--> statement-breakpoint
CREATE INDEX "cp_rsr_cp_idx" ON "cp_rsr" USING btree ("cp_id","status");--> statement-breakpoint
CREATE INDEX "cp_rsr_member_idx" ON "cp_rsr" USING btree ("external_account_id","cre_dttm");--> statement-breakpoint
CREATE INDEX "cp_rsr_session_idx" ON "cp_rsr" USING btree ("session_id");--> statement-breakpoint
CREATE INDEX "cp_rsr_request_rsr_idx" ON "cp_rsr_request" USING btree ("rsr_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_result_rsr_uq" ON "payment_result" USING btree ("rsr_id");--> statement-breakpoint
CREATE INDEX "payment_result_detail_result_idx" ON "payment_result_detail" USING btree ("resultId");--> statement-breakpoint
CREATE INDEX "price_scheme_loc_idx" ON "price_scheme" USING btree ("locId");--> statement-breakpoint
CREATE INDEX "price_scheme_detail_scheme_idx" ON "price_scheme_detail" USING btree ("priceSchemeId","session");--> statement-breakpoint
CREATE INDEX "voucher_member_idx" ON "voucher" USING btree ("memberId","status");--> statement-breakpoint
CREATE INDEX "voucher_campaign_idx" ON "voucher" USING btree ("campaignId");