import { ERROR_CODES, P, type ActionResult } from '@ev/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requirePrivileges } from '../auth/guard.ts';
import { badRequest } from '../http/errors.ts';
import { idParams } from '../http/schema.ts';
import { ActionAnswer, commandableCharger, sendCommand, type ChargerRow } from '../ocpp/routes.ts';
import { isLmsProfileId, lmsClash, LMS_STACK_LEVEL, ProfileInput, PURPOSES, toOcppProfile } from './profile.ts';

const connectorId = z.number().int().min(0).max(100);
const setBody = z.strictObject({
  connectorId: connectorId.describe('0: every connector (TxDefaultProfile only)'),
  purpose: z.enum(['TxDefaultProfile', 'TxProfile']).describe('A TxProfile needs a running transaction on the connector'),
  profile: ProfileInput,
});
const clearBody = z.strictObject({
  id: z.number().int().min(1).optional().describe('Clears this profile alone; the criteria then do not apply'),
  connectorId: connectorId.optional(),
  purpose: z.enum(PURPOSES).optional(),
  stackLevel: z.number().int().min(0).max(100).optional(),
  includeLoadManagement: z.boolean().default(false).describe('Also clear load management\'s profiles'),
});
const compositeBody = z.strictObject({
  connectorId: connectorId.describe('0: the whole charger'),
  duration: z.number().int().min(1).max(7 * 86_400).describe('Seconds from now'),
  chargingRateUnit: z.enum(['A', 'W']).optional(),
});

const Profile = z.object({
  connectorId: z.number(),
  chargingProfileId: z.number(),
  purpose: z.string(),
  stackLevel: z.number(),
  kind: z.string(),
  recurrency: z.string().nullable(),
  validFrom: z.string().nullable(),
  validTo: z.string().nullable(),
  transactionId: z.number().nullable(),
  schedule: z.record(z.string(), z.unknown()).describe('The chargingSchedule as sent'),
  source: z.enum(['lms', 'manual']),
  setAt: z.string(),
  setBy: z.string().nullable(),
});
const ListAnswer = z.object({ profiles: z.array(Profile), lmsStackLevel: z.number() });

const refused = (errorCode: number): ActionResult => ({ status: 'error', errorCode });
const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

async function runningTransaction(app: FastifyInstance, cp: ChargerRow, connector: number): Promise<number | undefined> {
  const [row] = await app.db.query<{ tran_id: number }>(
    `SELECT tran_id FROM cp_sessions WHERE cp_id = $1 AND connector_id = $2 AND session_end_time IS NULL ORDER BY session_id DESC LIMIT 1`,
    [cp.cp_id, connector],
  );
  return row?.tran_id;
}

/**
 * Charging profiles outside load management (issue 29): the profiles set on a charger (recorded by
 * record.ts), set one by hand, clear by id or criteria, and the charger's composite schedule. Every
 * command goes through sendCommand (cp_requests and the portal action log).
 */
