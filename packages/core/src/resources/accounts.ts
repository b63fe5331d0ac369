import { P } from '../privileges.ts';
import { PART2_PAGE_SIZES, type ResourceDef } from '../resource.ts';
import { boolCol, boolFld, col, dateCol, fld, floatFld, idCol, textCol, textFld } from './build.ts';
import { COMMON_LABELS as C, labels } from './labels.ts';

/**
 * Customer accounts (spec part 2 §3). The balance is stored in cents and shown and entered in
 * dollars (the hook's virtual column); `locIds` is the loc_ids column under the spec's name; the
 * hook keeps users kept to some sites to accounts valid at one of their sites or at every site.
 */
export const accounts: ResourceDef = {
  key: 'accounts',
  labels: labels(['Accounts', '帳戶'], {
    acc_id: ['Account ID', '帳戶編號'],
    first_name: ['First Name', '名字'],
    last_name: ['Last Name', '姓氏'],
    mobile_no: ['Mobile No.', '手機號碼'],
    email: ['Email', '電郵'],
    acc_bal: ['Balance ($)', '餘額（$）'],
    hkid: ['HKID (first 3 characters)', '身份證號碼（首 3 個字元）'],
    birthday: ['Birthday (yyyy-MM-dd)', '出生日期（yyyy-MM-dd）'],
    acc_status: ['Active', '啟用'],
    default_lang: ['Default Language', '預設語言'],
    tnc_flag: ['Accepted Terms', '已接受條款'],
    rfid_cards: ['RFID Cards', 'RFID 卡號'],
    address: ['Address', '地址'],
    reg_dttm: ['Registered At', '登記時間'],
    car_reg_no: ['Car Registration No.', '車牌號碼'],
    locIds: ['Sites (none = every site)', '充電站（不選 = 所有充電站）'],
    master_flag: ['Master Account', '主帳戶'],
    lupd_dttm: C.lupd_dttm,
  }),
  table: 'accounts',
  idField: 'acc_id',
  titleField: 'mobile_no',
  asOption: { label: ['first_name', 'last_name'], detail: 'mobile_no' },
  softDelete: true,
  columns: [
    idCol('acc_id'),
    textCol('first_name'),
    textCol('last_name'),
    textCol('mobile_no'),
    textCol('email', { hiddenInList: true }),
    col('acc_bal', 'number', 'float', { sortable: true, decimals: 2 }),
    textCol('hkid', { hiddenInList: true }),
    textCol('birthday', { hiddenInList: true, filter: undefined }),
    boolCol('acc_status'),
    textCol('default_lang', { hiddenInList: true }),
    boolCol('tnc_flag', { hiddenInList: true }),
    textCol('rfid_cards'),
    textCol('address', { hiddenInList: true }),
    dateCol('reg_dttm'),
    textCol('car_reg_no'),
    col('locIds', 'enum', 'intArray', { options: 'cp_locs', filter: 'multiselect' }),
    boolCol('master_flag', { privileges: [P.MASTER_FLAG] }),
    dateCol('lupd_dttm', { viewOnly: true }),
  ],
  fields: [
    textFld('first_name', { maxLength: 100 }),
    textFld('last_name', { maxLength: 100 }),
    textFld('mobile_no', { required: true, maxLength: 20 }),
    fld('email', 'email', 'text', { maxLength: 255 }),
    floatFld('acc_bal', { default: 0, min: -99_999_999, max: 99_999_999 }),
    // Longer than 3 is refused by the hook with its own message, not cut: a full HKID must never be stored.
    textFld('hkid', { maxLength: 20 }),
    textFld('birthday', { maxLength: 10 }),
    boolFld('acc_status', { default: 1 }),
    textFld('default_lang', { maxLength: 10 }),
    boolFld('tnc_flag', { default: 0 }),
    fld('rfid_cards', 'textarea', 'text', { maxLength: 20000 }),
    fld('address', 'textarea', 'text', { maxLength: 1000 }),
    textFld('car_reg_no', { maxLength: 20 }),
    fld('locIds', 'multiselect', 'intArray', { options: 'cp_locs' }),
    boolFld('master_flag', { default: 0, privileges: [P.MASTER_FLAG] }),
  ],
  defaultSort: { field: 'acc_id', order: 'desc' },
  // The spec's option calls ask for enabled records with enable_flag=1.
  paramAliases: { enable_flag: 'acc_status' },
  pageSizes: PART2_PAGE_SIZES,
  actions: ['create', 'edit', 'view', 'delete', 'excel'],
};
