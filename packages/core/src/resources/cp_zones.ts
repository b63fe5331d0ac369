import type { ResourceDef } from '../resource.ts';
import { dateCol, idCol, intCol, intFld, selectCol, selectFld, textCol, textFld } from './build.ts';
import { COMMON_LABELS as C, labels } from './labels.ts';

export const cp_zones: ResourceDef = {
  key: 'cp_zones',
  labels: labels(['Zones', '區域'], {
    zone_id: ['Zone ID', '區域編號'],
    loc_id: C.loc_id,
    name: ['Zone Name', '區域名稱（英文）'],
    name_chi: ['Zone Name (Chinese)', '區域名稱（中文）'],
    max_physical_current_limit: ['Max. Physical Current Limit', '最大實體電流上限'],
    lupd_dttm: C.lupd_dttm,
  }),
  table: 'cp_zones',
  idField: 'zone_id',
  // The English name is optional (the spec's zone has only name_chi): English readers see name_chi where it is blank.
  asOption: { label: { en: 'name', 'zh-TW': 'name_chi' }, qualifiedBy: 'loc_id' },
  titleField: 'name',
  site: { column: 'loc_id' },
  columns: [
    idCol('zone_id'),
    selectCol('loc_id', 'cp_locs'),
    textCol('name'),
    textCol('name_chi'),
    intCol('max_physical_current_limit'),
    dateCol('lupd_dttm'),
  ],
  fields: [
    selectFld('loc_id', 'cp_locs', { required: true, lockedAfterCreate: true }),
    textFld('name'),
    textFld('name_chi', { required: true }),
    intFld('max_physical_current_limit', { required: true, min: 0, max: 100000, lockedAfterCreate: true }),
  ],
  actions: ['create', 'edit', 'view', 'delete', 'excel'],
};
