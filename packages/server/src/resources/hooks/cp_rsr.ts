import { badRequest } from '../../http/errors.ts';
import { nextRedeem, redeemsIn30Days } from '../../rsr/redeem.ts';
import { dollars, toCents } from './accounts.ts';
import type { ResourceHooks } from './types.ts';

/** The columns an RSR shows from its charger, site (its address in both languages: display 'message'), connector and bay. */
export const RSR_PLACE = {
  loc_address: `(SELECT jsonb_build_object('en', l.address, 'zh-TW', l.address_chi)::text FROM cps c JOIN cp_locs l ON l.loc_id = c.loc_id WHERE c.cp_id = t.cp_id)`,
  carpark_id: `coalesce(t.carpark_id, (SELECT b."cpLocId" FROM bay b WHERE b.id = t.bay_id))`,
  bay_name: `(SELECT coalesce(b."bayName", b."bayId") FROM bay b WHERE b.id = t.bay_id)`,
  cp_no: `(SELECT c.cp_no FROM cps c WHERE c.cp_id = t.cp_id)`,
  connector_name: `(SELECT coalesce(k.connector_name, k.connector_id::text) FROM cp_connectors k WHERE k.cp_id = t.cp_id AND k.connector_id = t.connector_id)`,
};

/**
 * RSRs: fees in dollars, the place names, the payment attempt linked, the debug redeem figures.
 * Only an UnderPenalty RSR that is not free is edited, and only its remarks, free flag and penalty:
 * a penalty typed in is kept when the session ends (penalty_mode Manual); free clears fee and penalty.
 */
export const hooks: ResourceHooks = {
  virtualColumns: {
    ...RSR_PLACE,
    charging_fee: dollars('charging_fee'),
    penalty_fee: dollars('penalty_fee'),
    payment_status_name: 't.payment_status',
    stop_type_name: 't.stop_type',
    uuid: 't.uuid::text',
    payment_detail_id: `(SELECT max(d.id) FROM payment_result_detail d WHERE d."resultId" = t.payment_result_id)`,
    next_available_redeem_date: nextRedeem('now()'),
    shk30day_redeem_count: redeemsIn30Days,
  },

  async beforeWrite({ old, mode }, data) {
    if (mode !== 'update' || !old || old.status !== 'UnderPenalty' || old.is_free === 'Y') {
      throw badRequest('Only an RSR under penalty that is not free can be edited', { status: 'not_editable' });
    }
    const cols = { ...data };
    toCents(cols, 'penalty_fee');
    if (cols.penalty_fee !== undefined && cols.penalty_fee !== null && Number(cols.penalty_fee) !== Number(old.penalty_fee)) cols.penalty_mode = 'Manual';
    if (cols.penalty_fee === null) delete cols.penalty_fee;
    if (cols.is_free === 'Y') Object.assign(cols, { charging_fee: 0, penalty_fee: 0 });
    return cols;
  },
};
