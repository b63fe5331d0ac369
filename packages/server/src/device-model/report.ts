import type { MessageHandler } from '../ocpp/handler-types.ts';

interface ReportData {
  component: { name: string; instance?: string; evse?: { id: number; connectorId?: number } };
  variable: { name: string; instance?: string };
  variableAttribute: { type?: string; value?: string; mutability?: string }[];
  variableCharacteristics?: { unit?: string; dataType?: string; valuesList?: string };
}

/**
 * NotifyReport (OCPP 2.0.1 B07/B08): one part of the base report the charger was asked for. The first part
 * of the report the portal asked for replaces what was known of the device model; each part adds its
 * variables, one row per attribute; the last (tbc false) completes the report. A report nobody asked for
 * (another requestId) still adds what it says.
 */
export const notifyReport: MessageHandler = async ({ cs, conn }, p: { requestId: number; seqNo: number; tbc?: boolean; reportData?: ReportData[] }) => {
  const { cpId } = conn.charger;
  const all = (p.reportData ?? []).flatMap((d) => d.variableAttribute.map((a) => [
    d.component.name, d.component.instance ?? '', d.component.evse?.id ?? 0, d.component.evse?.connectorId ?? 0,
    d.variable.name, d.variable.instance ?? '', a.type ?? 'Actual',
    // A write-only value (a password) is never kept, even from a charger that reports it.
    a.mutability === 'WriteOnly' ? null : (a.value ?? null), a.mutability ?? 'ReadWrite',
    d.variableCharacteristics?.dataType ?? null, d.variableCharacteristics?.unit ?? null, d.variableCharacteristics?.valuesList ?? null,
  ]));
  // One row per key: an attribute said twice in a part would make the upsert below fail; the last one counts.
  const rows = [...new Map(all.map((r) => [JSON.stringify(r.slice(0, 7)), r])).values()];
  await cs.db.tx(async (sql) => {
    const [asked] = await sql.query<{ request_id: number }>(
      `UPDATE cp_device_reports SET parts = parts + 1, completed_at = CASE WHEN $3 THEN completed_at ELSE now() END
        WHERE cp_id = $1 AND request_id = $2 RETURNING request_id`,
      [cpId, p.requestId, p.tbc ?? false],
    );
    if (asked && p.seqNo === 0) await sql.query(`DELETE FROM cp_device_variables WHERE cp_id = $1`, [cpId]);
    if (!rows.length) return;
    await sql.query(
      `INSERT INTO cp_device_variables (cp_id, component, component_instance, evse_id, connector_id, variable, variable_instance,
                                        attribute_type, value, mutability, data_type, unit, values_list, read_at)
       SELECT $1, r->>0, r->>1, (r->>2)::int, (r->>3)::int, r->>4, r->>5, r->>6, r->>7, r->>8, r->>9, r->>10, r->>11, now()
         FROM jsonb_array_elements($2::jsonb) r
       ON CONFLICT (cp_id, component, component_instance, evse_id, connector_id, variable, variable_instance, attribute_type)
       DO UPDATE SET value = EXCLUDED.value, mutability = EXCLUDED.mutability, data_type = EXCLUDED.data_type,
                     unit = EXCLUDED.unit, values_list = EXCLUDED.values_list, read_at = EXCLUDED.read_at`,
      [cpId, JSON.stringify(rows)],
    );
  });
  return { response: {} };
};
