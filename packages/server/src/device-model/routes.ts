import { editPrivilege, ERROR_CODES, P, type ActionResult } from '@ev/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requirePrivileges } from '../auth/guard.ts';
import { badRequest } from '../http/errors.ts';
import { idParams } from '../http/schema.ts';
import { ActionAnswer, commandableCharger, sendCommand, type ChargerRow } from '../ocpp/routes.ts';
import { bootProvisioning } from './provision.ts';
import { beginReport, DeviceModelAnswer, restoreRequest, storedModel, storeSetValue, type VariableKey } from './store.ts';

/** OCPP 2.0.1 identifierString/string lengths: names 50, values 1000 (SetVariableDataType). */
const name = z.string().trim().min(1).max(50);
const evse = z.number().int().min(0).max(2 ** 31 - 1);
const REPORT_BASES = ['FullInventory', 'ConfigurationInventory', 'SummaryInventory'] as const;
const readBody = z.strictObject({ reportBase: z.enum(REPORT_BASES).default('FullInventory') });
const setBody = z.strictObject({
  component: name,
  componentInstance: name.optional(),
  evseId: evse.optional(),
  connectorId: evse.optional(),
  variable: name,
  variableInstance: name.optional(),
  value: z.string().max(1000),
}).refine((b) => b.connectorId === undefined || b.evseId !== undefined, { path: ['connectorId'], message: 'A connector is within an EVSE: evseId is required' });
const ATTRIBUTE_STATUSES = ['Accepted', 'Rejected', 'RebootRequired', 'UnknownComponent', 'UnknownVariable', 'NotSupportedAttributeType'] as const;
const SetAnswer = z.object({
  component: z.string(),
  variable: z.string(),
  answer: z.enum(ATTRIBUTE_STATUSES).describe('The charger\'s attributeStatus, as it gave it'),
});

const refused = (errorCode: number): ActionResult => ({ status: 'error', errorCode });
/** Reading and setting a variable act on the charger, as for the 1.6 keys (config-readback-routes.ts). */
const SET_PRIVILEGES = [P.GET_CONFIGURATION, editPrivilege('cp_config')];

/** A charger known to speak 1.6 has no device model: refused before anything is recorded or sent. */
async function refuseOcpp16(app: FastifyInstance, cp: ChargerRow): Promise<void> {
  const [row] = await app.db.query<{ ocpp_protocol: string | null }>(`SELECT ocpp_protocol FROM cps WHERE cp_id = $1`, [cp.cp_id]);
  if (row?.ocpp_protocol === 'ocpp1.6') {
    throw badRequest('This charger connects with OCPP 1.6, which has no device model: read its configuration keys (GetConfiguration)', { protocol: 'not_ocpp201' });
  }
}

/**
 * An OCPP 2.0.1 charger's device model (issue 31): GetBaseReport asked here and answered by NotifyReport
 * parts (report.ts), the variables as last reported, and SetVariables of one variable. Commands are audited
 * (COMMAND) and logged in cp_requests by sendCommand, as the 1.6 configuration read back.
 */
