import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  editPrivilege, LMS_MODES, minLockedToMax, readPrivilege, type LmsInfo, type LmsInfoAnswer, type LmsMode, type ZoneLmsEntry,
  type ZoneLmsProfilesAnswer,
} from '@ev/core';
import { currentUser, requirePrivileges } from '../auth/guard.ts';
import type { AuthUser } from '../auth/session.ts';
import type { Sql } from '../db/client.ts';
import { badRequest, forbidden, notFound } from '../http/errors.ts';
import { recordId } from '../http/schema.ts';
import { writeAudit } from '../resources/audit.ts';

const INT_LIMIT = 2_147_483_647;
const current = z.int().min(-INT_LIMIT).max(INT_LIMIT);

/** Each entry may come back as GET answered it (zone names, limit): those are ignored. */
const Entry = z.strictObject({
  zone_id: z.int().positive().max(INT_LIMIT),
  zone_max_available_current: current,
  max_charging_current: current,
  min_charging_current: current.nullish(),
  lms_profile_id: z.int().optional(),
  zone_name: z.string().nullish(),
  zone_name_en: z.string().nullish(),
  max_physical_current_limit: z.number().nullish(),
});
const Body = z.strictObject({
  lms_profile_id: z.int().positive().max(INT_LIMIT),
  zones: z.array(Entry).max(1000),
});

// The answers, typed against core's (what the portal reads): a field added, dropped or made nullable there fails to compile here.
const amps = z.number().nullable();
const ZoneEntry = z.object({
  zone_id: z.number(),
  zone_name: z.string(),
  zone_name_en: z.string().nullable(),
  max_physical_current_limit: z.number(),
  zone_max_available_current: amps,
  max_charging_current: amps,
  min_charging_current: amps,
}) satisfies z.ZodType<ZoneLmsEntry>;
const ZoneDataset = z.object({ content: z.array(ZoneEntry), totalElements: z.number(), totalPages: z.number() });
const ZoneEntriesAnswer = z.object({
  lms_profile_id: z.number(),
  mode: z.enum(LMS_MODES),
  cp_loc: z.number(),
  dataset: ZoneDataset,
}) satisfies z.ZodType<ZoneLmsProfilesAnswer>;
const SavedAnswer = z.object({ status: z.literal('success'), data: z.object({ dataset: ZoneDataset }) });
const InfoSchema = z.object({
  mode: z.record(z.string(), z.enum([...LMS_MODES, 'UNKNOWN'])).describe('loc_id → its profile\'s mode, UNKNOWN without a live profile'),
  cp_locs: z.array(z.object({ loc_id: z.number(), address: z.string(), address_chi: z.string().nullable(), lms_profile_id: z.number().nullable() })),
  cp_zones: z.array(z.object({
    zone_id: z.number(),
    loc_id: z.number(),
    name: z.string().nullable(),
    name_chi: z.string(),
    max_physical_current_limit: z.number(),
    zone_max_available_current: amps,
    max_charging_current: amps,
    min_charging_current: amps,
  })),
  cps: z.array(z.object({ cp_id: z.number(), cp_no: z.string(), name: z.string(), loc_id: z.number(), zone_id: z.number().nullable(), enable_flag: z.number() })),
  relation: z.object({
    loc: z.record(z.string(), z.object({ zones: z.array(z.number()), cps: z.array(z.number()) })).describe('loc_id → its zone and charger ids'),
  }),
  profile: z.object({
    location: z.record(z.string(), z.object({ lms_profile_id: z.number(), name: z.string(), mode: z.enum(LMS_MODES) })).describe('loc_id → its profile (absent without one)'),
  }),
}) satisfies z.ZodType<LmsInfo>;
const InfoAnswer = z.object({ lms_info: InfoSchema }) satisfies z.ZodType<LmsInfoAnswer>;

interface Profile {
  lms_profile_id: number;
  cp_loc: number;
  mode: LmsMode;
}

/** The live profile within the user's sites: 404 when there is none, 403 when it is another site's. */
async function profileOf(sql: Sql, id: number, user: AuthUser, lock = false): Promise<Profile> {
  const [p] = await sql.query<Profile>(
    `SELECT lms_profile_id, cp_loc, mode FROM lms_profiles WHERE lms_profile_id = $1 AND deleted_at IS NULL${lock ? ' FOR UPDATE' : ''}`,
    [id],
  );
  if (!p) throw notFound(`lms_profiles ${id} does not exist`);
  if (!user.allSites && !user.siteIds.includes(p.cp_loc)) throw forbidden();
  return p;
}