export function chargingProfileRoutes(fastify: FastifyInstance): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const doc = (summary: string, note?: string) => ({ doc: { summary, privileges: [P.CHARGING_PROFILE], ...(note ? { note } : {}) } });

  app.get('/api/cps/:id/chargingProfiles', {
    schema: { params: idParams, response: { 200: z.union([ListAnswer, ActionAnswer]) } },
    config: doc('The charging profiles the server set on a charger, by load management and by hand'),
  }, async (req) => {
    const user = requirePrivileges(req, P.CHARGING_PROFILE);
    const cp = await commandableCharger(app, user, req.params.id);
    if (!cp) return refused(ERROR_CODES.CP_NOT_FOUND);
    const rows = await app.db.query(
      `SELECT * FROM cp_charging_profiles WHERE cp_id = $1 ORDER BY connector_id, purpose, stack_level DESC, charging_profile_id`,
      [cp.cp_id],
    );
    const profiles = rows.map((r) => ({
      connectorId: r.connector_id, chargingProfileId: r.charging_profile_id, purpose: r.purpose, stackLevel: r.stack_level,
      kind: r.kind, recurrency: r.recurrency, validFrom: iso(r.valid_from), validTo: iso(r.valid_to), transactionId: r.transaction_id,
      schedule: typeof r.schedule === 'string' ? JSON.parse(r.schedule) : r.schedule, source: r.source, setAt: iso(r.set_at)!, setBy: r.set_by,
    }));
    return { profiles, lmsStackLevel: LMS_STACK_LEVEL };
  });

  app.post('/api/cps/:id/chargingProfiles', {
    schema: { params: idParams, body: setBody, response: { 200: ActionAnswer } },
    config: doc('Set a TxDefaultProfile or TxProfile on a charger (SetChargingProfile)',
      `Load management's stack level (${LMS_STACK_LEVEL}) and profile ids (1000, 2001-2099) are refused (400). A TxProfile without a running transaction on the connector is 10017.`),
  }, async (req) => {
    const user = requirePrivileges(req, P.CHARGING_PROFILE);
    const { connectorId: connector, purpose, profile } = req.body;
    const clash = lmsClash(profile);
    if (clash) throw badRequest(`profile.${clash.field}: ${clash.message}`, { [`profile.${clash.field}`]: 'load_management' });
    if (purpose === 'TxProfile' && connector === 0) throw badRequest('connectorId: a TxProfile is for one connector', { connectorId: 'invalid' });
    const cp = await commandableCharger(app, user, req.params.id);
    if (!cp) return refused(ERROR_CODES.CP_NOT_FOUND);
    let transactionId: number | undefined;
    if (purpose === 'TxProfile') {
      transactionId = await runningTransaction(app, cp, connector);
      if (transactionId === undefined) return refused(ERROR_CODES.NO_TRANSACTION);
    }
    const result = await sendCommand(app, req.log, user, cp, 'SetChargingProfile', {
      connectorId: connector, csChargingProfiles: toOcppProfile(profile, purpose, transactionId),
    });
    if (result.status === 'success') {
      await app.db.query(`UPDATE cp_charging_profiles SET set_by = $3 WHERE cp_id = $1 AND charging_profile_id = $2`, [cp.cp_id, profile.chargingProfileId, user.username]);
    }
    return result;
  });

  app.post('/api/cps/:id/chargingProfiles/clear', {
    schema: { params: idParams, body: clearBody, response: { 200: ActionAnswer } },
    config: doc('Clear charging profiles on a charger by id or by criteria (ClearChargingProfile)',
      'Criteria that could match load management\'s profiles (no stack level or its own, no purpose or a Tx one), or its ids, are refused (400) unless includeLoadManagement is true. No id and no criteria clears every profile.'),
  }, async (req) => {
    const user = requirePrivileges(req, P.CHARGING_PROFILE);
    const { id, connectorId: connector, purpose, stackLevel, includeLoadManagement } = req.body;
    if (id !== undefined && (connector !== undefined || purpose !== undefined || stackLevel !== undefined)) {
      throw badRequest('id: clear by id or by criteria, not both', { id: 'invalid' });
    }
    const cp = await commandableCharger(app, user, req.params.id);
    if (!cp) return refused(ERROR_CODES.CP_NOT_FOUND);
    if (!includeLoadManagement) {
      if (id !== undefined) {
        const [row] = await app.db.query<{ source: string }>(`SELECT source FROM cp_charging_profiles WHERE cp_id = $1 AND charging_profile_id = $2`, [cp.cp_id, id]);
        if (row?.source === 'lms' || isLmsProfileId(id)) {
          throw badRequest('id: the profile is load management\'s; set includeLoadManagement to clear it', { id: 'load_management' });
        }
      } else if ((stackLevel === undefined || stackLevel === LMS_STACK_LEVEL) && purpose !== 'ChargePointMaxProfile') {
        // OCPP cannot say "every stack level but one": the caller names a stack level, or includes load management.
        throw badRequest('stackLevel: these criteria would also clear load management\'s profiles; give another stack level or set includeLoadManagement', { stackLevel: 'load_management' });
      }
    }
    const params = id !== undefined ? { id } : {
      ...(connector !== undefined ? { connectorId: connector } : {}),
      ...(purpose ? { chargingProfilePurpose: purpose } : {}),
      ...(stackLevel !== undefined ? { stackLevel } : {}),
    };
    return sendCommand(app, req.log, user, cp, 'ClearChargingProfile', params);
  });

  app.post('/api/cps/:id/compositeSchedule', {
    schema: { params: idParams, body: compositeBody, response: { 200: ActionAnswer } },
    config: doc('The limits a charger will apply over the coming seconds, all profiles combined (GetCompositeSchedule)'),
  }, async (req) => {
    const user = requirePrivileges(req, P.CHARGING_PROFILE);
    const cp = await commandableCharger(app, user, req.params.id);
    if (!cp) return refused(ERROR_CODES.CP_NOT_FOUND);
    const { connectorId: connector, duration, chargingRateUnit } = req.body;
    return sendCommand(app, req.log, user, cp, 'GetCompositeSchedule', { connectorId: connector, duration, ...(chargingRateUnit ? { chargingRateUnit } : {}) });
  });
}
