import type { ResourceDef, ColumnDef } from '../resource.ts';
import { col, dateCol, idCol, intCol, selectCol, textCol } from './build.ts';
import { COMMON_LABELS as C, labels, type Pair } from './labels.ts';

export const sessionColumns = (all: boolean): ColumnDef[] => {
  // The short list keeps what an operator scans for; the "all" list shows every recorded value.
  const extra = all ? {} : { hiddenInList: true };
  return [
    idCol('session_id'),
    intCol('tran_id', { filter: 'select', ...extra }),
    // The charger's id, linked to it (the number has its own column); the filter picks a charger by number.
    col('cp_id', 'link', 'int', { sortable: true, filter: 'select', options: 'cps', linkTo: 'cps' }),
    textCol('cp_no'),
    selectCol('loc_id', 'cp_locs'),
    intCol('connector_id', { filter: 'select' }),
    col('connector_name', 'text', 'text', { hiddenInList: true }),
    textCol('id_tag', { filter: 'select' }),
    intCol('account_id', { filter: 'select', ...extra }),
    dateCol('session_start_time'),
    dateCol('session_end_time'),
    // Running, but the charger showed it had ended without its StopTransaction (a server virtual column).
    col('unconfirmed', 'flag', 'text', { filter: 'multiselect', options: 'unconfirmed_reason' }),
    col('unconfirmed_since', 'datetime', 'timestamp'),
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

export const sessionBase = {
  table: 'cp_sessions',
  idField: 'session_id',
  site: { column: 'loc_id' },
  fields: [],
  readOnly: true,
  actions: ['view', 'popView', 'excel'],
} satisfies Partial<ResourceDef>;

export const sessionFields: Record<string, Pair> = {
  session_id: C.session_id,
  tran_id: C.tran_id,
  cp_id: C.cp_id,
  cp_no: C.cp_no,
  connector_id: C.connector_id,
  connector_name: C.connector_name,
  total_charge_time: ['Total Charging Time', '總充電時間'],
  total_pw_consume: ['Total Energy Consumed', '總用電量'],
  running_pw_consume: ['Energy Consumed So Far', '累計用電量'],
  session_start_time: ['Start Time', '開始時間'],
  session_end_time: ['End Time', '結束時間'],
  start_meter: ['Start Meter Reading', '開始電錶讀數'],
  end_meter: ['End Meter Reading', '結束電錶讀數'],
  start_soc: ['Start SoC (%)', '開始電量（%）'],
  end_soc: ['End SoC (%)', '結束電量（%）'],
  account_id: C.account_id,
  id_tag: ['ID Tag', '識別卡號'],
  stop_reason: ['Stop Reason', '停止原因'],
  unconfirmed: ['Unconfirmed', '未確認'],
  unconfirmed_since: ['Unconfirmed Since', '未確認起始時間'],
  loc_id: C.loc_id,
  energy: C.energy,
  voltage: C.voltage,
  ampere: C.ampere,
  cre_dttm: C.cre_dttm,
};

/**
 * Operator's list: running and finished sessions together (a running one shows no end time and
 * its energy so far), newest first by id, i.e. in the order the central system learnt of them.
 */
export const cp_sessions: ResourceDef = {
  ...sessionBase,
  key: 'cp_sessions',
  labels: labels(['Charging Sessions', '充電記錄'], sessionFields),
  columns: sessionColumns(false),
  defaultSort: { field: 'session_id', order: 'desc' },
};
