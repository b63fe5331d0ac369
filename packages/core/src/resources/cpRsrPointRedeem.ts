import { PART2_PAGE_SIZES, type ResourceDef } from '../resource.ts';
import { col, dateCol, fld, idCol, intCol, textCol } from './build.ts';
import { labels } from './labels.ts';
import { RSR_LABELS } from './cp_rsr.ts';

/**
 * The RSRs that earned or used points (spec part 2 §3): a member redeems at most the rate's
 * max_redeem_count times per redeem_period minutes, so each row says when its member may redeem
 * again as of its creation. Read from cp_rsr (point > 0 and neither failed nor cancelled: the server's hook); only the remarks are edited.
 */
export const cpRsrPointRedeem: ResourceDef = {
  key: 'cpRsrPointRedeem',
  labels: labels(['RSR Point Redemption', '遙距充電積分兌換'], {
    ...RSR_LABELS,
    next_available_redeem_date_from_create_date: ['Next Available Redeem Date', '下次可兌換日期'],
    remarks: ['Remarks', '備註'],
  }),
  table: 'cp_rsr',
  idField: 'rsr_id',
  site: { cpColumn: 'cp_id' },
  columns: [
    idCol('rsr_id'),
    textCol('external_account_id'),
    col('loc_address', 'message', 'text', { sortable: true }),
    textCol('carpark_id', { filter: undefined }),
    textCol('bay_name', { filter: undefined }),
    textCol('cp_no'),
    textCol('connector_name', { filter: undefined }),
    col('status', 'enum', 'text', { sortable: true, filter: 'select', options: 'rsr_status' }),
    intCol('max_charging_unit'),
    intCol('point'),
    dateCol('cre_dttm'),
    dateCol('next_available_redeem_date_from_create_date', { filter: undefined, sortable: false }),
    textCol('remarks', { filter: undefined, hiddenInList: true }),
  ],
  fields: [fld('remarks', 'textarea', 'text', { maxLength: 1000 })],
  defaultSort: { field: 'rsr_id', order: 'desc' },
  pageSizes: PART2_PAGE_SIZES,
  actions: ['edit', 'view', 'excel'],
};
