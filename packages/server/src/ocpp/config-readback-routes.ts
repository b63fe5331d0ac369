import { editPrivilege, ERROR_CODES, P, type ActionResult } from '@ev/core';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requirePrivileges } from '../auth/guard.ts';
import { badRequest } from '../http/errors.ts';
import { idParams } from '../http/schema.ts';
import { compare, ReadbackAnswer, storedKeys, storeRead, templateOf, type Readback } from './config-readback.ts';
import { ActionAnswer, commandableCharger, sendCommand, type ChargerRow, type CommandActor } from './routes.ts';

/** OCPP 1.6 CiString50 (a key) and CiString500 (a value). */
const ocppKey = z.string().trim().min(1).max(50);
const readBody = z.strictObject({ keys: z.array(ocppKey).max(100).optional().describe('The keys to read; all keys when absent or empty') });
const changeBody = z.strictObject({ key: ocppKey, value: z.string().max(500) });
const ChangeAnswer = z.object({
  key: z.string(),
  answer: z.enum(['Accepted', 'Rejected', 'RebootRequired', 'NotSupported']).describe('The charger\'s answer, as it gave it'),
});

const refused = (errorCode: number): ActionResult => ({ status: 'error', errorCode });
/** Reading and setting a key both act on the charger, as the read privilege says. */
const CHANGE_PRIVILEGES = [P.GET_CONFIGURATION, editPrivilege('cp_config')];

/**
 * One read of a charger's keys (GetConfiguration, all or named ones): sent, logged in cp_requests and
 * audited by sendCommand, stored as its last read and compared with its configuration. The per-charger
 * POST and the site's read of all chargers (config-fleet-routes.ts) both read through here.
 */
export async function readConfiguration(
  app: FastifyInstance, log: FastifyBaseLogger, actor: CommandActor, cp: ChargerRow, keys?: string[],
): Promise<Readback | ActionResult> {
  const result = await sendCommand(app, log, actor, cp, 'GetConfiguration', keys ? { key: keys } : {});
  if (result.status !== 'success') return result;
  const template = await templateOf(app.db, cp.cp_id);
  const rows = await app.db.tx((sql) => storeRead(sql, cp.cp_id, keys, result.data as object, template));
  return compare(rows, template);
}

/**
 * A charger's configuration read back (issue 29): GetConfiguration stored as the charger's last read,
 * compared with its current configuration, and ChangeConfiguration of one key. Each command is audited
 * (COMMAND) and logged in cp_requests by the dispatcher, as the other remote actions.
 */
export function configReadbackRoutes(fastify: FastifyInstance): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get('/api/cps/:id/getConfiguration', {
    schema: { params: idParams, response: { 200: z.union([ReadbackAnswer, ActionAnswer]) } },
    config: { doc: { summary: 'A charger\'s configuration keys as last read, compared with its configuration', privileges: [P.GET_CONFIGURATION] } },
  }, async (req) => {
    const user = requirePrivileges(req, P.GET_CONFIGURATION);
    const cp = await commandableCharger(app, user, req.params.id);
    if (!cp) return refused(ERROR_CODES.CP_NOT_FOUND);
    return compare(await storedKeys(app.db, cp.cp_id), await templateOf(app.db, cp.cp_id));
  });

  app.post('/api/cps/:id/getConfiguration', {
    schema: { params: idParams, body: readBody, response: { 200: z.union([ReadbackAnswer, ActionAnswer]) } },
    config: { doc: { summary: 'Read a charger\'s configuration keys (GetConfiguration), all or named ones', privileges: [P.GET_CONFIGURATION], note: 'The answer is this read\'s keys; GET answers every key stored.' } },
  }, async (req) => {
    const user = requirePrivileges(req, P.GET_CONFIGURATION);
    const cp = await commandableCharger(app, user, req.params.id);
    if (!cp) return refused(ERROR_CODES.CP_NOT_FOUND);
    const keys = req.body.keys?.length ? [...new Set(req.body.keys)] : undefined;
    return readConfiguration(app, req.log, user, cp, keys);
  });

  app.post('/api/cps/:id/changeConfiguration', {
    schema: { params: idParams, body: changeBody, response: { 200: z.union([ChangeAnswer, ActionAnswer]) } },
    config: { doc: { summary: 'Set one of a charger\'s configuration keys (ChangeConfiguration)', privileges: CHANGE_PRIVILEGES, note: 'A key the last read says is read-only is refused (400, key: not_editable) without being sent.' } },
  }, async (req) => {
    const user = requirePrivileges(req, ...CHANGE_PRIVILEGES);
    const cp = await commandableCharger(app, user, req.params.id);
    if (!cp) return refused(ERROR_CODES.CP_NOT_FOUND);
    const { key, value } = req.body;
    // The password goes only through its own action, which keeps the hash the server checks in step with it.
    if (key.toLowerCase() === 'authorizationkey') throw badRequest('AuthorizationKey: set the charger\'s password with POST /api/cps/{id}/password', { key: 'not_editable' });
    const [stored] = await app.db.query<{ readonly: boolean | null }>(`SELECT readonly FROM cp_config_keys WHERE cp_id = $1 AND key = $2`, [cp.cp_id, key]);
    if (stored?.readonly) throw badRequest('key: not_editable', { key: 'not_editable' });
    const result = await sendCommand(app, req.log, user, cp, 'ChangeConfiguration', { key, value });
    // The charger's answer as it gave it (RebootRequired, NotSupported …); no answer (offline, timeout) is the error code.
    const answer = (result.data as { status?: unknown } | undefined)?.status;
    return ChangeAnswer.shape.answer.safeParse(answer).success ? { key, answer: answer as z.infer<typeof ChangeAnswer>['answer'] } : result;
  });
}
