import { PART2_PAGE_SIZES, type ResourceDef } from '../resource.ts';
import { col, dateCol, fld, idCol, textCol, textFld } from './build.ts';
import { COMMON_LABELS as C, labels } from './labels.ts';

/**
 * A voucher (spec part 2 §3, §4): one member's free session(s) under a voucher campaign, until
 * its expiry date. Created (one by one or imported from Voucher.xlsx: POST /api/voucher/import)
 * and deleted only, never edited; a redeemed one stays. Its sites are its campaign's.
 */
export const voucher: ResourceDef = {
  key: 'voucher',
  labels: labels(['Vouchers', '電子券'], {
    id: C.id,
    memberId: ['Member ID', '會員編號'],
    campaignId: ['Campaign', '推廣活動'],
    voucherExpireDate: ['Expiry Date (yyyy-MM-dd)', '到期日（yyyy-MM-dd）'],
    rsrId: ['RSR ID', '遙距充電編號'],
    address: ['Sites', '充電站'],
    status: ['Status', '狀態'],
    creUserName: ['Created By', '建立者'],
    creDttm: C.cre_dttm,
    lupdDttm: C.lupd_dttm,
    deleteDttm: ['Deleted At', '刪除時間'],
    redeemDttm: ['Redeemed At', '兌換時間'],
  }),
  table: 'voucher',
  idField: 'id',
  columns: [
    idCol('id'),
    textCol('memberId'),
    col('campaignId', 'enum', 'int', { sortable: true, filter: 'select', options: 'campaign' }),
    textCol('voucherExpireDate', { filter: undefined }),
    col('rsrId', 'number', 'int', { sortable: true }),
    col('address', 'message', 'text'),
    col('status', 'enum', 'text', { sortable: true, filter: 'select', options: 'voucher_status' }),
    textCol('creUserName'),
    dateCol('creDttm'),
    dateCol('lupdDttm', { hiddenInList: true }),
    dateCol('deleteDttm', { hiddenInList: true }),
    dateCol('redeemDttm'),
  ],
  fields: [
    textFld('memberId', { required: true, maxLength: 100 }),
    fld('campaignId', 'select', 'int', { options: 'campaign', required: true, missingMessage: 'campaign_not_chosen' }),
    textFld('voucherExpireDate', { required: true, maxLength: 10 }),
  ],
  defaultSort: { field: 'id', order: 'desc' },
  softDelete: true,
  lockedWhen: { status: ['Redeemed'] },
  pageSizes: PART2_PAGE_SIZES,
  actions: ['create', 'view', 'delete', 'excel'],
};
