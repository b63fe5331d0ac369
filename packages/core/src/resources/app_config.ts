import { PART2_PAGE_SIZES, type ResourceDef } from '../resource.ts';
import { col, dateCol, fld, idCol, textCol, textFld } from './build.ts';
import { COMMON_LABELS as C, labels } from './labels.ts';

/**
 * The application's settings, one row per key (home_screen …), the one place settings live. An
 * entry of authority Admin is changed only by holders of READ_APP_CONFIG_ADMIN (enforced by the
 * server hook); Everyone entries by EDIT_APP_CONFIG. Known keys are checked by the server and have
 * typed inputs in the portal (server settings.ts, web overrides/app_config.tsx).
 */
export const app_config: ResourceDef = {
  key: 'app_config',
  labels: labels(['App Settings', '應用程式設定'], {
    id: C.id,
    config_key: ['Setting', '設定項目'],
    config_value: ['Value', '設定值'],
    authority: ['Authority', '權限'],
    description: ['Description', '說明'],
    lupd_dttm: C.lupd_dttm,
  }),
  table: 'app_config',
  idField: 'id',
  titleField: 'config_key',
  defaultSort: { field: 'config_key', order: 'asc' },
  columns: [
    idCol('id'),
    textCol('config_key'),
    textCol('config_value'),
    col('authority', 'enum', 'text', { sortable: true, filter: 'select', options: 'app_config_authority' }),
    textCol('description'),
    dateCol('lupd_dttm'),
  ],
  fields: [
    textFld('config_key', { required: true, lockedAfterCreate: true, unique: 'already_exist', maxLength: 100 }),
    fld('config_value', 'textarea', 'text', { required: true, maxLength: 4000 }),
    fld('authority', 'select', 'text', { required: true, options: 'app_config_authority', default: 'Admin' }),
    fld('description', 'textarea', 'text', { maxLength: 1000 }),
  ],
  pageSizes: PART2_PAGE_SIZES,
  actions: ['create', 'edit', 'view'],
};
