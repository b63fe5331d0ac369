import { z } from 'zod';
import type { Database, Sql } from '../db/client.ts';

/** One variable of a charger's device model; '' and 0 stand for "none" (the table's key has no nulls). */
export interface VariableKey {
  component: string;
  componentInstance: string;
  evseId: number;
  connectorId: number;
  variable: string;
  variableInstance: string;
}

const DeviceVariable = z.object({
  component: z.string(),
  componentInstance: z.string().nullable(),
  evseId: z.number().int().nullable(),
  connectorId: z.number().int().nullable(),
  variable: z.string(),
  variableInstance: z.string().nullable(),
  attributeType: z.string().describe('Actual, Target, MinSet or MaxSet'),
  value: z.string().nullable().describe('Null for a write-only variable'),
  mutability: z.string().nullable().describe('ReadOnly, ReadWrite or WriteOnly'),
  dataType: z.string().nullable(),
  unit: z.string().nullable(),
  valuesList: z.string().nullable(),
  readAt: z.iso.datetime(),
});

export const DeviceModelAnswer = z.object({
  report: z.object({
    requestId: z.number().int(),
    reportBase: z.string(),
    requestedAt: z.iso.datetime(),
    parts: z.number().int().describe('NotifyReport parts received so far'),
    completedAt: z.iso.datetime().nullable().describe('When the last part came; null while the report is incomplete'),
  }).nullable().describe('The last report asked for; null if never'),
  variables: z.array(DeviceVariable),
});
export type DeviceModel = z.infer<typeof DeviceModelAnswer>;

const iso = (v: Date | string) => new Date(v).toISOString();

/** The device model as stored, grouped by component in the table's order. */
export async function storedModel(sql: Sql, cpId: number): Promise<DeviceModel> {
  const [report] = await sql.query(`SELECT * FROM cp_device_reports WHERE cp_id = $1`, [cpId]);
  const rows = await sql.query(
    `SELECT * FROM cp_device_variables WHERE cp_id = $1
      ORDER BY component, component_instance, evse_id, connector_id, variable, variable_instance, attribute_type`,
    [cpId],
  );
  return {
    report: report
      ? {
        requestId: report.request_id, reportBase: report.report_base, requestedAt: iso(report.requested_at), parts: report.parts,
        completedAt: report.completed_at ? iso(report.completed_at) : null,
      }
      : null,
    variables: rows.map((r) => ({
      component: r.component, componentInstance: r.component_instance || null,
      evseId: r.evse_id || null, connectorId: r.connector_id || null,
      variable: r.variable, variableInstance: r.variable_instance || null, attributeType: r.attribute_type,
      value: r.value, mutability: r.mutability, dataType: r.data_type, unit: r.unit, valuesList: r.values_list, readAt: iso(r.read_at),
    })),
  };
}

/** What beginReport replaced: given back to restoreRequest when the charger does not begin the report. */
export interface ReportRequest {
  requestId: number;
  before: Record<string, any> | null;
}

/**
 * Records a report request (the next requestId) before GetBaseReport is sent: the first NotifyReport may come
 * before the answer is read. The portal's read (routes.ts) and a Pending boot's (provision.ts) both ask through here.
 */
export async function beginReport(db: Database, cpId: number, reportBase: string): Promise<ReportRequest> {
  return db.tx(async (sql) => {
    const [before] = await sql.query(`SELECT * FROM cp_device_reports WHERE cp_id = $1 FOR UPDATE`, [cpId]);
    const [asked] = await sql.query<{ request_id: number }>(
      `INSERT INTO cp_device_reports (cp_id, request_id, report_base) VALUES ($1, 1, $2)
       ON CONFLICT (cp_id) DO UPDATE SET request_id = cp_device_reports.request_id % 2000000000 + 1, report_base = $2,
                                         requested_at = now(), parts = 0, completed_at = NULL
       RETURNING request_id`,
      [cpId, reportBase],
    );
    return { before: before ?? null, requestId: asked.request_id };
  });
}

/** A report request the charger did not begin: the row goes back to what it was (or away), unless another came since. */
export async function restoreRequest(sql: Sql, cpId: number, requestId: number, before: Record<string, any> | null): Promise<void> {
  if (!before) {
    await sql.query(`DELETE FROM cp_device_reports WHERE cp_id = $1 AND request_id = $2`, [cpId, requestId]);
    return;
  }
  await sql.query(
    `UPDATE cp_device_reports SET request_id = $3, report_base = $4, requested_at = $5, parts = $6, completed_at = $7
      WHERE cp_id = $1 AND request_id = $2`,
    [cpId, requestId, before.request_id, before.report_base, before.requested_at, before.parts, before.completed_at],
  );
}

/** The value a charger accepted (SetVariables), kept as its Actual value until the next report. */
export async function storeSetValue(sql: Sql, cpId: number, k: VariableKey, value: string): Promise<void> {
  await sql.query(
    `UPDATE cp_device_variables SET value = $8, read_at = now()
      WHERE cp_id = $1 AND component = $2 AND component_instance = $3 AND evse_id = $4 AND connector_id = $5
        AND variable = $6 AND variable_instance = $7 AND attribute_type = 'Actual'`,
    [cpId, k.component, k.componentInstance, k.evseId, k.connectorId, k.variable, k.variableInstance, value],
  );
}
