import { DEFAULT_REQUEST_TYPES } from '../ocpp.ts';
import { P } from '../privileges.ts';
import type { ColumnDef, ResourceDef } from '../resource.ts';
import { boolCol, boolFld, col, dateCol, fld, idCol, intCol, selectCol, selectFld, textCol, textFld } from './build.ts';

/**
 * The OCPP logs and their derived records. cp_requests and cp_meter_values grow by millions of
 * rows a month, so only indexed columns get filters there (no "contains" text filter on them).
 */
export const cp_requests: ResourceDef = {
  key: 'cp_requests',
  table: 'cp_requests',
  idField: 'req_id',
  menu: { group: 'operation' },
  site: { cpColumn: 'cp_id' },
  columns: [
    idCol('req_id'),
    col('request_type', 'enum', 'int', { sortable: true, filter: 'multiselect', options: 'request_types' }),
    selectCol('cp_id', 'cps'),
    col('cp_no', 'text', 'text'),
    col('charge_box_serial_number', 'text', 'text', { hiddenInList: true }),
    intCol('connector_id', { filter: 'select' }),
    col('connector_status', 'enum', 'text', { options: 'connector_status', hiddenInList: true }),
    col('request_data', 'json', 'json'),
    col('response_data', 'json', 'json'),
    dateCol('cre_dttm'),
    intCol('session_id', { filter: 'select' }),
    intCol('tran_id', { filter: 'select' }),
    col('uuid', 'text', 'text', { hiddenInList: true }),
    selectCol('loc', 'cp_locs', { hiddenInList: true }),
    col('energy', 'float1000', 'int', { decimals: 3 }),
    col('voltage', 'number', 'float'),
    col('ampere', 'number', 'float'),
    col('rsr_id', 'number', 'int', { privileges: [P.CST_DEBUG], hiddenInList: true }),
  ],
  fields: [],
  defaultSort: { field: 'req_id', order: 'desc' },
  defaultFilters: { request_type: DEFAULT_REQUEST_TYPES },
  readOnly: true,
  actions: ['view', 'popView', 'excel'],
};

const sessionColumns = (all: boolean): ColumnDef[] => {
  // The short list keeps what an operator scans for; the "all" list shows every recorded value.
  const extra = all ? {} : { hiddenInList: true };
  return [
    idCol('session_id'),
    intCol('tran_id', { filter: 'select', ...extra }),
    selectCol('cp_id', 'cps'),
    textCol('cp_no', { filter: undefined }),
    selectCol('loc_id', 'cp_locs'),
    intCol('connector_id', { filter: 'select' }),
    col('connector_name', 'text', 'text', { hiddenInList: true }),
    textCol('id_tag', { filter: 'select' }),
    intCol('account_id', { filter: 'select', ...extra }),
    dateCol('session_start_time'),
    dateCol('session_end_time'),
    col('total_charge_time', 'seconds', 'int', { sortable: true }),
    col('total_pw_consume', 'float1000', 'int', { sortable: true, decimals: 3 }),
    col('running_pw_consume', 'float1000', 'int', { sortable: true, decimals: 3 }),
    col('start_meter', 'float1000', 'int', { decimals: 3, ...extra }),
    col('end_meter', 'float1000', 'int', { decimals: 3, ...extra }),
    col('start_soc', 'number', 'int', extra),
    col('end_soc', 'number', 'int', extra),
    col('stop_reason', 'enum', 'text', { sortable: true, filter: 'select', options: 'stop_reason' }),
    col('energy', 'float1000', 'int', { decimals: 3, viewOnly: true }),
    col('voltage', 'number', 'float', { viewOnly: true }),
    col('ampere', 'number', 'float', { viewOnly: true }),
    dateCol('cre_dttm', { hiddenInList: true }),
  ];
};

const sessionBase = {
  table: 'cp_sessions',
  idField: 'session_id',
  site: { column: 'loc_id' },
  fields: [],
  readOnly: true,
  actions: ['view', 'popView', 'excel'],
} satisfies Partial<ResourceDef>;

/**
 * Operator's list: running and finished sessions together (a running one shows no end time and
 * its energy so far), newest first by id, i.e. in the order the central system learnt of them.
 */
export const cp_sessions: ResourceDef = {
  ...sessionBase,
  key: 'cp_sessions',
  menu: { group: 'operation' },
  columns: sessionColumns(false),
  defaultSort: { field: 'session_id', order: 'desc' },
};

/**
 * Every column, sorted by when the session started rather than when it was recorded: sessions a
 * charger queued offline arrive late and belong where they happened in time (audits, exports).
 */
export const cp_sessions_all: ResourceDef = {
  ...sessionBase,
  key: 'cp_sessions_all',
  menu: { group: 'operation' },
  columns: sessionColumns(true),
  defaultSort: { field: 'session_start_time', order: 'desc' },
};

/**
 * Fleet (KMB) view of the same table: account and meter columns shown, newest start first. It has
 * no menu entry of its own (spec part 1 §2); the fleet account filter is a column filter.
 */
export const kmb_cp_sessions: ResourceDef = {
  ...sessionBase,
  key: 'kmb_cp_sessions',
  columns: sessionColumns(true),
  defaultSort: { field: 'session_start_time', order: 'desc' },
};

/** Connectors as the chargers last reported them (StatusNotification); written only by the OCPP server. */
export const cp_connectors: ResourceDef = {
  key: 'cp_connectors',
  table: 'cp_connectors',
  idField: 'id',
  privilegeKey: 'cp_connector',
  site: { cpColumn: 'cp_id' },
  columns: [
    idCol('id'),
    selectCol('cp_id', 'cps'),
    intCol('connector_id'),
    col('connector_name', 'text', 'text'),
    col('status', 'enum', 'text', { sortable: true, filter: 'select', options: 'connector_status' }),
    col('error_code', 'text', 'text'),
    col('vendor_error_code', 'text', 'text', { hiddenInList: true }),
    col('info', 'text', 'text', { hiddenInList: true }),
    dateCol('last_status_dttm'),
  ],
  fields: [],
  defaultSort: { field: 'connector_id', order: 'asc' },
  readOnly: true,
  actions: ['view'],
};

/** RFID cards accepted by Authorize: everywhere (no site, no charger), at a site, or at a charger. */
export const auth_card: ResourceDef = {
  key: 'auth_card',
  table: 'auth_card',
  idField: 'id',
  titleField: 'name',
  menu: { group: 'management' },
  site: { column: 'loc' },
  columns: [
    idCol('id'),
    textCol('name'),
    textCol('rfid_cards'),
    selectCol('loc', 'cp_locs'),
    selectCol('cp', 'cps'),
    boolCol('active'),
  ],
  fields: [
    textFld('name', { required: true }),
    fld('rfid_cards', 'textarea', 'text', { required: true, maxLength: 20000 }),
    selectFld('loc', 'cp_locs'),
    selectFld('cp', 'cps'),
    boolFld('active', { default: 1 }),
  ],
  actions: ['create', 'edit', 'view', 'delete', 'excel'],
};
