import { ERROR_CODES, P, type ActionResult } from '@ev/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requirePrivileges } from '../auth/guard.ts';
import { hashPassword } from '../crypto/passwords.ts';
import { badRequest } from '../http/errors.ts';
import { idParams } from '../http/schema.ts';
import { maskSecrets } from '../ocpp/commands.ts';
import { writeAudit } from '../resources/audit.ts';
import { ActionAnswer, commandableCharger, RefusedAnswer, sendCommand } from '../ocpp/routes.ts';
import { passwordState, startRotation, undoRotation } from './rotation.ts';
import { authorizationKeyValue, generateChargerPassword, passwordProblem } from './rules.ts';

const setBody = z.strictObject({
  password: z.string().max(200).optional().describe('The new password: 16 to 40 printable characters, no spaces'),
  generate: z.literal(true).optional().describe('Generate one instead (20 characters), answered this once'),
});
const StateAnswer = z.object({
  set: z.boolean().describe('The charger has a password (false: it signs in without one)'),
  changedAt: z.string().nullable().describe('When its password was last set (ISO 8601)'),
  rotating: z.boolean().describe('A new password was sent; the old sign-in is accepted until the charger reconnects with the new one'),
  online: z.boolean(),
});
const SetAnswer = ActionAnswer.extend({
  password: z.string().optional().describe('The generated password, answered this once and never again'),
  rotating: z.boolean().optional().describe('The old sign-in is still accepted until the charger reconnects with the new password'),
});

const refused = (errorCode: number): ActionResult => ({ status: 'error', errorCode });

/**
 * A charger's HTTP Basic password set or rotated from the portal (issue 29, OCPP 1.6 security profile 1).
 * Only a hash is stored; the password goes to the charger as ChangeConfiguration AuthorizationKey
 * (hex-encoded), which cp_requests and the action log keep masked (ocpp/commands.ts maskSecrets). The
 * charger stays connected; its old sign-in is accepted until it reconnects with the new password.
 * Answered Rejected / NotSupported (or a CALLERROR), the new password is dropped and the old one stays;
 * no answer in time, both are accepted, as nobody knows which one the charger has.
 */
export function chargerCredentialsRoutes(fastify: FastifyInstance): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get('/api/cps/:id/password', {
    schema: { params: idParams, response: { 200: z.union([StateAnswer, RefusedAnswer]) } },
    config: { doc: { summary: 'Whether a charger has a password, since when, and whether a rotation waits for its reconnect', privileges: [P.CHARGER_PASSWORD] } },
  }, async (req) => {
    const user = requirePrivileges(req, P.CHARGER_PASSWORD);
    const cp = await commandableCharger(app, user, req.params.id);
    return cp ? passwordState(app.db, cp.cp_id) : { status: 'error' as const, errorCode: ERROR_CODES.CP_NOT_FOUND };
  });

  app.post('/api/cps/:id/password', {
    schema: { params: idParams, body: setBody, response: { 200: SetAnswer } },
    config: {
      doc: {
        summary: 'Set or generate a charger\'s password and send it to the charger (ChangeConfiguration AuthorizationKey)',
        privileges: [P.CHARGER_PASSWORD],
        note: 'Exactly one of password and generate. The charger must be connected (else 10030, nothing changed). '
          + 'Answered Rejected or NotSupported (10032), the old password stays the only one.',
      },
    },
  }, async (req) => {
    const user = requirePrivileges(req, P.CHARGER_PASSWORD);
    const { password: given, generate } = req.body;
    if ((given === undefined) === !generate) throw badRequest('password: give a password or generate: true, not both', { password: 'required' });
    const problem = given === undefined ? null : passwordProblem(given);
    if (problem) throw badRequest(`password: ${problem}`, { password: problem });
    const cp = await commandableCharger(app, user, req.params.id);
    if (!cp) return refused(ERROR_CODES.CP_NOT_FOUND);
    const password = given ?? generateChargerPassword();
    const params = { key: 'AuthorizationKey', value: authorizationKeyValue(password) };
    // Nothing changes for a charger that cannot be told (the cps form sets a password typed in on site);
    // the attempt is in the action log as a command answered offline is.
    if (!(await passwordState(app.db, cp.cp_id)).online) {
      const outcome = refused(ERROR_CODES.CP_OFFLINE);
      await writeAudit(app.db, user, { action: 'COMMAND', target: 'cps', targetId: cp.cp_id, newData: { command: 'ChangeConfiguration', params: maskSecrets('ChangeConfiguration', params), outcome } });
      return outcome;
    }

    const hash = await hashPassword(password);
    const before = await startRotation(app.db, cp.cp_id, hash);
    const result = await sendCommand(app, req.log, user, cp, 'ChangeConfiguration', params);
    const answer = (result.data as { status?: string } | undefined)?.status;
    // RebootRequired: the charger has it and signs in with it after its reboot.
    if (result.status === 'success' || answer === 'RebootRequired') {
      return { status: 'success' as const, data: result.data, rotating: true, ...(generate ? { password } : {}) };
    }
    // The charger answered no, or never got it: its password is the old one.
    if (result.errorCode === ERROR_CODES.CP_REJECTED || result.errorCode === ERROR_CODES.CP_OFFLINE) {
      await undoRotation(app.db, cp.cp_id, hash, before);
      return result;
    }
    // No answer in time: it may have the new one or not, so both stay accepted (and the new one is shown).
    return { ...result, rotating: true, ...(generate ? { password } : {}) };
  });
}
