import {
  CONFIG_AUTHORITIES, CONFIG_TYPES, createPrivilege, editPrivilege, ERROR_CODES, hideSecrets, isBooleanSetting, isOn, isOnStep, keepSecrets, P,
  rangeOf, UNREACHED_ERROR_CODES, withConfigDefaults,
  type ConfigJson, type ConfigSendResult, type ConfigSetting, type CpConfigRow, type FwVerConfig,
} from '@ev/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requirePrivileges } from '../auth/guard.ts';
import type { AuthUser } from '../auth/session.ts';
import type { Sql } from '../db/client.ts';
import { badRequest } from '../http/errors.ts';
import { idParams } from '../http/schema.ts';
import { writeAudit } from '../resources/audit.ts';
import type { CommandOutcome } from './commands.ts';
import { RefusedAnswer } from './routes.ts';

/** Largest config_json accepted: settings, name and text lengths (a typing or tooling mistake beyond). */
const MAX_SETTINGS = 200;
const MAX_NAME = 100;
const MAX_TEXT = 2000;

/**
 * Settings with a standard OCPP 1.6 configuration key: sent with ChangeConfiguration. The rest are
 * vendor settings, sent with DataTransfer {vendorId, messageId: 'SetConfig', data: {"key","value"}}.
 * "End upon state A" (end the session when the vehicle goes to IEC 61851 state A, unplugged) is
 * StopTransactionOnEVSideDisconnect; the sample interval is MeterValueSampleInterval.
 */
export const OCPP_CONFIG_KEYS: Record<string, { key: string; value: (v: ConfigSetting['Value']) => string }> = {
  'End upon state A': { key: 'StopTransactionOnEVSideDisconnect', value: (v) => String(isOn(v)) },
  'Meter Value Sample Interval (s)': { key: 'MeterValueSampleInterval', value: (v) => String(v) },
};

const int = (min: number) =>
  z.union([z.number().int(), z.string().regex(/^\d+$/).transform(Number)]).pipe(z.number().int().min(min).max(2 ** 31 - 1));
const text = z.string().max(500).nullish();
const putBody = z.object({
  cp_config_id: int(1).nullish(),
  /** Create as a duplicate of this config of the same charger. */
  copy_of: int(1).nullish(),
  fw_ver: text,
  description: text,
  ip_address: text,
  mac_address: text,
  current: z.union([z.literal(0), z.literal(1), z.literal('0').transform(() => 0 as const), z.literal('1').transform(() => 1 as const)]).optional(),
  /** The settings as a JSON string (spec part 1 §7). */
  config_json: z.string().max(200_000).nullish(),
  // Read-only columns of a row sent back whole: ignored.
  cp_id: z.unknown().optional(),
  pending: z.unknown().optional(),
  update_time: z.unknown().optional(),
  last_sent: z.unknown().optional(),
  sent_dttm: z.unknown().optional(),
}).strict();

/** The settings as answered (spec part 1 §5): name → {Type, Authority, Value, Option}. */
const textOrNumber = z.union([z.string(), z.number()]);
const ConfigJsonAnswer = z.record(z.string(), z.object({
  Type: z.enum(CONFIG_TYPES), Authority: z.enum(CONFIG_AUTHORITIES), Value: textOrNumber, Option: z.array(textOrNumber),
})) satisfies z.ZodType<ConfigJson>;
/** What the charger answered to a setting (core's ConfigSendResult). */
export const SendResultAnswer = z.enum(['Accepted', 'Rejected', 'RebootRequired', 'NotSupported', 'Offline']) satisfies z.ZodType<ConfigSendResult>;
const nullText = z.string().nullable();
const CpConfigAnswer = z.object({
  cp_config_id: z.number(), cp_id: z.number(), ip_address: nullText, mac_address: nullText, current: z.number(), pending: z.number(),
  update_time: z.iso.datetime(), description: nullText, fw_ver: nullText,
  config_json: ConfigJsonAnswer.describe('With the §5 defaults added, secrets blank'),
  last_sent: z.record(z.string(), SendResultAnswer).nullable().describe('Per setting, the charger\'s answer when last sent'),
  sent_dttm: z.iso.datetime().nullable(),
}) satisfies z.ZodType<CpConfigRow>;
const FwVerConfigAnswer = z.array(z.object({ fw_ver: z.string(), description: z.string().nullable(), config_json: ConfigJsonAnswer })) satisfies z.ZodType<FwVerConfig[]>;
/** The text Deleted; a configuration the user may not see is the JSON refusal (10001). */
const DeletedText = { description: 'Deleted', content: { 'text/plain': { schema: z.literal('Deleted') }, 'application/json': { schema: RefusedAnswer } } };

