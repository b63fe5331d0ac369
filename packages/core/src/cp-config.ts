/**
 * Charger configurations (spec part 1 §3 "cp config", §5): config_json maps a setting's name to
 * {Type, Authority, Value, Option}. Selection: Option lists the choices. Range: Option is
 * [min, max, step]. Text: no Option. Shared by the server (validation) and the portal (the editor).
 */

export const CONFIG_TYPES = ['Selection', 'Range', 'Text'] as const;
export type ConfigType = (typeof CONFIG_TYPES)[number];
export const CONFIG_AUTHORITIES = ['Admin', 'Everyone'] as const;
export type ConfigAuthority = (typeof CONFIG_AUTHORITIES)[number];

export interface ConfigSetting {
  Type: ConfigType;
  Authority: ConfigAuthority;
  Value: string | number;
  Option: (string | number)[];
}
export type ConfigJson = Record<string, ConfigSetting>;

/** What the charger answered to a setting when the config was last sent (or Offline: not connected). */
export type ConfigSendResult = 'Accepted' | 'Rejected' | 'RebootRequired' | 'NotSupported' | 'Offline';

/** A cp_config row as GET /cps/{id}/cpConfig answers it (config_json with the §5 defaults added). */
export interface CpConfigRow {
  cp_config_id: number;
  cp_id: number;
  ip_address: string | null;
  mac_address: string | null;
  current: number;
  pending: number;
  update_time: string;
  description: string | null;
  fw_ver: string | null;
  config_json: ConfigJson;
  last_sent: Record<string, ConfigSendResult> | null;
  sent_dttm: string | null;
}

export interface FwVerConfig {
  fw_ver: string;
  description: string | null;
  config_json: ConfigJson;
}

/** Spec §5: settings every config has; added on read when a stored config lacks them. */
export const CONFIG_DEFAULTS: ConfigJson = {
  'Time Select Interval Min': { Type: 'Range', Authority: 'Everyone', Value: 15, Option: [1, 30, 5] },
  'Custom Fields': { Type: 'Selection', Authority: 'Everyone', Value: 'Yes', Option: ['Yes', 'No'] },
};

/** The config with the defaults added, its settings in name order (jsonb keeps no order of its own). */
export function withConfigDefaults(json: ConfigJson): ConfigJson {
  const all: ConfigJson = { ...json };
  for (const [name, setting] of Object.entries(CONFIG_DEFAULTS)) if (!(name in all)) all[name] = { ...setting, Option: [...setting.Option] };
  const out: ConfigJson = {};
  for (const name of Object.keys(all).sort((a, b) => a.localeCompare(b, 'en'))) out[name] = all[name];
  return out;
}

const ON = new Set(['yes', '1', 'true']);
const OFF = new Set(['no', '0', 'false']);

/** A Selection of exactly an on and an off choice (Yes/No, 1/0, true/false): shown as a tick box. */
export function isBooleanSetting(s: Pick<ConfigSetting, 'Type' | 'Option'>): boolean {
  if (s.Type !== 'Selection' || s.Option.length !== 2) return false;
  const o = s.Option.map((x) => String(x).toLowerCase());
  return o.some((x) => ON.has(x)) && o.some((x) => OFF.has(x));
}
export const isOn = (value: unknown): boolean => ON.has(String(value).toLowerCase());

/** The on and off choices of a boolean setting, as its Option spells them. */
export function booleanChoices(s: Pick<ConfigSetting, 'Option'>): { on: string | number; off: string | number } {
  const on = s.Option.find((x) => ON.has(String(x).toLowerCase()))!;
  const off = s.Option.find((x) => OFF.has(String(x).toLowerCase()))!;
  return { on, off };
}

/** [min, max, step] of a Range setting. */
export function rangeOf(s: Pick<ConfigSetting, 'Option'>): { min: number; max: number; step: number } {
  const [min, max, step] = s.Option.map(Number);
  return { min: min ?? 0, max: max ?? 0, step: step && step > 0 ? step : 1 };
}

/**
 * Whether a Range value is a whole number of steps. Steps count from zero, not from min: the spec's own
 * default, Time Select Interval Min 15 in [1, 30, 5] (§5), is added to every config and must stay valid.
 */
export function isOnStep(s: Pick<ConfigSetting, 'Option'>, value: number): boolean {
  const k = value / rangeOf(s).step;
  // Decimal steps (0.1) do not divide exactly in binary floating point.
  return Math.abs(k - Math.round(k)) < 1e-9;
}

/**
 * Settings whose Value is a secret (the charger's password on the remote OCPP server): answered blank, like
 * a user's password; a blank Value on save keeps the saved one.
 */
export const SECRET_SETTINGS: ReadonlySet<string> = new Set(['Remote OCPP Password']);

