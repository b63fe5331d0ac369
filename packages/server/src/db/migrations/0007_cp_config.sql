CREATE TABLE "cp_config" (
	"cp_config_id" serial PRIMARY KEY NOT NULL,
	"cp_id" integer NOT NULL,
	"ip_address" text,
	"mac_address" text,
	"current" smallint DEFAULT 0 NOT NULL,
	"pending" smallint DEFAULT 0 NOT NULL,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"description" text,
	"fw_ver" text,
	"config_json" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"last_sent" jsonb,
	"sent_dttm" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "fw_ver_config" (
	"fw_ver" text PRIMARY KEY NOT NULL,
	"config_json" jsonb NOT NULL,
	"description" text
);
--> statement-breakpoint
ALTER TABLE "cp_config" ADD CONSTRAINT "cp_config_cp_id_cps_cp_id_fk" FOREIGN KEY ("cp_id") REFERENCES "public"."cps"("cp_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "cp_config_cp_idx" ON "cp_config" USING btree ("cp_id","cp_config_id");--> statement-breakpoint
CREATE UNIQUE INDEX "cp_config_current_idx" ON "cp_config" USING btree ("cp_id") WHERE current = 1;--> statement-breakpoint
-- Reference data: configuration templates of two firmware versions (spec part 1 §3, §9 key names).
INSERT INTO "fw_ver_config" ("fw_ver", "description", "config_json") VALUES
('AC-1.0.0', 'AC charger, firmware 1.0.0', '{
  "Time Zone": {"Type": "Range", "Authority": "Everyone", "Value": 8, "Option": [-12, 13, 1]},
  "Time Slot Maximum (Min)": {"Type": "Text", "Authority": "Everyone", "Value": "480", "Option": []},
  "Server Path": {"Type": "Text", "Authority": "Admin", "Value": "wss://cs.example.com/ocpp", "Option": []},
  "Time Select Stop Button": {"Type": "Selection", "Authority": "Everyone", "Value": "Show", "Option": ["Show", "Hidden"]},
  "Network Timeout (ms)": {"Type": "Range", "Authority": "Admin", "Value": 5000, "Option": [500, 30000, 500]},
  "Auto Unlock Interval (ms)": {"Type": "Range", "Authority": "Everyone", "Value": 3000, "Option": [0, 10000, 100]},
  "Maximum Capacity (A)": {"Type": "Range", "Authority": "Admin", "Value": 32, "Option": [0, 32, 1]},
  "Default Capacity (A)": {"Type": "Range", "Authority": "Everyone", "Value": 16, "Option": [0, 32, 1]},
  "UART Port": {"Type": "Selection", "Authority": "Admin", "Value": "RS485", "Option": ["RS232", "RS485"]},
  "Window": {"Type": "Selection", "Authority": "Everyone", "Value": "Full", "Option": ["Full", "Shrink"]},
  "Type": {"Type": "Selection", "Authority": "Admin", "Value": "Socket", "Option": ["Socket", "Cable"]},
  "Authentication": {"Type": "Selection", "Authority": "Admin", "Value": "NFC", "Option": ["Plug & Charge", "Key", "SmartPad", "TimeSelect", "NFC", "Subscription", "Monthly", "Kiosk", "Autotoll"]},
  "End upon state A": {"Type": "Selection", "Authority": "Everyone", "Value": "No", "Option": ["Yes", "No"]},
  "Meter Value Sample Interval (s)": {"Type": "Range", "Authority": "Everyone", "Value": 60, "Option": [10, 900, 10]}
}'::jsonb),
('AC-2.0.0', 'AC charger with LPRS, firmware 2.0.0', '{
  "Time Zone": {"Type": "Range", "Authority": "Everyone", "Value": 8, "Option": [-12, 13, 1]},
  "Server Path": {"Type": "Text", "Authority": "Admin", "Value": "wss://cs.example.com/ocpp", "Option": []},
  "Remote OCPP Server Path": {"Type": "Text", "Authority": "Admin", "Value": "", "Option": []},
  "Backdoor Server": {"Type": "Text", "Authority": "Admin", "Value": "", "Option": []},
  "Network Timeout (ms)": {"Type": "Range", "Authority": "Admin", "Value": 5000, "Option": [500, 30000, 500]},
  "Maximum Capacity (A)": {"Type": "Range", "Authority": "Admin", "Value": 32, "Option": [0, 32, 1]},
  "Default Capacity (A)": {"Type": "Range", "Authority": "Everyone", "Value": 16, "Option": [0, 32, 1]},
  "LPRS": {"Type": "Selection", "Authority": "Admin", "Value": "No", "Option": ["Yes", "No"]},
  "LPRS Engine": {"Type": "Text", "Authority": "Admin", "Value": "", "Option": []},
  "Charging detail": {"Type": "Selection", "Authority": "Everyone", "Value": "Yes", "Option": ["Yes", "No"]},
  "Time Select Fully Charge": {"Type": "Selection", "Authority": "Everyone", "Value": "No", "Option": ["Yes", "No"]},
  "End upon state A": {"Type": "Selection", "Authority": "Everyone", "Value": "No", "Option": ["Yes", "No"]},
  "Custom Fields": {"Type": "Selection", "Authority": "Everyone", "Value": "No", "Option": ["Yes", "No"]},
  "Time Select Interval Min": {"Type": "Range", "Authority": "Everyone", "Value": 15, "Option": [1, 30, 5]}
}'::jsonb);
