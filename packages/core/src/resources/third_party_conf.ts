import { PART2_PAGE_SIZES, type ResourceDef } from '../resource.ts';
import { col, dateCol, fld, idCol, textCol, textFld } from './build.ts';
import { COMMON_LABELS as C, labels } from './labels.ts';

/**
 * Keys of the mall and parking apps calling the external API (/api/external/v1). The secret is made
 * on the server and shown once: created through POST /api/third_party_conf (its own route and dialog,
 * hence no generic 'create' action), stored hashed, shown masked in `api_key` afterwards.
 */
export const third_party_conf: ResourceDef = {
  key: 'third_party_conf',
  labels: labels(['Third-party Access', '第三方存取'], {
    id: C.id,
    key_name: ['Key Name', '金鑰名稱'],
    app_id: ['App ID', '應用程式編號'],
    assigned: ['Assigned To', '分配給'],
    privilege_key: ['Privilege', '權限'],
    api_key: ['API Key', 'API 金鑰'],
    cre_dttm: C.cre_dttm,
    lupd_dttm: C.lupd_dttm,
  }),
  table: 'third_party_conf',
  idField: 'id',
  titleField: 'key_name',
  softDelete: true,
  defaultSort: { field: 'id', order: 'desc' },
  columns: [
    idCol('id'),
    textCol('key_name'),
    textCol('app_id'),
    textCol('assigned'),
    col('privilege_key', 'enum', 'text', { sortable: true, filter: 'select', options: 'third_party_privilege' }),
    col('api_key', 'text', 'text'),
    dateCol('cre_dttm'),
    dateCol('lupd_dttm', { hiddenInList: true }),
  ],
  fields: [
    textFld('key_name', { required: true, maxLength: 100 }),
    textFld('app_id', { required: true, maxLength: 64, unique: 'already_exist', lockedAfterCreate: true }),
    textFld('assigned', { maxLength: 255 }),
    fld('privilege_key', 'select', 'text', { options: 'third_party_privilege', required: true }),
  ],
  pageSizes: PART2_PAGE_SIZES,
  actions: ['edit', 'view', 'popView', 'delete', 'excel'],
};
