import { ERROR_CODES, P, type ActionResult } from '@ev/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requirePrivileges } from '../auth/guard.ts';
import { idParams } from '../http/schema.ts';
import { ActionAnswer, commandableCharger, type ChargerRow } from '../ocpp/routes.ts';
import { differences, listRow, wantedList } from './list.ts';
import { checkVersion, LIST_ANSWERS, sendList } from './send.ts';

const refused = (errorCode: number): ActionResult => ({ status: 'error', errorCode });
const iso = (v: Date | string | null | undefined) => (v == null ? null : new Date(v).toISOString());

const sendBody = z.strictObject({ updateType: z.enum(['Full', 'Differential']).describe('Full replaces the charger\'s list; Differential sends the changes since the last list it Accepted') });

const StateAnswer = z.object({
  expectedVersion: z.number().int().describe('The version of the last list the charger Accepted; 0 before any'),
  reportedVersion: z.number().int().nullable().describe('The version the charger last reported (GetLocalListVersion): 0 empty, -1 no local list; null if never asked'),
  reportedAt: z.iso.datetime().nullable(),
  pendingSince: z.iso.datetime().nullable().describe('A card changed and the charger has not Accepted it yet (sent when it next connects); the latest change'),
  pendingChanges: z.number().int().describe('Entries that differ between the cards and what the charger last Accepted'),
  entries: z.number().int().describe('Entries of the list the charger should hold now'),
  lastUpdateType: z.enum(['Full', 'Differential']).nullable(),
  lastVersion: z.number().int().nullable(),
  lastAnswer: z.string().nullable().describe('The charger\'s answer to the last SendLocalList: Accepted, Failed, NotSupported, VersionMismatch, or a CALLERROR name'),
  sentAt: z.iso.datetime().nullable(),
});
const SendAnswer = z.object({
  updateType: z.enum(['Full', 'Differential']),
  listVersion: z.number().int(),
  answer: z.enum(LIST_ANSWERS).describe('The charger\'s answer, as it gave it'),
  entries: z.number().int().describe('Entries sent'),
  fallbackFrom: z.literal('Differential').optional().describe('The charger answered VersionMismatch to the Differential: this is the Full list sent after it'),
});
const VersionAnswer = z.object({ listVersion: z.number().int().describe('0 empty, -1 no local list'), reportedAt: z.iso.datetime() });
const SiteAnswer = z.object({
  chargers: z.array(z.object({ cpId: z.number().int(), cpNo: z.string(), outcome: z.union([SendAnswer, ActionAnswer]) })),
});

/**
 * A charger's OCPP local authorization list (issue 29): its state, SendLocalList (Full or
 * Differential) and GetLocalListVersion, one charger or a site's. Each command is audited and logged
 * in cp_requests through sendCommand; card changes go out by themselves (setup.ts).
 */
export function localListRoutes(fastify: FastifyInstance): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const privileges = [P.LOCAL_LIST];

  app.get('/api/cps/:id/localList', {
    schema: { params: idParams, response: { 200: z.union([StateAnswer, ActionAnswer]) } },
    config: { doc: { summary: 'A charger\'s local authorization list: the versions expected and reported, pending changes, the last answer', privileges } },
  }, async (req) => {
    const user = requirePrivileges(req, ...privileges);
    const cp = await commandableCharger(app, user, req.params.id);
    if (!cp) return refused(ERROR_CODES.CP_NOT_FOUND);
    const row = await listRow(app.db, cp.cp_id);
    const wanted = await wantedList(app.db, cp.cp_id);
    return {
      expectedVersion: row?.expected_version ?? 0,
      reportedVersion: row?.reported_version ?? null,
      reportedAt: iso(row?.reported_at),
      pendingSince: iso(row?.pending_since),
      pendingChanges: differences(row?.entries ?? {}, wanted).length,
      entries: Object.keys(wanted).length,
      lastUpdateType: (row?.last_update_type ?? null) as 'Full' | 'Differential' | null,
      lastVersion: row?.last_version ?? null,
      lastAnswer: row?.last_answer ?? null,
      sentAt: iso(row?.sent_at),
    };
  });

  app.post('/api/cps/:id/localList/send', {
    schema: { params: idParams, body: sendBody, response: { 200: z.union([SendAnswer, ActionAnswer]) } },
    config: { doc: { summary: 'Send a charger its local authorization list (SendLocalList, Full or Differential)', privileges, note: 'A VersionMismatch to a Differential is followed by a Full list (fallbackFrom). No answer (offline, timeout): the error code.' } },
  }, async (req) => {
    const user = requirePrivileges(req, ...privileges);
    const cp = await commandableCharger(app, user, req.params.id);
    if (!cp) return refused(ERROR_CODES.CP_NOT_FOUND);
    return (await sendList(app, req.log, user, cp, req.body.updateType))!;
  });

  app.post('/api/cps/:id/localList/version', {
    schema: { params: idParams, response: { 200: z.union([VersionAnswer, ActionAnswer]) } },
    config: { doc: { summary: 'Ask a charger the version of its local authorization list (GetLocalListVersion)', privileges } },
  }, async (req) => {
    const user = requirePrivileges(req, ...privileges);
    const cp = await commandableCharger(app, user, req.params.id);
    if (!cp) return refused(ERROR_CODES.CP_NOT_FOUND);
    return checkVersion(app, req.log, user, cp);
  });

  app.post('/api/cp_locs/:id/localList/send', {
    schema: { params: idParams, body: sendBody, response: { 200: z.union([SiteAnswer, ActionAnswer]) } },
    config: { doc: { summary: 'Send every charger of a site its local authorization list, with each charger\'s outcome', privileges, note: 'Chargers are sent one after the other; an offline one is answered with its error code.' } },
  }, async (req) => {
    const user = requirePrivileges(req, ...privileges);
    const locId = req.params.id;
    if (!user.allSites && !user.siteIds.includes(locId)) return refused(ERROR_CODES.CP_NOT_FOUND);
    const cps = await app.db.query<ChargerRow>(
      `SELECT cp_id, cp_no, loc_id, enable_flag, double_use_flag FROM cps WHERE loc_id = $1 AND deleted_at IS NULL ORDER BY cp_no`,
      [locId],
    );
    const chargers = [];
    for (const cp of cps) chargers.push({ cpId: cp.cp_id, cpNo: cp.cp_no, outcome: (await sendList(app, req.log, user, cp, req.body.updateType))! });
    return { chargers };
  });
}