export interface ChargerRow {
  cp_id: number;
  loc_id: number;
  charge_point_vendor: string | null;
}

const invalid = (field: string, why = 'invalid') => badRequest(`${field}: ${why}`, { [field]: why });

/** Parses and checks config_json (a JSON string of an object of settings); Options are normalised to arrays. */
export function parseConfigJson(raw: string): ConfigJson {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw invalid('config_json');
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw invalid('config_json');
  const entries = Object.entries(parsed as Record<string, unknown>);
  if (entries.length > MAX_SETTINGS) throw invalid('config_json');
  const out: ConfigJson = {};
  for (const [name, s] of entries) {
    if (!name.trim() || name.length > MAX_NAME || !s || typeof s !== 'object' || Array.isArray(s)) throw invalid('config_json');
    const { Type, Authority, Value, Option } = s as Record<string, unknown>;
    if (!CONFIG_TYPES.includes(Type as never) || !CONFIG_AUTHORITIES.includes(Authority as never)) throw invalid(name);
    const options = Option == null || Option === '' ? [] : typeof Option === 'string' ? Option.split(',').map((o) => o.trim()) : Option;
    if (!Array.isArray(options) || options.some((o) => typeof o !== 'string' && typeof o !== 'number')) throw invalid(name);
    if (typeof Value !== 'string' && typeof Value !== 'number') throw invalid(name);
    const setting = { Type, Authority, Option: options } as Omit<ConfigSetting, 'Value'>;
    if (Type === 'Selection') {
      const choice = options.find((o) => String(o) === String(Value));
      if (!options.length || choice === undefined) throw invalid(name);
      out[name] = { ...setting, Value: choice };
    } else if (Type === 'Range') {
      if (options.length !== 3 || options.some((o) => !Number.isFinite(Number(o)) || String(o).trim() === '')) throw invalid(name);
      const { min, max } = rangeOf({ Option: options });
      const v = Number(Value);
      if (min > max || Number(options[2]) <= 0 || String(Value).trim() === '' || !Number.isFinite(v) || v < min || v > max) throw invalid(name);
      if (!isOnStep({ Option: options }, v)) throw invalid(name, 'not_on_step');
      out[name] = { ...setting, Option: options.map(Number), Value: v };
    } else {
      if (String(Value).length > MAX_TEXT) throw invalid(name);
      out[name] = { ...setting, Option: [], Value: String(Value) };
    }
  }
  return out;
}

/** Key order and number-or-string spelling aside (jsonb reorders keys). */
const canonical = (s: ConfigSetting | undefined) => s && JSON.stringify([s.Type, s.Authority, String(s.Value), s.Option.map(String)]);
const sameOptions = (a: ConfigSetting, b: ConfigSetting) => JSON.stringify(a.Option.map(String)) === JSON.stringify(b.Option.map(String));

/**
 * The changes from base to next a user may make: without P.CP_CONFIG_ADMIN only the Value of an
 * Everyone setting (an Admin setting, or a setting's Type, Authority or Option, is not_permitted);
 * nobody may turn a boolean setting that is on (Yes / 1) off (spec part 1 §3: not_editable).
 */
