import type { Sql } from '../db/client.ts';

/**
 * Redeems up to `max` of the member's Valid, unexpired vouchers of these campaigns for the RSR,
 * the soonest to expire first; answers how many. Locked so two starts never take the same voucher.
 */
export async function redeemVouchers(sql: Sql, rsrId: number, memberId: string, campaignIds: number[], max: number, today: string): Promise<number> {
  if (!campaignIds.length || max < 1) return 0;
  const taken = await sql.query(
    `UPDATE voucher SET status = 'Redeemed', "rsrId" = $1, "redeemDttm" = now(), lupd_dttm = now()
      WHERE id IN (SELECT id FROM voucher
                    WHERE "memberId" = $2 AND status = 'Valid' AND deleted_at IS NULL AND "campaignId" = ANY($3::int[])
                      AND "voucherExpireDate" >= $4::date
                    ORDER BY "voucherExpireDate", id LIMIT $5 FOR UPDATE SKIP LOCKED)
      RETURNING id`,
    [rsrId, memberId, campaignIds, today, max],
  );
  return taken.length;
}

/** Gives an RSR's vouchers back (it failed or was cancelled): Valid again, no RSR. */
export async function giveBackVouchers(sql: Sql, rsrId: number): Promise<void> {
  await sql.query(
    `UPDATE voucher SET status = 'Valid', "rsrId" = NULL, "redeemDttm" = NULL, lupd_dttm = now() WHERE "rsrId" = $1 AND status = 'Redeemed'`,
    [rsrId],
  );
}
