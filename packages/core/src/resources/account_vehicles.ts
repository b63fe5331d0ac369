import { PART2_PAGE_SIZES, type ResourceDef } from '../resource.ts';
import { P } from '../privileges.ts';
import { boolCol, boolFld, col, fld, idCol, selectCol, selectFld, textCol, textFld } from './build.ts';
import { COMMON_LABELS as C, labels } from './labels.ts';

/**
 * An account's vehicles. The monthly and daily figures are read-only virtual columns computed
 * from the account's sessions (hook); editing and deleting a row also need EDIT_ACCOUNT_VEHICLE.
 */
export const account_vehicles: ResourceDef = {
  key: 'account_vehicles',
  labels: labels(['Account Vehicles', '帳戶車輛'], {
    id: C.id,
    acc_id: ['Account', '帳戶'],
    cp: ['Charger', '充電樁'],
    cp_no: C.cp_no,
    car_reg_no: ['Car Registration No.', '車牌號碼'],
    rfid_cards: ['RFID Cards', 'RFID 卡號'],
    acc_status: ['Active', '啟用'],
    monthly_charging_time: ['Time This Month', '本月充電時間'],
    monthly_charged_energy: ['kWh This Month', '本月電量（kWh）'],
    daily_charging_time: ['Time Today', '今日充電時間'],
    daily_charged_energy: ['kWh Today', '今日電量（kWh）'],
  }),
  table: 'account_vehicles',
  idField: 'id',
  titleField: 'car_reg_no',
  softDelete: true,
  columns: [
    idCol('id'),
    selectCol('acc_id', 'accounts'),
    selectCol('cp', 'cps', { hiddenInList: true }),
    textCol('cp_no', { sortable: false, filter: undefined }),
    textCol('car_reg_no'),
    textCol('rfid_cards'),
    boolCol('acc_status'),
    col('monthly_charging_time', 'seconds', 'int'),
    col('monthly_charged_energy', 'float1000', 'int', { decimals: 3 }),
    col('daily_charging_time', 'seconds', 'int'),
    col('daily_charged_energy', 'float1000', 'int', { decimals: 3 }),
  ],
  fields: [
    selectFld('acc_id', 'accounts', { required: true }),
    selectFld('cp', 'cps'),
    textFld('car_reg_no', { required: true, maxLength: 20 }),
    fld('rfid_cards', 'textarea', 'text', { maxLength: 20000 }),
    boolFld('acc_status', { default: 1 }),
  ],
  defaultSort: { field: 'id', order: 'desc' },
  pageSizes: PART2_PAGE_SIZES,
  actions: ['create', 'edit', 'view', 'delete', 'excel'],
  rowActionPrivileges: [P.ACCOUNT_VEHICLE_ROW_ACTIONS],
};
