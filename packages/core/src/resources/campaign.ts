import { PART2_PAGE_SIZES, type ResourceDef } from '../resource.ts';
import { boolCol, boolFld, col, dateCol, fld, floatFld, idCol, intCol, intFld, textCol, textFld } from './build.ts';
import { COMMON_LABELS as C, labels } from './labels.ts';

/**
 * A campaign (spec part 2 §3, §4): a price per chargeable unit at some sites (or all) while its
 * rules pass (core pricing.ts campaignRulePasses). The fee is entered in dollars and stored in
 * cents. isVoucher is chosen on create: a voucher campaign's vouchers are handed out, so it and
 * its rules are fixed from then on (lockedWhen). Rules: the nested campaign_rule list of its view.
 */
export const campaign: ResourceDef = {
  key: 'campaign',
  labels: labels(['Campaigns', '推廣活動'], {
    id: C.id,
    externalCampaignId: ['External Campaign ID', '外部活動編號'],
    name: C.name,
    nameCHT: ['Name (Traditional Chinese)', '名稱（繁體中文）'],
    nameCHS: ['Name (Simplified Chinese)', '名稱（簡體中文）'],
    applicableTime: ['Applicable Time', '適用時間'],
    applicableTimeCHT: ['Applicable Time (Traditional Chinese)', '適用時間（繁體中文）'],
    applicableTimeCHS: ['Applicable Time (Simplified Chinese)', '適用時間（簡體中文）'],
    tnc: ['Terms and Conditions', '條款及細則'],
    tncCHT: ['Terms and Conditions (Traditional Chinese)', '條款及細則（繁體中文）'],
    tncCHS: ['Terms and Conditions (Simplified Chinese)', '條款及細則（簡體中文）'],
    fee: ['Fee per Unit ($)', '每單位收費（$）'],
    maxChargingUnit: ['Max Charging Units', '最多充電單位'],
    isAllCpLocFlag: ['All Sites', '所有充電站'],
    locIds: ['Sites', '充電站'],
    creUserName: ['Created By', '建立者'],
    isVoucher: ['Voucher Campaign', '電子券活動'],
    cre_dttm: C.cre_dttm,
    lupd_dttm: C.lupd_dttm,
  }),
  table: 'campaign',
  idField: 'id',
  titleField: 'name',
  // Vouchers are the one form that picks a campaign, and only a voucher campaign.
  asOption: { label: { en: 'name', 'zh-TW': 'nameCHT' }, only: { isVoucher: 1 } },
  columns: [
    idCol('id'),
    textCol('externalCampaignId', { hiddenInList: true }),
    textCol('name'),
    textCol('nameCHT'),
    textCol('nameCHS', { hiddenInList: true }),
    textCol('applicableTime', { hiddenInList: true }),
    textCol('applicableTimeCHT', { viewOnly: true }),
    textCol('applicableTimeCHS', { viewOnly: true }),
    textCol('tnc', { viewOnly: true }),
    textCol('tncCHT', { viewOnly: true }),
    textCol('tncCHS', { viewOnly: true }),
    col('fee', 'number', 'float', { sortable: true, decimals: 2 }),
    intCol('maxChargingUnit'),
    boolCol('isAllCpLocFlag'),
    col('locIds', 'enum', 'intArray', { options: 'cp_locs', filter: 'multiselect' }),
    boolCol('isVoucher'),
    textCol('creUserName'),
    dateCol('cre_dttm', { hiddenInList: true }),
    dateCol('lupd_dttm'),
  ],
  fields: [
    textFld('externalCampaignId'),
    textFld('name', { required: true }),
    textFld('nameCHT'),
    textFld('nameCHS'),
    textFld('applicableTime', { maxLength: 1000 }),
    textFld('applicableTimeCHT', { maxLength: 1000 }),
    textFld('applicableTimeCHS', { maxLength: 1000 }),
    // Long terms (spec §5: up to 10000 rows).
    fld('tnc', 'textarea', 'text', { maxLength: 200_000 }),
    fld('tncCHT', 'textarea', 'text', { maxLength: 200_000 }),
    fld('tncCHS', 'textarea', 'text', { maxLength: 200_000 }),
    floatFld('fee', { required: true, min: 0, max: 99_999_999 }),
    intFld('maxChargingUnit', { min: 1, max: 96 }),
    boolFld('isAllCpLocFlag', { default: 0 }),
    fld('locIds', 'multiselect', 'intArray', { options: 'cp_locs', disabledWhenSet: 'isAllCpLocFlag' }),
    boolFld('isVoucher', { default: 0, lockedAfterCreate: true }),
  ],
  defaultSort: { field: 'id', order: 'desc' },
  softDelete: true,
  lockedWhen: { isVoucher: [1] },
  pageSizes: PART2_PAGE_SIZES,
  actions: ['create', 'edit', 'view', 'delete', 'excel'],
};
