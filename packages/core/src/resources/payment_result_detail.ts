import { P } from '../privileges.ts';
import { PART2_PAGE_SIZES, type ResourceDef } from '../resource.ts';
import { boolCol, col, dateCol, floatCol, idCol, intCol, textCol } from './build.ts';
import { labels } from './labels.ts';

/**
 * Every attempt to collect an RSR's payment (spec part 2 §3, §4): the automatic one when the RSR
 * ends Unsettled, staff retries of a failed one (GET /api/payment_result_detail/retry/{id}) and
 * manual settlement. View-only; the amount is stored in cents and shown in dollars. Seen by users
 * of the RSR charger's site (the server's hook); rsr_id links to the RSR.
 */
export const payment_result_detail: ResourceDef = {
  key: 'payment_result_detail',
  labels: labels(['Payment Results', '付款結果'], {
    id: ['ID', '編號'],
    resultId: ['Payment ID', '付款編號'],
    rsr_id: ['RSR ID', '遙距充電請求編號'],
    paymentStatus: ['Payment Status', '付款狀態'],
    referenceMemberId: ['Member ID', '會員編號'],
    paymentType: ['Payment Type', '付款類型'],
    amount: ['Amount ($)', '金額（$）'],
    startTime: ['Start Time', '開始時間'],
    endTime: ['End Time', '結束時間'],
    autoPaymentExpiredTime: ['Attempt Expires At', '付款嘗試逾時時間'],
    gracingPeriodEndDttm: ['Grace Period End', '寬限期結束時間'],
    actualFinishedTime: ['Actual Finished Time', '實際完成時間'],
    penaltyDuration: ['Penalty Duration (min)', '罰款時長（分鐘）'],
    point: ['Points', '積分'],
    redeemVoucherSessions: ['Voucher Sessions', '電子優惠券節數'],
    status: ['Status', '狀態'],
    actionType: ['Action Type', '操作類型'],
    requestReference: ['Request Reference', '請求參考編號'],
    transactionReference: ['Transaction Reference', '交易參考編號'],
    gatewayMessage: ['Gateway Reason', '付款閘道原因'],
    creDttm: ['Created At', '建立時間'],
    lupdDttm: ['Last Updated', '最後更新時間'],
    currentUnitSession: ['Current Unit Session', '目前單位節數'],
    retryable: ['Retry Allowed', '可重試'],
    shkOrderReferenceNum: ['SHK Order Reference', 'SHK 訂單參考編號'],
    shkHeader: ['SHK Header', 'SHK 標頭'],
  }),
  table: 'payment_result_detail',
  idField: 'id',
  columns: [
    idCol('id'),
    intCol('resultId', { filter: 'select', hiddenInList: true }),
    col('rsr_id', 'link', 'int', { sortable: true, filter: 'select', linkTo: 'cp_rsr' }),
    col('paymentStatus', 'enum', 'text', { sortable: true, filter: 'select', options: 'payment_result_status' }),
    textCol('referenceMemberId'),
    col('paymentType', 'enum', 'text', { sortable: true, filter: 'select', options: 'payment_type' }),
    floatCol('amount', { decimals: 2 }),
    dateCol('startTime', { hiddenInList: true }),
    dateCol('endTime', { hiddenInList: true }),
    dateCol('autoPaymentExpiredTime', { hiddenInList: true }),
    dateCol('gracingPeriodEndDttm', { hiddenInList: true }),
    dateCol('actualFinishedTime', { hiddenInList: true }),
    intCol('penaltyDuration', { hiddenInList: true }),
    intCol('point', { hiddenInList: true }),
    intCol('redeemVoucherSessions', { hiddenInList: true }),
    col('status', 'enum', 'text', { sortable: true, filter: 'select', options: 'payment_detail_status' }),
    col('actionType', 'enum', 'text', { sortable: true, filter: 'select', options: 'payment_action_type' }),
    textCol('requestReference', { hiddenInList: true }),
    textCol('transactionReference'),
    // Why the gateway refused (spec part 2 §8 shows only the code): what staff need before a retry or a manual settlement.
    textCol('gatewayMessage', { filter: undefined, sortable: false }),
    dateCol('creDttm'),
    dateCol('lupdDttm', { hiddenInList: true }),
    intCol('currentUnitSession', { hiddenInList: true }),
    // Whether the Retry button applies (spec §4: Error, AutoPay, its payment Unsettled, not retried yet).
    boolCol('retryable', { viewOnly: true, filter: undefined, sortable: false }),
    textCol('shkOrderReferenceNum', { privileges: [P.CST_DEBUG], hiddenInList: true }),
    textCol('shkHeader', { privileges: [P.CST_DEBUG], hiddenInList: true }),
  ],
  fields: [],
  defaultSort: { field: 'id', order: 'desc' },
  readOnly: true,
  pageSizes: PART2_PAGE_SIZES,
  actions: ['view', 'excel'],
};
