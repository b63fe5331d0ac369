import { hideSecrets, withConfigDefaults, type ConfigJson, type ConfigSendResult } from '@ev/core';
import { z } from 'zod';
import type { Sql } from '../db/client.ts';
import { OCPP_CONFIG_KEYS, SendResultAnswer } from './cp-config.ts';

/**
 * A charger's configuration read back (issue 29): the keys it last answered to GetConfiguration
 * (table cp_config_keys), beside what its current configuration (cp_config, current = 1) wants. A
 * setting with a standard OCPP key is compared with the charger's key (drift); a vendor setting goes
 * as DataTransfer and is only reported with what the charger last answered to it, never as applied.
 */

/** One stored key: known false is a key the charger does not know. */
export interface StoredKey {
  key: string;
  known: boolean;
  readonly: boolean | null;
  value: string | null;
  read_at: Date | string;
}

const Wanted = z.object({ setting: z.string(), value: z.string() }).describe('The setting of the charger\'s current configuration that sets this key, and the value it wants');
const KeyAnswer = z.object({
  key: z.string(),
  readonly: z.boolean(),
  value: z.string().nullable(),
  readAt: z.iso.datetime(),
  wanted: Wanted.nullable(),
  drift: z.boolean().describe('The configuration wants another value than the charger has'),
});
const DriftAnswer = z.object({
  setting: z.string(),
  key: z.string(),
  wanted: z.string(),
  actual: z.string().nullable().describe('The charger\'s value; null when it does not know the key'),
  reason: z.enum(['differs', 'unknown']),
});
const VendorAnswer = z.object({
  setting: z.string(),
  wanted: z.string(),
  via: z.literal('DataTransfer').describe('A vendor setting (DataTransfer): the charger cannot be read back for it'),
  lastAnswer: SendResultAnswer.nullable().describe('What the charger answered when the configuration was last sent; Accepted does not mean applied'),
  sentAt: z.iso.datetime().nullable(),
});
/** The configuration read back: the keys read (all stored ones for GET, this read's for POST) and the comparison. */
export const ReadbackAnswer = z.object({
  configurationKey: z.array(KeyAnswer),
  unknownKey: z.array(z.string()).describe('Keys the charger does not know (named and unknown, or wanted and absent from a read of all keys)'),
  readAt: z.iso.datetime().nullable().describe('When the charger was last read; null if never'),
  drift: z.array(DriftAnswer),
  vendorSettings: z.array(VendorAnswer),
});
export type Readback = z.infer<typeof ReadbackAnswer>;

/** What the charger's current configuration wants: OCPP key → setting and value; vendor settings apart. */
export interface Template {
  keys: Map<string, { setting: string; value: string }>;
  vendor: Readback['vendorSettings'];
}

const iso = (v: Date | string | null) => (v == null ? null : new Date(v).toISOString());

/** A charger's current configuration row (cp_config, current = 1), as templateFrom reads it. */
export interface CurrentConfigRow {
  config_json: ConfigJson;
  last_sent: Record<string, ConfigSendResult> | null;
  sent_dttm: Date | null;
}

export async function templateOf(sql: Sql, cpId: number): Promise<Template> {
  const [row] = await sql.query<CurrentConfigRow>(`SELECT config_json, last_sent, sent_dttm FROM cp_config WHERE cp_id = $1 AND current = 1`, [cpId]);
  return templateFrom(row);
}

/** The template of a current configuration row (none: an empty template, nothing is wanted). */
export function templateFrom(row: CurrentConfigRow | undefined): Template {
  const template: Template = { keys: new Map(), vendor: [] };
  if (!row) return template;
  // Secrets stay blank: a password setting's value is not shown back.
  for (const [setting, s] of Object.entries(hideSecrets(withConfigDefaults(row.config_json ?? {})))) {
    const ocpp = OCPP_CONFIG_KEYS[setting];
    if (ocpp) template.keys.set(ocpp.key, { setting, value: ocpp.value(s.Value) });
    else template.vendor.push({ setting, wanted: String(s.Value), via: 'DataTransfer', lastAnswer: row.last_sent?.[setting] ?? null, sentAt: iso(row.sent_dttm) });
  }
  return template;
}

