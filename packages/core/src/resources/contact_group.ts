import { PART2_PAGE_SIZES, type ResourceDef } from '../resource.ts';
import { boolCol, boolFld, col, dateCol, fld, idCol, selectCol, selectFld, textCol, textFld } from './build.ts';
import { COMMON_LABELS as C, labels } from './labels.ts';

/**
 * Who is mailed about which alerts: its contacts, for alerts at its sites (none: every site) with
 * its error codes (none: every code), once an alert reaches its level of continuous detections.
 * contactIds, locIds and errorIds (the spec's names) are stored in contact_ids, loc_ids, error_ids.
 */
export const contact_group: ResourceDef = {
  key: 'contact_group',
  labels: labels(['Contact Groups', '聯絡人群組'], {
    contact_group_id: ['Contact Group ID', '聯絡人群組編號'],
    name: C.name,
    status: C.active,
    level: ['Receiving Frequency', '接收頻率'],
    contactIds: ['Contacts', '聯絡人'],
    locIds: ['Sites', '充電站'],
    errorIds: ['Error Codes', '錯誤代碼'],
    cre_dttm: C.cre_dttm,
    lupd_dttm: C.lupd_dttm,
  }),
  table: 'contact_group',
  idField: 'contact_group_id',
  titleField: 'name',
  columns: [
    idCol('contact_group_id'),
    textCol('name'),
    selectCol('level', 'contact_group_level'),
    boolCol('status'),
    col('contactIds', 'enum', 'intArray', { options: 'contact', filter: 'multiselect' }),
    col('locIds', 'enum', 'intArray', { options: 'cp_locs', filter: 'multiselect' }),
    col('errorIds', 'enum', 'json', { options: 'alert_error_code' }),
    dateCol('cre_dttm'),
    dateCol('lupd_dttm', { viewOnly: true }),
  ],
  fields: [
    textFld('name', { required: true }),
    selectFld('level', 'contact_group_level', { required: true, default: 1 }),
    boolFld('status', { default: 1 }),
    fld('contactIds', 'multiselect', 'intArray', { options: 'contact' }),
    fld('locIds', 'multiselect', 'intArray', { options: 'cp_locs' }),
    fld('errorIds', 'multiselect', 'json', { options: 'alert_error_code' }),
  ],
  defaultSort: { field: 'contact_group_id', order: 'desc' },
  // The spec's option calls ask for enabled records with enable_flag=1.
  paramAliases: { enable_flag: 'status' },
  softDelete: true,
  pageSizes: PART2_PAGE_SIZES,
  actions: ['create', 'edit', 'view', 'delete', 'excel'],
};