/** One row per zone of the profile's site, its entry's currents or nulls. */
async function zoneEntries(sql: Sql, p: Profile): Promise<ZoneLmsEntry[]> {
  return sql.query<ZoneLmsEntry>(
    `SELECT z.zone_id, z.name_chi AS zone_name, z.name AS zone_name_en, z.max_physical_current_limit,
            e.zone_max_available_current, e.max_charging_current, e.min_charging_current
       FROM cp_zones z LEFT JOIN zone_lms_profiles e ON e.zone_id = z.zone_id AND e.lms_profile_id = $1
      WHERE z.loc_id = $2 ORDER BY z.name_chi, z.zone_id`,
    [p.lms_profile_id, p.cp_loc],
  );
}

type Entries = z.output<typeof Body>['zones'];

/**
 * The zone rules of spec part 1 §4–§5, per row (`zones.{i}.{field}`): the zone is the site's and
 * listed once; 0 < zone max ≤ physical limit; 0 < min ≤ max ≤ zone max; in QUEUEING min = max.
 */
function checkEntries(entries: Entries, p: Profile, zones: Map<number, number>): { zone_id: number; zmax: number; max: number; min: number }[] {
  const fields: Record<string, string> = {};
  const seen = new Set<number>();
  const rows = entries.map((e, i) => {
    const at = (f: string, key: string) => (fields[`zones.${i}.${f}`] ??= key);
    const limit = zones.get(e.zone_id);
    if (e.lms_profile_id !== undefined && e.lms_profile_id !== p.lms_profile_id) at('lms_profile_id', 'invalid');
    if (limit === undefined) at('zone_id', 'invalid');
    else if (seen.has(e.zone_id)) at('zone_id', 'duplicate');
    seen.add(e.zone_id);
    const zmax = e.zone_max_available_current;
    const max = e.max_charging_current;
    const min = minLockedToMax(p.mode) ? max : e.min_charging_current;
    // Each bound is checked against the one above it only when that one is itself valid: one error per mistake.
    if (zmax <= 0) at('zone_max_available_current', 'min');
    else if (limit !== undefined && zmax > limit) at('zone_max_available_current', 'max');
    if (max <= 0) at('max_charging_current', 'min');
    else if (max > zmax && zmax > 0) at('max_charging_current', 'max');
    if (min === null || min === undefined) at('min_charging_current', 'required');
    else if (min <= 0) at('min_charging_current', 'min');
    else if (min > max && max > 0) at('min_charging_current', 'max');
    return { zone_id: e.zone_id, zmax, max, min: min ?? 0 };
  });
  if (Object.keys(fields).length) throw badRequest(Object.entries(fields).map(([k, v]) => `${k}: ${v}`), fields);
  return rows;
}

/** lms_info: for the LMS dashboard and the profile screens alike. */
function requireLmsReader(req: FastifyRequest): AuthUser {
  const user = currentUser(req);
  const any = [readPrivilege('lms_profiles'), readPrivilege('lms/dashboard')];
  if (!any.some((p) => user.privileges.has(p))) throw forbidden(any[0]);
  return user;
}

async function lmsInfo(sql: Sql, user: AuthUser): Promise<LmsInfo> {
  const sites = await sql.query<LmsInfo['cp_locs'][number]>(
    `SELECT loc_id, address, address_chi, lms_profile_id FROM cp_locs
      WHERE enable_lms = 1 AND deleted_at IS NULL${user.allSites ? '' : ' AND loc_id = ANY($1::int[])'} ORDER BY loc_id`,
    user.allSites ? [] : [user.siteIds],
  );
  const ids = sites.map((s) => s.loc_id);
  const [profiles, zones, cps] = await Promise.all([
    sql.query<{ loc_id: number; lms_profile_id: number; name: string; mode: LmsMode }>(
      `SELECT l.loc_id, p.lms_profile_id, p.name, p.mode FROM cp_locs l
         JOIN lms_profiles p ON p.lms_profile_id = l.lms_profile_id AND p.cp_loc = l.loc_id AND p.deleted_at IS NULL
        WHERE l.loc_id = ANY($1::int[])`,
      [ids],
    ),
    sql.query<LmsInfo['cp_zones'][number]>(
      `SELECT z.zone_id, z.loc_id, z.name, z.name_chi, z.max_physical_current_limit,
              e.zone_max_available_current, e.max_charging_current, e.min_charging_current
         FROM cp_zones z JOIN cp_locs l ON l.loc_id = z.loc_id
         LEFT JOIN zone_lms_profiles e ON e.zone_id = z.zone_id AND e.lms_profile_id = l.lms_profile_id
        WHERE z.loc_id = ANY($1::int[]) ORDER BY z.loc_id, z.zone_id`,
      [ids],
    ),
    sql.query<LmsInfo['cps'][number]>(
      `SELECT cp_id, cp_no, name, loc_id, zone_id, enable_flag FROM cps
        WHERE deleted_at IS NULL AND loc_id = ANY($1::int[]) ORDER BY loc_id, cp_no`,
      [ids],
    ),
  ]);
  const info: LmsInfo = { mode: {}, cp_locs: sites, cp_zones: zones, cps, relation: { loc: {} }, profile: { location: {} } };
  for (const id of ids) {
    info.mode[id] = 'UNKNOWN';
    info.relation.loc[id] = { zones: [], cps: [] };
  }
  for (const { loc_id, ...profile } of profiles) {
    info.mode[loc_id] = profile.mode;
    info.profile.location[loc_id] = profile;
  }
  for (const z of zones) info.relation.loc[z.loc_id].zones.push(z.zone_id);
  for (const c of cps) info.relation.loc[c.loc_id].cps.push(c.cp_id);
  return info;
}

