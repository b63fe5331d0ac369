import { HOME_SCREENS } from '@ev/core';
import type { Sql } from './db/client.ts';

/** Application settings with their defaults; stored rows in app_settings override them. */
export const SETTING_DEFAULTS = {
  home_screen: 'CpList' as (typeof HOME_SCREENS)[number],
};
export type SettingKey = keyof typeof SETTING_DEFAULTS;

export async function getSetting(sql: Sql, key: SettingKey): Promise<string> {
  const [row] = await sql.query(`SELECT value FROM app_settings WHERE key = $1`, [key]);
  return row?.value ?? SETTING_DEFAULTS[key];
}

export async function setSetting(sql: Sql, key: SettingKey, value: string): Promise<void> {
  await sql.query(
    `INSERT INTO app_settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = $2, lupd_dttm = now()`,
    [key, value],
  );
}
