import { PART2_PAGE_SIZES, type ResourceDef } from '../resource.ts';
import { idCol, textCol, textFld } from './build.ts';
import { COMMON_LABELS as C, labels } from './labels.ts';

/** The service plans an account may subscribe to (account_service_plans). */
export const service_plans: ResourceDef = {
  key: 'service_plans',
  labels: labels(['Service Plans', '服務計劃'], { plan_id: ['Plan ID', '計劃編號'], name: C.name }),
  table: 'service_plans',
  idField: 'plan_id',
  titleField: 'name',
  asOption: { label: 'name' },
  softDelete: true,
  columns: [idCol('plan_id'), textCol('name')],
  fields: [textFld('name', { required: true })],
  pageSizes: PART2_PAGE_SIZES,
  actions: ['create', 'edit', 'view', 'delete', 'excel'],
};
