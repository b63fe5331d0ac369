import { ALL_RESOURCE_KEYS, createPrivilege, editPrivilege, OTHER_PERMISSIONS, P, readPrivilege } from '@ev/core';

export interface OtherCell {
  /** i18n key of the label; the privilege name shows when the catalog has none. */
  label: string;
  privilege: string;
}

export interface MatrixRow {
  /** Resource key, or '' for the general row. */
  key: string;
  read?: string;
  create?: string;
  edit?: string;
  other: OtherCell[];
}

/** The resource a named permission of the Other column belongs to; unlisted ones sit on the general row. */
const OTHER_HOME: Record<string, string> = {
  remote_start_charger: 'cps',
  remote_reset_charger: 'cps',
  get_giagnostics: 'cps',
  trigger_message: 'cps',
  change_availability: 'cps',
  clear_cache: 'cps',
  get_configuration: 'cps',
  local_list: 'cps',
  charging_profile: 'cps',
  charger_password: 'cps',
  retry_error_payment: 'payment_result_detail',
  penalty_button: 'cp_rsr',
  settled_button: 'cp_rsr',
  close_session: 'cp_sessions',
  master_flag: 'accounts',
};

/** Field and screen gates of spec part 1 §6 that belong to one resource's row. */
const NAMED_HOME: Record<string, string> = {
  [P.CP_TYPE]: 'cps',
  [P.CP_CONFIG]: 'cps',
  [P.CP_CONFIG_ADMIN]: 'cps',
  [P.CP_CONNECTOR]: 'cps',
  [P.LMS_PROFILE]: 'cp_locs',
  [P.ACCOUNT_VEHICLE_ROW_ACTIONS]: 'account_vehicles',
  [P.APP_CONFIG_ADMIN]: 'app_config',
};

/**
 * Resources × Read / Create / Edit, plus Other. Only privileges that exist on the server get a checkbox, and every
 * existing privilege gets one somewhere (unmatched names go to the general row) so nothing is ungrantable.
 */
export function buildMatrix(existing: string[]): MatrixRow[] {
  const known = new Set(existing);
  const placed = new Set<string>();
  const take = (name: string) => (known.has(name) ? (placed.add(name), name) : undefined);

  const rows: MatrixRow[] = ALL_RESOURCE_KEYS.map((key) => ({
    key,
    read: take(readPrivilege(key)),
    create: take(createPrivilege(key)),
    edit: take(editPrivilege(key)),
    other: [] as OtherCell[],
  }));
  const general: MatrixRow = { key: '', other: [] };
  for (const o of OTHER_PERMISSIONS) {
    if (!take(o.privilege)) continue;
    const cell = { label: `ui.rnp.other.${o.name}`, privilege: o.privilege };
    const home = rows.find((r) => r.key === OTHER_HOME[o.name]);
    (home ?? general).other.push(cell);
  }
  for (const name of existing) {
    if (placed.has(name)) continue;
    const cell = { label: `ui.rnp.named.${name}`, privilege: name };
    const home = rows.find((r) => r.key === NAMED_HOME[name]);
    (home ?? general).other.push(cell);
  }
  return [general, ...rows].filter((r) => r.read || r.create || r.edit || r.other.length);
}

/** Every privilege of a matrix column, for its header's select-all box. */
export function columnPrivileges(rows: MatrixRow[], column: 'read' | 'create' | 'edit' | 'other'): string[] {
  return rows.flatMap((r) => (column === 'other' ? r.other.map((o) => o.privilege) : r[column] ? [r[column]!] : []));
}
