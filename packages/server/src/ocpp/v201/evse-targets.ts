import { ERROR_CODES, type ActionResult } from '@ev/core';
import type { FastifyInstance } from 'fastify';
import { badRequest } from '../../http/errors.ts';

/**
 * The EVSE and connector targets only OCPP 2.0.1 has (issue 31, blocks B and G): a reset of one EVSE,
 * the availability of one connector within an EVSE, and the station's StatusNotification asked EVSE by
 * EVSE. The routes (ocpp/routes.ts) use these; the messages are made in v201/commands.ts.
 */

/** The protocol the charger speaks: its connection's when connected here, else the one it last connected with. */
export async function chargerProtocol(app: FastifyInstance, cpId: number): Promise<string | null> {
  const live = app.ocpp.central.connection(cpId)?.charger.protocol;
  if (live) return live;
  const [row] = await app.db.query<{ ocpp_protocol: string | null }>(`SELECT ocpp_protocol FROM cps WHERE cp_id = $1`, [cpId]);
  return row?.ocpp_protocol ?? null;
}

/**
 * A 400 for a parameter only a 2.0.1 charger takes, given for any other (1.6, or one that never connected):
 * nothing is sent, rather than a different command than asked.
 */
export async function require201(app: FastifyInstance, cpId: number, field: string, what: string): Promise<void> {
  if ((await chargerProtocol(app, cpId)) === 'ocpp2.0.1') return;
  throw badRequest(`${field}: ${what} only on an OCPP 2.0.1 charger; this charger does not speak OCPP 2.0.1`, { [field]: 'not_ocpp201' });
}

/** The EVSEs the station reported (its connectors in the portal), in order. */
async function knownEvses(app: FastifyInstance, cpId: number): Promise<number[]> {
  const rows = await app.db.query<{ connector_id: number }>(
    `SELECT connector_id FROM cp_connectors WHERE cp_id = $1 AND connector_id > 0 ORDER BY connector_id`, [cpId],
  );
  return rows.map((r) => r.connector_id);
}

/**
 * TriggerMessage StatusNotification of a whole 2.0.1 station: OCPP 2.0.1 F06.FR.13 has the CSMS name an EVSE
 * (StatusNotification is a connector's), so one is sent per known EVSE. The answer is a success when every EVSE
 * accepted, else the first refusal; data lists each EVSE's answer. A station that reported no EVSE yet is asked
 * without one (its only chance to say which it has).
 */
export async function triggerEachEvse(
  app: FastifyInstance,
  cpId: number,
  send: (connectorId?: number) => Promise<ActionResult>,
): Promise<ActionResult> {
  const evses = await knownEvses(app, cpId);
  if (!evses.length) return send();
  const answers: { evseId: number; status?: string; errorCode?: number }[] = [];
  let refusal: ActionResult | undefined;
  for (const evseId of evses) {
    const result = await send(evseId);
    const status = (result.data as { status?: string } | undefined)?.status;
    answers.push({ evseId, ...(status ? { status } : {}), ...(result.errorCode !== undefined ? { errorCode: result.errorCode } : {}) });
    if (result.status !== 'success') {
      refusal ??= result;
      // Not connected (or gone mid-way): the others would be refused the same.
      if (result.errorCode === ERROR_CODES.CP_OFFLINE) break;
    }
  }
  if (refusal) return { ...refusal, message: `EVSE ${answers.find((a) => a.errorCode !== undefined)?.evseId}: ${refusal.message ?? ''}`.trim(), data: { ...(refusal.data as object | undefined), evses: answers } };
  return { status: 'success', data: { status: 'Accepted', evses: answers } };
}
