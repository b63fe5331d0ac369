import { minLockedToMax, type ZoneLmsEntry, type ZoneLmsEntryInput } from '@ev/core';

export type CurrentField = 'zone_max_available_current' | 'max_charging_current' | 'min_charging_current';
export const CURRENT_FIELDS: CurrentField[] = ['zone_max_available_current', 'max_charging_current', 'min_charging_current'];

/** The three inputs of a zone's row as typed (null = empty). */
export type RowValues = Record<CurrentField, number | null>;
/** zone_id → field → message key of the problem. */
export type RowErrors = Record<number, Partial<Record<CurrentField | 'zone_id', string>>>;

export const rowValues = (e: ZoneLmsEntry): RowValues => ({
  zone_max_available_current: e.zone_max_available_current,
  max_charging_current: e.max_charging_current,
  min_charging_current: e.min_charging_current,
});

/** What a row shows for min: in QUEUEING it follows max (spec part 1 §4). */
export const shownMin = (mode: string, v: RowValues) => (minLockedToMax(mode) ? v.max_charging_current : v.min_charging_current);

/**
 * The PUT body's zones from the screen's rows: a row left empty has no entry; a row partly filled
 * is marked on its empty inputs instead of being sent. The order is the table's, so the server's
 * `zones.{i}.{field}` errors map back to rows through the returned list.
 */
export function zonesToSave(mode: string, zones: ZoneLmsEntry[], values: Record<number, RowValues>): { zones: ZoneLmsEntryInput[]; errors: RowErrors } {
  const out: ZoneLmsEntryInput[] = [];
  const errors: RowErrors = {};
  const needed = CURRENT_FIELDS.filter((f) => f !== 'min_charging_current' || !minLockedToMax(mode));
  for (const z of zones) {
    const v = values[z.zone_id] ?? rowValues(z);
    const empty = needed.filter((f) => v[f] === null || v[f] === undefined);
    if (empty.length === needed.length) continue;
    if (empty.length) {
      errors[z.zone_id] = Object.fromEntries(empty.map((f) => [f, 'required']));
      continue;
    }
    out.push({
      zone_id: z.zone_id,
      zone_max_available_current: v.zone_max_available_current!,
      max_charging_current: v.max_charging_current!,
      ...(minLockedToMax(mode) ? {} : { min_charging_current: v.min_charging_current! }),
    });
  }
  return { zones: out, errors };
}

/** The server's field errors (`zones.{i}.{field}`) by zone, through the list that was sent. */
export function serverRowErrors(fields: Record<string, string> | undefined, sent: ZoneLmsEntryInput[]): RowErrors {
  const errors: RowErrors = {};
  for (const [path, key] of Object.entries(fields ?? {})) {
    const m = /^zones\.(\d+)\.(\w+)$/.exec(path);
    const zone = m ? sent[Number(m[1])]?.zone_id : undefined;
    if (!m || zone === undefined) continue;
    (errors[zone] ??= {})[m[2] as CurrentField | 'zone_id'] = key;
  }
  return errors;
}
