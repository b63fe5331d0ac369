-- The spec's charger settings that neither firmware template had (spec part 1 §3): Phase, Admin Card,
-- Powermeter Type, Powermeter ID and the remote OCPP server's path, username and password (issue 27).
-- A setting an operator already added to a template keeps its own definition.
UPDATE "fw_ver_config" SET "config_json" = '{
  "Phase": {"Type": "Selection", "Authority": "Admin", "Value": "Single", "Option": ["Single", "Three"]},
  "Admin Card": {"Type": "Text", "Authority": "Admin", "Value": "", "Option": []},
  "Powermeter Type": {"Type": "Selection", "Authority": "Admin", "Value": "Internal", "Option": ["Internal", "SDM120", "SDM630"]},
  "Powermeter ID": {"Type": "Range", "Authority": "Admin", "Value": 1, "Option": [1, 247, 1]},
  "Remote OCPP Server Path": {"Type": "Text", "Authority": "Admin", "Value": "", "Option": []},
  "Remote OCPP Username": {"Type": "Text", "Authority": "Admin", "Value": "", "Option": []},
  "Remote OCPP Password": {"Type": "Text", "Authority": "Admin", "Value": "", "Option": []}
}'::jsonb || "config_json" WHERE "fw_ver" IN ('AC-1.0.0', 'AC-2.0.0');
