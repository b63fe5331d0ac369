import { HOME_SCREENS, UNCONFIRMED_AUTO_CLOSE_HOURS } from '@ev/core';
import type { Sql } from './db/client.ts';

/**
 * The application's settings live in app_config (config_key → config_value, with an authority),
 * the one place for them: the seed writes every known key there, the app_config screens edit them,
 * and the server reads them on each use, so a change takes effect at once without a restart.
 * (app_settings, the older table, is no longer read or written; migration 0009 copied it here.)
 */
export interface KnownSetting {
  default: string;
  /** Accepted values; anything else is refused with a field error. */
  values?: readonly string[];
  authority: 'Admin' | 'Everyone';
  description: string;
}

export const KNOWN_SETTINGS = {
  home_screen: {
    default: 'CpList',
    values: HOME_SCREENS,
    authority: 'Admin',
    description: 'The page shown after sign-in: LMS (load management dashboard), Dashboard (quick info) or CpList (chargers)',
  },
  unconfirmed_auto_close_hours: {
    default: '0',
    values: UNCONFIRMED_AUTO_CLOSE_HOURS,
    authority: 'Admin',
    description:
      'Hours after which a session flagged unconfirmed (its connector reported Available, or its charger restarted, without a StopTransaction) is closed by the system; 0 is off',
  },
} satisfies Record<string, KnownSetting>;
export type SettingKey = keyof typeof KNOWN_SETTINGS;

export function isKnownSetting(key: string): key is SettingKey {
  return Object.hasOwn(KNOWN_SETTINGS, key);
}

/** Whether a value is acceptable for a key (any text for a key the code does not know). */
export function settingValueAllowed(key: string, value: string): boolean {
  if (!isKnownSetting(key)) return true;
  const known: KnownSetting = KNOWN_SETTINGS[key];
  return !known.values || known.values.includes(value);
}

export async function getSetting(sql: Sql, key: SettingKey): Promise<string> {
  const [row] = await sql.query(`SELECT config_value FROM app_config WHERE config_key = $1`, [key]);
  return row && settingValueAllowed(key, row.config_value) ? row.config_value : KNOWN_SETTINGS[key].default;
}

export async function setSetting(sql: Sql, key: SettingKey, value: string): Promise<void> {
  const known: KnownSetting = KNOWN_SETTINGS[key];
  await sql.query(
    `INSERT INTO app_config (config_key, config_value, authority, description) VALUES ($1, $2, $3, $4)
     ON CONFLICT (config_key) DO UPDATE SET config_value = $2, lupd_dttm = now()`,
    [key, value, known.authority, known.description],
  );
}

/** Writes every known key missing from app_config with its default (run by the seed at each start). */
export async function seedSettings(sql: Sql): Promise<void> {
  for (const [key, known] of Object.entries(KNOWN_SETTINGS) as [SettingKey, KnownSetting][]) {
    await sql.query(
      `INSERT INTO app_config (config_key, config_value, authority, description) VALUES ($1, $2, $3, $4)
       ON CONFLICT (config_key) DO NOTHING`,
      [key, known.default, known.authority, known.description],
    );
  }
}