export function checkChanges(user: AuthUser, base: ConfigJson, next: ConfigJson): void {
  const admin = user.privileges.has(P.CP_CONFIG_ADMIN);
  const b = withConfigDefaults(base);
  const n = withConfigDefaults(next);
  const fields: Record<string, string> = {};
  for (const name of new Set([...Object.keys(b), ...Object.keys(n)])) {
    const before = b[name];
    const after = n[name];
    if (before && after && isBooleanSetting(before) && isOn(before.Value) && !isOn(after.Value)) {
      fields[name] = 'not_editable';
      continue;
    }
    if (admin || canonical(before) === canonical(after)) continue;
    const adminSetting = before?.Authority === 'Admin' || after?.Authority === 'Admin';
    const structure = !before || !after || before.Type !== after.Type || before.Authority !== after.Authority || !sameOptions(before, after);
    if (adminSetting || structure) fields[name] = 'not_permitted';
  }
  if (Object.keys(fields).length) throw badRequest(Object.entries(fields).map(([k, v]) => `${k}: ${v}`), fields);
}

/** What a send outcome records for the setting. */
function sendResult(outcome: CommandOutcome): ConfigSendResult {
  const answered = outcome.result?.status as string | undefined;
  if (outcome.status === 'success') return 'Accepted';
  if (answered === 'Rejected' || answered === 'RebootRequired' || answered === 'NotSupported') return answered;
  if (answered === 'UnknownVendorId' || answered === 'UnknownMessageId') return 'NotSupported';
  if (UNREACHED_ERROR_CODES.includes(outcome.errorCode!)) return 'Offline';
  // A CALLERROR: the charger does not implement the action.
  return /NotImplemented|NotSupported/.test(outcome.message) ? 'NotSupported' : 'Rejected';
}

/** Sends every setting to the charger, one command each; after one goes unanswered the rest are Offline. */
export async function sendSettings(app: FastifyInstance, cp: ChargerRow, json: ConfigJson): Promise<Record<string, ConfigSendResult>> {
  const results: Record<string, ConfigSendResult> = {};
  // Asked of the dispatcher, not of this node's connections: with several nodes the charger may be on another.
  let offline = false;
  for (const [name, setting] of Object.entries(json)) {
    if (offline) {
      results[name] = 'Offline';
      continue;
    }
    const ocpp = OCPP_CONFIG_KEYS[name];
    const outcome = ocpp
      ? await app.ocpp.commands.send(cp.cp_id, 'ChangeConfiguration', { key: ocpp.key, value: ocpp.value(setting.Value) })
      : await app.ocpp.commands.send(cp.cp_id, 'DataTransfer', {
        vendorId: cp.charge_point_vendor || 'EV-Portal',
        messageId: 'SetConfig',
        data: JSON.stringify({ key: name, value: setting.Value }),
      });
    results[name] = sendResult(outcome);
    if (results[name] === 'Offline') offline = true;
  }
  return results;
}

/** Pending stays 1 while a setting waits for the charger (offline, reboot). */
export const isPending = (results: Record<string, ConfigSendResult>): boolean =>
  Object.values(results).some((r) => r === 'Offline' || r === 'RebootRequired');

/** A cp_config row as answered: config_json with the spec §5 defaults added, its secrets blank. */
const present = (row: any): CpConfigRow => ({ ...row, config_json: hideSecrets(withConfigDefaults(row.config_json ?? {})) });
/** A cp_config row as the audit log keeps it: without its secrets. */
const audited = (row: any) => ({ ...row, config_json: hideSecrets(row.config_json ?? {}) });

/**
 * The charger configuration calls of spec part 1 §7 (charger view, Configuration tab):
 * GET /cps/{id}/cpConfig, PUT /cps/{cp_id}/cpConfig (no cp_config_id: create, from the fw_ver
 * template or as a copy of copy_of; with one: update; current 1 makes it the charger's current
 * config and sends it), DELETE /cps/{cp_config_id}/cpConfig and GET /cps/fwVerConfig.
 */
