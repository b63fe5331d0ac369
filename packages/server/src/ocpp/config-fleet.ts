import { z } from 'zod';
import type { AuthUser } from '../auth/session.ts';
import type { Sql } from '../db/client.ts';
import { notFound } from '../http/errors.ts';
import { compare, ReadbackAnswer, templateFrom, type CurrentConfigRow, type StoredKey } from './config-readback.ts';

/**
 * The configuration fleet view (issue 29): one site's chargers, each one's keys as last read
 * (cp_config_keys) compared with its current configuration (cp_config, current = 1), the same
 * comparison as the charger view's read-back (config-readback.ts compare). Three queries whatever
 * the number of chargers.
 */

const FleetCharger = z.object({
  cpId: z.number(),
  cpNo: z.string(),
  name: z.string(),
  online: z.boolean(),
  since: z.iso.datetime().nullable().describe('Online since (online) or offline since (offline), when known'),
  hasConfig: z.boolean().describe('The charger has a current configuration to compare with'),
  readAt: z.iso.datetime().nullable().describe('When the charger was last read; null if never'),
  keysRead: z.number().describe('How many keys the last read stored'),
  drift: ReadbackAnswer.shape.drift,
  unknownKey: ReadbackAnswer.shape.unknownKey,
});
export const FleetAnswer = z.object({
  locId: z.number(),
  address: z.string(),
  address_chi: z.string().nullable(),
  chargers: z.array(FleetCharger),
  summary: z.object({
    chargers: z.number(),
    read: z.number().describe('Chargers read at least once'),
    neverRead: z.number(),
    withDrift: z.number().describe('Chargers whose last read differs from their configuration'),
    offline: z.number(),
  }),
});
export type Fleet = z.infer<typeof FleetAnswer>;

/** One charger of the site, with its current configuration when it has one. */
export interface SiteCharger extends Partial<CurrentConfigRow> {
  cp_id: number;
  cp_no: string;
  name: string;
  loc_id: number;
  enable_flag: number;
  double_use_flag: number;
  online_flag: number;
  online_since: Date | null;
  offline_since: Date | null;
  has_config: boolean;
}

interface Site {
  loc_id: number;
  address: string;
  address_chi: string | null;
}

const iso = (v: Date | string | null) => (v == null ? null : new Date(v).toISOString());

/** The site, if the user may see it: outside the user's sites it does not exist for them (as a charger, spec §8). */
export async function visibleSite(sql: Sql, user: AuthUser, locId: number): Promise<Site> {
  const [site] = await sql.query<Site>(`SELECT loc_id, address, address_chi FROM cp_locs WHERE loc_id = $1 AND deleted_at IS NULL`, [locId]);
  if (!site || (!user.allSites && !user.siteIds.includes(site.loc_id))) throw notFound('Site not found');
  return site;
}

/** The site's chargers (not deleted), by number, each with its current configuration. */
export function siteChargers(sql: Sql, locId: number): Promise<SiteCharger[]> {
  return sql.query<SiteCharger>(
    `SELECT c.cp_id, c.cp_no, c.name, c.loc_id, c.enable_flag, c.double_use_flag, c.online_flag, c.online_since, c.offline_since,
            k.config_json, k.last_sent, k.sent_dttm, k.cp_config_id IS NOT NULL AS has_config
       FROM cps c LEFT JOIN cp_config k ON k.cp_id = c.cp_id AND k.current = 1
      WHERE c.loc_id = $1 AND c.deleted_at IS NULL
      ORDER BY c.cp_no, c.cp_id`,
    [locId],
  );
}

/**
 * The site's drift: each charger's last read against its current configuration. `connected` says
 * whether this node holds the charger's connection (online_flag may lag a moment behind it).
 */
export async function siteDrift(sql: Sql, site: Site, connected: (cpId: number) => boolean): Promise<Fleet> {
  const chargers = await siteChargers(sql, site.loc_id);
  const keys = await sql.query<StoredKey & { cp_id: number }>(
    `SELECT k.cp_id, k.key, k.known, k.readonly, k.value, k.read_at
       FROM cp_config_keys k JOIN cps c ON c.cp_id = k.cp_id
      WHERE c.loc_id = $1 AND c.deleted_at IS NULL`,
    [site.loc_id],
  );
  const byCharger = new Map<number, StoredKey[]>();
  for (const k of keys) {
    const list = byCharger.get(k.cp_id);
    if (list) list.push(k);
    else byCharger.set(k.cp_id, [k]);
  }

  const rows = chargers.map((cp): Fleet['chargers'][number] => {
    const stored = byCharger.get(cp.cp_id) ?? [];
    const read = compare(stored, templateFrom(cp.has_config ? (cp as CurrentConfigRow) : undefined));
    const online = cp.online_flag === 1 || connected(cp.cp_id);
    return {
      cpId: cp.cp_id,
      cpNo: cp.cp_no,
      name: cp.name,
      online,
      since: iso(online ? cp.online_since : cp.offline_since),
      hasConfig: cp.has_config,
      readAt: read.readAt,
      keysRead: stored.length,
      drift: read.drift,
      unknownKey: read.unknownKey,
    };
  });
  const readOnes = rows.filter((r) => r.readAt);
  return {
    locId: site.loc_id,
    address: site.address,
    address_chi: site.address_chi,
    chargers: rows,
    summary: {
      chargers: rows.length,
      read: readOnes.length,
      neverRead: rows.length - readOnes.length,
      withDrift: rows.filter((r) => r.drift.length).length,
      offline: rows.filter((r) => !r.online).length,
    },
  };
}
