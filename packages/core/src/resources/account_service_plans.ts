import { PART2_PAGE_SIZES, type ResourceDef } from '../resource.ts';
import { col, floatFld, idCol, selectCol, selectFld, textCol, textFld } from './build.ts';
import { labels } from './labels.ts';

/**
 * An account's subscriptions to service plans. Dates are yyyy-MM-dd (end on or after start, checked
 * by the hook); plan_total is stored in cents and shown and entered in dollars.
 */
export const account_service_plans: ResourceDef = {
  key: 'account_service_plans',
  labels: labels(['Account Service Plans', '帳戶服務計劃'], {
    asp_id: ['ID', '編號'],
    start_date: ['Start Date (yyyy-MM-dd)', '開始日期（yyyy-MM-dd）'],
    end_date: ['End Date (yyyy-MM-dd)', '結束日期（yyyy-MM-dd）'],
    acc_id: ['Account', '帳戶'],
    plan_id: ['Service Plan', '服務計劃'],
    plan_total: ['Plan Total ($)', '計劃總額（$）'],
    cp_id: ['Charger', '充電樁'],
  }),
  table: 'account_service_plans',
  idField: 'asp_id',
  softDelete: true,
  columns: [
    idCol('asp_id'),
    textCol('start_date', { filter: undefined }),
    textCol('end_date', { filter: undefined }),
    selectCol('acc_id', 'accounts'),
    selectCol('plan_id', 'service_plans'),
    col('plan_total', 'number', 'float', { sortable: true, decimals: 2 }),
    selectCol('cp_id', 'cps'),
  ],
  fields: [
    selectFld('acc_id', 'accounts', { required: true }),
    selectFld('plan_id', 'service_plans', { required: true }),
    textFld('start_date', { required: true, maxLength: 10 }),
    textFld('end_date', { maxLength: 10 }),
    floatFld('plan_total', { default: 0, min: 0, max: 99_999_999 }),
    selectFld('cp_id', 'cps'),
  ],
  defaultSort: { field: 'asp_id', order: 'desc' },
  pageSizes: PART2_PAGE_SIZES,
  actions: ['create', 'edit', 'view', 'delete', 'excel'],
};