export function cpConfigRoutes(fastify: FastifyInstance): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  async function charger(user: AuthUser, id: number): Promise<ChargerRow | null> {
    const [cp] = await app.db.query<ChargerRow>(
      `SELECT cp_id, loc_id, charge_point_vendor FROM cps WHERE cp_id = $1 AND deleted_at IS NULL`,
      [id],
    );
    // Outside the user's sites the charger does not exist for them, as in the other charger routes.
    if (!cp || (!user.allSites && !user.siteIds.includes(cp.loc_id))) return null;
    return cp;
  }
  const notFound = { status: 'error', errorCode: ERROR_CODES.CP_NOT_FOUND } as const;

  app.get('/api/cps/fwVerConfig', { schema: { response: { 200: FwVerConfigAnswer } }, config: { doc: { summary: 'The default configuration of each firmware version', privileges: [P.CP_CONFIG] } } }, async (req) => {
    requirePrivileges(req, P.CP_CONFIG);
    const rows = await app.db.query<FwVerConfig>(`SELECT fw_ver, description, config_json FROM fw_ver_config ORDER BY fw_ver`);
    return rows.map((r) => ({ ...r, config_json: hideSecrets(withConfigDefaults(r.config_json)) }));
  });

  app.get('/api/cps/:id/cpConfig', { schema: { params: idParams, response: { 200: z.union([z.array(CpConfigAnswer), RefusedAnswer]) } }, config: { doc: { summary: 'A charger\'s configurations', privileges: [P.CP_CONFIG] } } }, async (req) => {
    const user = requirePrivileges(req, P.CP_CONFIG);
    const { id } = req.params;
    const cp = await charger(user, id);
    if (!cp) return notFound;
    const rows = await app.db.query(`SELECT * FROM cp_config WHERE cp_id = $1 ORDER BY cp_config_id DESC`, [cp.cp_id]);
    return rows.map(present);
  });

  app.put('/api/cps/:id/cpConfig', {
    schema: { params: idParams, body: putBody, response: { 200: z.union([z.object({ status: z.literal('success'), data: CpConfigAnswer }), RefusedAnswer]) } },
    config: { doc: { summary: 'Save a charger\'s configuration and send it', privileges: [P.CP_CONFIG], note: 'Also CREATE_CP_CONFIG for a new configuration, EDIT_CP_CONFIG for a change; Admin settings need READ_CP_CONFIG_ADMIN.' } },
  }, async (req) => {
    const { id } = req.params;
    const body = req.body;
    const creating = body.cp_config_id == null;
    const user = requirePrivileges(req, P.CP_CONFIG, creating ? createPrivilege('cp_config') : editPrivilege('cp_config'));
    const cp = await charger(user, id);
    if (!cp) return notFound;
    const given = body.config_json == null ? null : parseConfigJson(body.config_json);

    const saved = await app.db.tx(async (sql: Sql) => {
      if (creating) {
        let base: ConfigJson = {};
        let fwVer = body.fw_ver ?? null;
        if (body.copy_of != null) {
          const [src] = await sql.query(`SELECT fw_ver, config_json FROM cp_config WHERE cp_config_id = $1 AND cp_id = $2`, [body.copy_of, cp.cp_id]);
          if (!src) throw invalid('copy_of');
          base = src.config_json;
          fwVer ??= src.fw_ver;
        } else if (fwVer != null) {
          const [tpl] = await sql.query(`SELECT config_json FROM fw_ver_config WHERE fw_ver = $1`, [fwVer]);
          if (tpl) base = tpl.config_json;
          else if (!given) throw invalid('fw_ver');
        }
        const next = given && keepSecrets(base, given);
        if (next) checkChanges(user, base, next);
        // Spec §3: a new config (from a template or a copy) is neither current nor pending.
        const [row] = await sql.query(
          `INSERT INTO cp_config (cp_id, ip_address, mac_address, current, pending, description, fw_ver, config_json)
           VALUES ($1, $2, $3, 0, 0, $4, $5, $6) RETURNING *`,
          [cp.cp_id, body.ip_address ?? null, body.mac_address ?? null, body.description ?? null, fwVer, JSON.stringify(next ?? base)],
        );
        await writeAudit(sql, user, { action: 'CREATE', target: 'cp_config', targetId: row.cp_config_id, newData: audited(row) });
        return row;
      }
      // All the charger's configs are locked: two saves making different configs current go one after the other.
      const all = await sql.query(`SELECT * FROM cp_config WHERE cp_id = $1 ORDER BY cp_config_id FOR UPDATE`, [cp.cp_id]);
      const old = all.find((r) => r.cp_config_id === body.cp_config_id);
      if (!old) throw invalid('cp_config_id');
      const next = given && keepSecrets(old.config_json, given);
      if (next) checkChanges(user, old.config_json, next);
      // A current config stops being current only when another one is made current.
      if (old.current === 1 && body.current === 0) throw invalid('current', 'not_editable');
      const makeCurrent = body.current === 1;
      if (makeCurrent) await sql.query(`UPDATE cp_config SET current = 0 WHERE cp_id = $1 AND current = 1 AND cp_config_id <> $2`, [cp.cp_id, old.cp_config_id]);
      const [row] = await sql.query(
        `UPDATE cp_config SET ip_address = $2, mac_address = $3, description = $4, fw_ver = $5, config_json = $6,
                current = $7, pending = $8, update_time = now()
          WHERE cp_config_id = $1 RETURNING *`,
        [
          old.cp_config_id,
          body.ip_address === undefined ? old.ip_address : body.ip_address,
          body.mac_address === undefined ? old.mac_address : body.mac_address,
          body.description === undefined ? old.description : body.description,
          body.fw_ver === undefined ? old.fw_ver : body.fw_ver,
          JSON.stringify(next ?? old.config_json),
          makeCurrent ? 1 : old.current,
          makeCurrent ? 1 : old.pending,
        ],
      );
      await writeAudit(sql, user, { action: 'UPDATE', target: 'cp_config', targetId: row.cp_config_id, oldData: audited(old), newData: audited(row) });
      return row;
    });

    if (body.current !== 1 || creating) return { status: 'success' as const, data: present(saved) };
    // Made current: send it. Pending stays 1 while a setting waits for the charger (offline, reboot).
    const results = await sendSettings(app, cp, withConfigDefaults(saved.config_json));
    const pending = isPending(results) ? 1 : 0;
    const [row] = await app.db.query(
      `UPDATE cp_config SET last_sent = $2, sent_dttm = now(), pending = $3 WHERE cp_config_id = $1 RETURNING *`,
      [saved.cp_config_id, JSON.stringify(results), pending],
    );
    req.log.info({ cpId: cp.cp_id, cpConfigId: saved.cp_config_id, results, user: user.username }, 'Charger configuration sent');
    return { status: 'success' as const, data: present(row ?? { ...saved, last_sent: results }) };
  });

  // Spec §7: the id of DELETE /cps/{id}/cpConfig is the config's.
  app.delete('/api/cps/:id/cpConfig', { schema: { params: idParams, response: { 200: DeletedText } }, config: { doc: { summary: 'Delete a charger configuration (id: cp_config_id)', privileges: [P.CP_CONFIG, P.DELETE, editPrivilege('cp_config')] } } }, async (req) => {
    const user = requirePrivileges(req, P.CP_CONFIG, P.DELETE, editPrivilege('cp_config'));
    const { id } = req.params;
    const [row] = await app.db.query(`SELECT * FROM cp_config WHERE cp_config_id = $1`, [id]);
    if (!row || !(await charger(user, row.cp_id))) return notFound;
    await app.db.tx(async (sql: Sql) => {
      await sql.query(`DELETE FROM cp_config WHERE cp_config_id = $1`, [id]);
      await writeAudit(sql, user, { action: 'DELETE', target: 'cp_config', targetId: id, oldData: audited(row) });
    });
    return 'Deleted';
  });
}