/** true/True, 10/10.0: the same value spelled differently is not drift. */
function same(a: string, b: string): boolean {
  const x = a.trim();
  const y = b.trim();
  if (/^(true|false)$/i.test(x) && /^(true|false)$/i.test(y)) return x.toLowerCase() === y.toLowerCase();
  if (x !== '' && y !== '' && Number.isFinite(Number(x)) && Number.isFinite(Number(y))) return Number(x) === Number(y);
  return x === y;
}

/** The read-back answer of stored keys: each compared with the template; keys not read are not judged. */
export function compare(rows: StoredKey[], template: Template): Readback {
  const configurationKey: Readback['configurationKey'] = [];
  const unknownKey: string[] = [];
  const drift: Readback['drift'] = [];
  let latest: number | null = null;
  for (const r of [...rows].sort((a, b) => a.key.localeCompare(b.key, 'en'))) {
    const at = new Date(r.read_at).getTime();
    latest = latest === null ? at : Math.max(latest, at);
    const wanted = template.keys.get(r.key) ?? null;
    if (!r.known) {
      unknownKey.push(r.key);
      if (wanted) drift.push({ setting: wanted.setting, key: r.key, wanted: wanted.value, actual: null, reason: 'unknown' });
      continue;
    }
    const differs = !!wanted && !same(wanted.value, r.value ?? '');
    if (differs) drift.push({ setting: wanted.setting, key: r.key, wanted: wanted.value, actual: r.value, reason: 'differs' });
    configurationKey.push({ key: r.key, readonly: !!r.readonly, value: r.value, readAt: iso(r.read_at)!, wanted, drift: differs });
  }
  return { configurationKey, unknownKey, readAt: latest === null ? null : new Date(latest).toISOString(), drift, vendorSettings: template.vendor };
}

/** The charger's answer to GetConfiguration (OCPP 1.6 §6.27), as the dispatcher returns it. */
interface GetConfigurationConf {
  configurationKey?: { key: string; readonly: boolean; value?: string }[];
  unknownKey?: string[];
}

/**
 * Stores a read: a read of named keys replaces those keys' rows, a read of all keys replaces all the
 * charger's rows, and the template's keys it did not list are stored as unknown. Answers this read's rows.
 */
export async function storeRead(sql: Sql, cpId: number, asked: string[] | undefined, conf: GetConfigurationConf, template: Template): Promise<StoredKey[]> {
  const readAt = new Date();
  const rows = new Map<string, StoredKey>();
  for (const k of conf.configurationKey ?? []) rows.set(k.key, { key: k.key, known: true, readonly: k.readonly, value: k.value ?? null, read_at: readAt });
  for (const key of conf.unknownKey ?? []) if (!rows.has(key)) rows.set(key, { key, known: false, readonly: null, value: null, read_at: readAt });
  const all = !asked?.length;
  // A read of all keys lists every key the charger knows: a key the configuration wants and it left out is unknown to it.
  if (all) for (const key of template.keys.keys()) if (!rows.has(key)) rows.set(key, { key, known: false, readonly: null, value: null, read_at: readAt });
  const list = [...rows.values()];
  if (all) await sql.query(`DELETE FROM cp_config_keys WHERE cp_id = $1`, [cpId]);
  else await sql.query(`DELETE FROM cp_config_keys WHERE cp_id = $1 AND key = ANY($2::text[])`, [cpId, asked]);
  if (list.length) {
    await sql.query(
      `INSERT INTO cp_config_keys (cp_id, key, known, readonly, value, read_at)
       SELECT $1, k.key, k.known, k.readonly, k.value, $3
         FROM jsonb_to_recordset($2::jsonb) AS k(key text, known boolean, readonly boolean, value text)
       ON CONFLICT (cp_id, key) DO UPDATE SET known = EXCLUDED.known, readonly = EXCLUDED.readonly, value = EXCLUDED.value, read_at = EXCLUDED.read_at`,
      [cpId, JSON.stringify(list.map(({ read_at: _, ...k }) => k)), readAt],
    );
  }
  return list;
}

export async function storedKeys(sql: Sql, cpId: number): Promise<StoredKey[]> {
  return sql.query<StoredKey>(`SELECT key, known, readonly, value, read_at FROM cp_config_keys WHERE cp_id = $1`, [cpId]);
}
