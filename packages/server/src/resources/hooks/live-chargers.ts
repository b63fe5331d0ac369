/** Live (not deleted) chargers matching a condition: sites and zones with chargers say so before a delete. */
export const liveChargers = `SELECT count(*)::int AS n FROM cps WHERE deleted_at IS NULL AND`;
