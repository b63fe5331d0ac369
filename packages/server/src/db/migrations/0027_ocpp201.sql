-- OCPP 2.0.1 beside 1.6 (issue 31): the protocol a charger connects with, 2.0.1 transaction ids, and the device model from base reports.
CREATE TABLE "cp_device_reports" (
	"cp_id" integer PRIMARY KEY NOT NULL,
	"request_id" integer NOT NULL,
	"report_base" text NOT NULL,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"parts" integer DEFAULT 0 NOT NULL,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "cp_device_variables" (
	"cp_id" integer NOT NULL,
	"component" text NOT NULL,
	"component_instance" text DEFAULT '' NOT NULL,
	"evse_id" integer DEFAULT 0 NOT NULL,
	"connector_id" integer DEFAULT 0 NOT NULL,
	"variable" text NOT NULL,
	"variable_instance" text DEFAULT '' NOT NULL,
	"attribute_type" text DEFAULT 'Actual' NOT NULL,
	"value" text,
	"mutability" text,
	"data_type" text,
	"unit" text,
	"values_list" text,
	"read_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cp_device_variables_cp_id_component_component_instance_evse_id_connector_id_variable_variable_instance_attribute_type_pk" PRIMARY KEY("cp_id","component","component_instance","evse_id","connector_id","variable","variable_instance","attribute_type")
);
--> statement-breakpoint
ALTER TABLE "cps" ADD COLUMN "ocpp_protocol" text;--> statement-breakpoint
ALTER TABLE "cp_sessions" ADD COLUMN "ocpp_transaction_id" text;--> statement-breakpoint
ALTER TABLE "cp_device_reports" ADD CONSTRAINT "cp_device_reports_cp_id_cps_cp_id_fk" FOREIGN KEY ("cp_id") REFERENCES "public"."cps"("cp_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cp_device_variables" ADD CONSTRAINT "cp_device_variables_cp_id_cps_cp_id_fk" FOREIGN KEY ("cp_id") REFERENCES "public"."cps"("cp_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "cp_sessions_ocpp_tx_uq" ON "cp_sessions" USING btree ("cp_id","ocpp_transaction_id") WHERE ocpp_transaction_id is not null;