import type { ResourceDef } from '../resource.ts';
import { floatCol, floatFld, idCol, intCol, intFld, textCol, textFld } from './build.ts';
import { labels } from './labels.ts';

export const cp_pow: ResourceDef = {
  key: 'cp_pow',
  labels: labels(['Power Meter Models', '電錶型號'], {
    power_meter_type_id: ['Power Meter Model ID', '電錶型號編號'],
    name: ['Model Name', '型號名稱'],
    factor: ['Factor', '倍率'],
    rotation_value: ['Rotation Value', '循環值'],
  }),
  table: 'cp_pow',
  idField: 'power_meter_type_id',
  asOption: { label: 'name' },
  titleField: 'name',
  columns: [idCol('power_meter_type_id'), textCol('name'), floatCol('factor'), intCol('rotation_value')],
  fields: [
    textFld('name', { required: true, unique: 'already_exist' }),
    floatFld('factor', { required: true, default: 1 }),
    intFld('rotation_value', { required: true, default: 0, min: 0 }),
  ],
  pageSizes: [10, 20, 30, 40, 50, 60, 70, 80, 90, 100],
  defaultPageSize: 10,
  actions: ['create', 'edit', 'view', 'delete'],
};
