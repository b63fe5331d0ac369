import type { ResourceDef } from '../resource.ts';
import { col, dateCol, idCol, intCol, selectCol } from './build.ts';
import { COMMON_LABELS as C, labels } from './labels.ts';

/** Connectors as the chargers last reported them (StatusNotification); written only by the OCPP server. */
export const cp_connectors: ResourceDef = {
  key: 'cp_connectors',
  labels: labels(['Connectors', '充電槍'], {
    id: C.id,
    cp_id: C.cp_id,
    connector_id: C.connector_id,
    connector_name: C.connector_name,
    status: ['Status', '狀態'],
    last_known_status: ['Last Known Status (offline)', '最後已知狀態（離線）'],
    session_id: ['Running Session', '進行中的充電'],
    error_code: C.error_code,
    vendor_error_code: ['Vendor Error Code', '供應商錯誤代碼'],
    info: ['Info', '資訊'],
    last_status_dttm: C.last_status_dttm,
  }),
  table: 'cp_connectors',
  idField: 'id',
  privilegeKey: 'cp_connector',
  site: { cpColumn: 'cp_id' },
  columns: [
    idCol('id'),
    selectCol('cp_id', 'cps'),
    intCol('connector_id'),
    col('connector_name', 'text', 'text'),
    // Offline while the charger is not connected, with what it last reported beside it (server hooks/cp_connectors.ts).
    col('status', 'enum', 'text', { sortable: true, filter: 'select', options: 'connector_status' }),
    col('last_known_status', 'enum', 'text', { sortable: true, filter: 'select', options: 'connector_status' }),
    // The session a remote stop would end (and an unlock may end).
    intCol('session_id', { sortable: false }),
    col('error_code', 'enum', 'text', { sortable: true, filter: 'select', options: 'charge_point_error_code' }),
    col('vendor_error_code', 'text', 'text', { hiddenInList: true }),
    col('info', 'text', 'text', { hiddenInList: true }),
    dateCol('last_status_dttm'),
  ],
  fields: [],
  defaultSort: { field: 'connector_id', order: 'asc' },
  readOnly: true,
  actions: ['view'],
};
