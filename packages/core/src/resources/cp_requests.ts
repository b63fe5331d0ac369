import { P } from '../privileges.ts';
import { DEFAULT_REQUEST_TYPES } from '../ocpp.ts';
import type { ResourceDef } from '../resource.ts';
import { col, dateCol, idCol, intCol, selectCol } from './build.ts';
import { COMMON_LABELS as C, labels } from './labels.ts';

/**
 * The OCPP logs and their derived records. cp_requests and cp_meter_values grow by millions of
 * rows a month, so only indexed columns get filters there (no "contains" text filter on them).
 * The one exception, cp_no, is matched against the chargers table (a few hundred rows) and then
 * read through the cp_id index: see the server's resources/hooks/cp_requests.ts.
 */
export const cp_requests: ResourceDef = {
  key: 'cp_requests',
  labels: labels(['Charger Requests', '充電樁請求'], {
    req_id: ['Request ID', '請求編號'],
    charge_box_serial_number: C.charge_box_serial_number,
    cp_id: C.cp_id,
    cp_no: C.cp_no,
    connector_id: C.connector_id,
    connector_status: ['Connector Status', '充電槍狀態'],
    request_type: ['Request Type', '請求類型'],
    request_data: ['Request Data', '請求資料'],
    response_data: ['Response Data', '回應資料'],
    cre_dttm: ['Request Time', '請求時間'],
    session_id: C.session_id,
    tran_id: C.tran_id,
    uuid: C.uuid,
    loc: C.loc,
    energy: C.energy,
    voltage: C.voltage,
    ampere: C.ampere,
    rsr_id: C.rsr_id,
  }),
  table: 'cp_requests',
  idField: 'req_id',
  site: { cpColumn: 'cp_id' },
  columns: [
    idCol('req_id'),
    col('request_type', 'enum', 'int', { sortable: true, filter: 'multiselect', options: 'request_types' }),
    // The charger's id, linked to it (the number has its own column); the filter picks a charger by number.
    col('cp_id', 'link', 'int', { sortable: true, filter: 'select', options: 'cps', linkTo: 'cps' }),
    col('cp_no', 'text', 'text', { filter: 'text' }),
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
  // The charger view's charts ask for one connector's meter values by these names (spec part 1 §7).
  paramAliases: { connector_required: 'connector_id', type: 'request_type' },
  readOnly: true,
  actions: ['view', 'popView', 'excel'],
};