/**
 * The zone entries of an LMS profile (spec part 1 §7: GET/PUT zone_lms_profiles) and the LMS
 * overview (GET /lms_info). Reading needs READ_LMS_PROFILES, writing EDIT_LMS_PROFILES; both are
 * kept to the user's sites.
 */
export function lmsProfileRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get('/api/zone_lms_profiles', { schema: { querystring: z.strictObject({ lms_profile_id: recordId }), response: { 200: ZoneEntriesAnswer } }, config: { doc: { summary: 'The zone entries of an LMS profile', privileges: [readPrivilege('lms_profiles')] } } }, async (req): Promise<ZoneLmsProfilesAnswer> => {
    const user = requirePrivileges(req, readPrivilege('lms_profiles'));
    const profile = await profileOf(app.db, req.query.lms_profile_id, user);
    const content = await zoneEntries(app.db, profile);
    return { ...profile, dataset: { content, totalElements: content.length, totalPages: 1 } };
  });

  app.put('/api/zone_lms_profiles', { schema: { body: Body, response: { 200: SavedAnswer } }, config: { doc: { summary: 'Set the zone entries of an LMS profile', privileges: [editPrivilege('lms_profiles')] } } }, async (req) => {
    const user = requirePrivileges(req, editPrivilege('lms_profiles'));
    const body = req.body;
    const id = body.lms_profile_id;
    const content = await app.db.tx(async (sql) => {
      // Locked: two saves of one profile apply one after the other, each against what the other left.
      const profile = await profileOf(sql, id, user, true);
      const before = await zoneEntries(sql, profile);
      const rows = checkEntries(body.zones, profile, new Map(before.map((z) => [z.zone_id, z.max_physical_current_limit])));
      const zoneIds = rows.map((r) => r.zone_id);
      await sql.query(`DELETE FROM zone_lms_profiles WHERE lms_profile_id = $1 AND NOT (zone_id = ANY($2::int[]))`, [id, zoneIds]);
      for (const r of rows) {
        await sql.query(
          `INSERT INTO zone_lms_profiles (lms_profile_id, zone_id, zone_max_available_current, max_charging_current, min_charging_current)
           VALUES ($1, $2, $3, $4, $5)
           ON CONFLICT (lms_profile_id, zone_id) DO UPDATE SET zone_max_available_current = EXCLUDED.zone_max_available_current,
             max_charging_current = EXCLUDED.max_charging_current, min_charging_current = EXCLUDED.min_charging_current, lupd_dttm = now()`,
          [id, r.zone_id, r.zmax, r.max, r.min],
        );
      }
      const after = await zoneEntries(sql, profile);
      await writeAudit(sql, user, { action: 'UPDATE', target: 'zone_lms_profiles', targetId: id, oldData: before, newData: after });
      return after;
    });
    // After the commit: load management reallocates the site's current from the new limits.
    app.bus.emit('resourceChanged', { key: 'zone_lms_profiles', action: 'UPDATE', id, changed: ['zones'] });
    return { status: 'success' as const, data: { dataset: { content, totalElements: content.length, totalPages: 1 } } };
  });

  app.get('/api/lms_info', { schema: { response: { 200: InfoAnswer } }, config: { doc: { summary: 'The LMS overview: sites with LMS and their profiles', anyPrivilege: [readPrivilege('lms_profiles'), readPrivilege('lms/dashboard')] } } }, async (req): Promise<LmsInfoAnswer> => {
    const user = requireLmsReader(req);
    return { lms_info: await lmsInfo(app.db, user) };
  });
}