export function hideSecrets(json: ConfigJson): ConfigJson {
  const out = { ...json };
  for (const name of SECRET_SETTINGS) if (out[name]) out[name] = { ...out[name], Value: '' };
  return out;
}

/** next with each secret it leaves blank taken from saved. */
export function keepSecrets(saved: ConfigJson, next: ConfigJson): ConfigJson {
  const out = { ...next };
  for (const name of SECRET_SETTINGS) if (out[name]?.Value === '' && saved[name]) out[name] = { ...out[name], Value: saved[name].Value };
  return out;
}

/**
 * Spec part 1 §9: the settings the charger list's mass update offers, with their input kinds.
 * Kinds the spec leaves unnamed (Clock, Remote OCPP Server Path, LPRS Engine, Backdoor Server: text;
 * LPRS, Time Select Fully Charge, Charging detail: Yes or No) follow the firmware templates.
 * Authority: as in the templates (Admin settings need READ_CP_CONFIG_ADMIN); Clock is Everyone.
 */
export const MASS_UPDATE_KEYS: ConfigJson = {
  'Time Zone': { Type: 'Range', Authority: 'Everyone', Value: 8, Option: [-12, 13, 1] },
  'Time Slot Maximum (Min)': { Type: 'Text', Authority: 'Everyone', Value: '', Option: [] },
  'Server Path': { Type: 'Text', Authority: 'Admin', Value: '', Option: [] },
  'Time Select Stop Button': { Type: 'Selection', Authority: 'Everyone', Value: 'Show', Option: ['Show', 'Hidden'] },
  Clock: { Type: 'Text', Authority: 'Everyone', Value: '', Option: [] },
  'Network Timeout (ms)': { Type: 'Range', Authority: 'Admin', Value: 5000, Option: [500, 30000, 500] },
  'Remote OCPP Server Path': { Type: 'Text', Authority: 'Admin', Value: '', Option: [] },
  'Auto Unlock Interval (ms)': { Type: 'Range', Authority: 'Everyone', Value: 3000, Option: [0, 10000, 100] },
  'LPRS Engine': { Type: 'Text', Authority: 'Admin', Value: '', Option: [] },
  'Maximum Capacity (A)': { Type: 'Range', Authority: 'Admin', Value: 32, Option: [0, 32, 1] },
  'UART Port': { Type: 'Selection', Authority: 'Admin', Value: 'RS485', Option: ['RS232', 'RS485'] },
  'Time Select Fully Charge': { Type: 'Selection', Authority: 'Everyone', Value: 'No', Option: ['Yes', 'No'] },
  'Charging detail': { Type: 'Selection', Authority: 'Everyone', Value: 'Yes', Option: ['Yes', 'No'] },
  Window: { Type: 'Selection', Authority: 'Everyone', Value: 'Full', Option: ['Full', 'Shrink'] },
  LPRS: { Type: 'Selection', Authority: 'Admin', Value: 'No', Option: ['Yes', 'No'] },
  Type: { Type: 'Selection', Authority: 'Admin', Value: 'Socket', Option: ['Socket', 'Cable'] },
  'Time Select Interval Min': { Type: 'Range', Authority: 'Everyone', Value: 15, Option: [1, 30, 5] },
  Authentication: {
    Type: 'Selection', Authority: 'Admin', Value: 'NFC',
    Option: ['Plug & Charge', 'Key', 'SmartPad', 'TimeSelect', 'NFC', 'Subscription', 'Monthly', 'Kiosk', 'Autotoll'],
  },
  'Default Capacity (A)': { Type: 'Range', Authority: 'Everyone', Value: 16, Option: [0, 32, 1] },
  'Backdoor Server': { Type: 'Text', Authority: 'Admin', Value: '', Option: [] },
  'End upon state A': { Type: 'Selection', Authority: 'Everyone', Value: 'No', Option: ['Yes', 'No'] },
  'Custom Fields': { Type: 'Selection', Authority: 'Everyone', Value: 'Yes', Option: ['Yes', 'No'] },
};

/** Spec §8: the answer of a mass update when a selected charger has no current configuration. */
export const MASS_UPDATE_NO_CONFIG =
  'The following charging points currently do not have charging configuration so batch update is failed';

/** One charger's outcome in a mass-update job: every key Accepted (sent), all Offline, or a mix (partial). */
export type MassUpdateStatus = 'sent' | 'offline' | 'partial' | 'rejected' | 'failed';
export interface MassUpdateProgress {
  jobId: string;
  total: number;
  done: number;
  finished: boolean;
  results: { cpId: number; cpNo: string; status: MassUpdateStatus; keys: Record<string, ConfigSendResult> }[];
}