export function deviceModelRoutes(fastify: FastifyInstance): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  bootProvisioning(fastify);

  app.get('/api/cps/:id/deviceModel', {
    schema: { params: idParams, response: { 200: z.union([DeviceModelAnswer, ActionAnswer]) } },
    config: { doc: { summary: 'An OCPP 2.0.1 charger\'s device model as last reported, and the state of the last report asked for', privileges: [P.GET_CONFIGURATION] } },
  }, async (req) => {
    const user = requirePrivileges(req, P.GET_CONFIGURATION);
    const cp = await commandableCharger(app, user, req.params.id);
    if (!cp) return refused(ERROR_CODES.CP_NOT_FOUND);
    return storedModel(app.db, cp.cp_id);
  });

  app.post('/api/cps/:id/deviceModel/read', {
    schema: { params: idParams, body: readBody, response: { 200: ActionAnswer } },
    config: {
      doc: {
        summary: 'Ask an OCPP 2.0.1 charger for its device model (GetBaseReport)',
        privileges: [P.GET_CONFIGURATION],
        note: 'The answer is the charger\'s (Accepted, NotSupported …); the report comes afterwards in parts: GET shows it, completedAt set once the last part came. A 1.6 charger is refused (400, protocol: not_ocpp201).',
      },
    },
  }, async (req) => {
    const user = requirePrivileges(req, P.GET_CONFIGURATION);
    const cp = await commandableCharger(app, user, req.params.id);
    if (!cp) return refused(ERROR_CODES.CP_NOT_FOUND);
    await refuseOcpp16(app, cp);
    const { reportBase } = req.body;
    const previous = await beginReport(app.db, cp.cp_id, reportBase);
    const result = await sendCommand(app, req.log, user, cp, 'GetBaseReport', { requestId: previous.requestId, reportBase });
    // Not begun (refused, or never sent): what was known of the last report stays. A charger that did not answer in time may still report.
    if (result.status !== 'success' && result.errorCode !== ERROR_CODES.CP_TIMEOUT) await restoreRequest(app.db, cp.cp_id, previous.requestId, previous.before);
    return result;
  });

  app.post('/api/cps/:id/deviceModel/set', {
    schema: { params: idParams, body: setBody, response: { 200: z.union([SetAnswer, ActionAnswer]) } },
    config: {
      doc: {
        summary: 'Set one variable of an OCPP 2.0.1 charger (SetVariables)',
        privileges: SET_PRIVILEGES,
        note: 'A variable the stored device model marks ReadOnly is refused (400, variable: not_editable) without being sent; BasicAuthPassword is set through POST /api/cps/{id}/password. On Accepted the stored value is updated.',
      },
    },
  }, async (req) => {
    const user = requirePrivileges(req, ...SET_PRIVILEGES);
    const cp = await commandableCharger(app, user, req.params.id);
    if (!cp) return refused(ERROR_CODES.CP_NOT_FOUND);
    const b = req.body;
    // The password goes only through its own action, which keeps the hash the server checks in step with it.
    if (b.variable === 'BasicAuthPassword') throw badRequest('BasicAuthPassword: set the charger\'s password with POST /api/cps/{id}/password', { variable: 'not_editable' });
    await refuseOcpp16(app, cp);
    const key: VariableKey = {
      component: b.component, componentInstance: b.componentInstance ?? '', evseId: b.evseId ?? 0, connectorId: b.connectorId ?? 0,
      variable: b.variable, variableInstance: b.variableInstance ?? '',
    };
    const [stored] = await app.db.query<{ mutability: string | null }>(
      `SELECT mutability FROM cp_device_variables WHERE cp_id = $1 AND component = $2 AND component_instance = $3 AND evse_id = $4
          AND connector_id = $5 AND variable = $6 AND variable_instance = $7 AND attribute_type = 'Actual'`,
      [cp.cp_id, key.component, key.componentInstance, key.evseId, key.connectorId, key.variable, key.variableInstance],
    );
    if (stored?.mutability === 'ReadOnly') throw badRequest('variable: not_editable (the charger reports it ReadOnly)', { variable: 'not_editable' });
    const component = {
      name: b.component, ...(b.componentInstance ? { instance: b.componentInstance } : {}),
      ...(b.evseId !== undefined ? { evse: { id: b.evseId, ...(b.connectorId !== undefined ? { connectorId: b.connectorId } : {}) } } : {}),
    };
    const variable = { name: b.variable, ...(b.variableInstance ? { instance: b.variableInstance } : {}) };
    const result = await sendCommand(app, req.log, user, cp, 'SetVariables', { setVariableData: [{ attributeValue: b.value, component, variable }] });
    const answer = (result.data as { setVariableResult?: { attributeStatus?: unknown }[] } | undefined)?.setVariableResult?.[0]?.attributeStatus;
    const known = SetAnswer.shape.answer.safeParse(answer);
    // No answer (offline, timeout, an answer without a result) is the error code.
    if (!known.success) return result;
    if (known.data === 'Accepted' && stored?.mutability !== 'WriteOnly') await storeSetValue(app.db, cp.cp_id, key, b.value);
    return { component: b.component, variable: b.variable, answer: known.data };
  });
}
