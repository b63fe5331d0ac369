import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { editPrivilege, readPrivilege } from '@ev/core';
import { requirePrivileges } from '../auth/guard.ts';
import type { AuthUser } from '../auth/session.ts';
import type { Sql } from '../db/client.ts';
import { badRequest, notFound } from '../http/errors.ts';
import { idParams, successText } from '../http/schema.ts';
import { writeAudit } from '../resources/audit.ts';
import type { AppliedState, OpeningHoursScheduler } from './scheduler.ts';

const READ = readPrivilege('opening_hour');
const EDIT = editPrivilege('opening_hour');
// JSON numbers, not strings (recordId coerces, for paths and queries).
const bodyId = z.number().int().positive().max(2_147_483_647);
const cpIdList = z.array(bodyId).max(20_000);
const AssignBody = z.strictObject({ openingHourId: bodyId, cpIds: cpIdList });
const TestBody = z.strictObject({ cpIds: cpIdList.min(1).max(500) });
const DaysBody = z.strictObject({
  weekday: z.array(z.number().int().min(1).max(7)).max(7),
  date_list: z.array(z.iso.date({ error: 'format_error' })).max(1000),
});

const flag = z.union([z.literal(0), z.literal(1)]);
/** GET /cp_opening_hour/{id}: every charger the user sees, assigned 1 when on this opening hour. */
const ChecklistAnswer = z.object({
  openingHourId: z.number(),
  cpIds: z.array(z.number()),
  dataset: z.object({
    content: z.array(z.object({ cp_id: z.number(), cp_no: z.string(), loc_id: z.number().nullable(), opening_hour_id: z.number().nullable(), assigned: flag })),
    totalElements: z.number(),
    totalPages: z.number(),
  }),
});
/** POST /cp_opening_hour/test: times are YYYY-MM-DD HH:mm:ss in timeZone; a charger without opening hours is open. */
const TestAnswer = z.object({
  status: z.literal('success'),
  timeZone: z.string(),
  now: z.string(),
  dataset: z.object({
    content: z.array(z.object({
      cp_id: z.number(),
      cp_no: z.string(),
      opening_hour_id: z.number().nullable(),
      name: z.string().nullable(),
      open: flag,
      next_change: z.string().nullable().describe('null: it stays so'),
      applied_state: z.enum(['open', 'closed']).nullable().describe('What the scheduler last applied to the charger'),
      online: z.number(),
    })),
  }),
});
const DaysAnswer = z.object({ status: z.literal('success'), data: z.object({ weekday: z.array(z.number()), date_list: z.array(z.string()) }) });
/** The assignment answers the text Success, as the spec's call does. */

/** The chargers this user may see (their sites, not in trash), with their opening hour. */
async function visibleChargers(sql: Sql, user: AuthUser, cpIds?: number[]) {
  return sql.query<{ cp_id: number; cp_no: string; loc_id: number | null; opening_hour_id: number | null; applied_state: AppliedState | null; online_flag: number }>(
    `SELECT p.cp_id, p.cp_no, p.loc_id, c.opening_hour_id, c.applied_state, p.online_flag
       FROM cps p LEFT JOIN cp_opening_hour c ON c.cp_id = p.cp_id
      WHERE p.deleted_at IS NULL AND ($1::boolean OR p.loc_id = ANY($2::int[])) AND ($3::int[] IS NULL OR p.cp_id = ANY($3::int[]))
      ORDER BY p.cp_no`,
    [user.allSites, user.siteIds, cpIds ?? null],
  );
}

/** Every id must be a charger the user may see: an unknown one is invalid, one of another site not permitted. */
async function checkChargers(sql: Sql, user: AuthUser, cpIds: number[]) {
  const seen = await visibleChargers(sql, user, cpIds);
  const missing = cpIds.filter((id) => !seen.some((c) => c.cp_id === id));
  if (missing.length) {
    const [{ n }] = await sql.query(`SELECT count(*)::int AS n FROM cps WHERE cp_id = ANY($1::int[]) AND deleted_at IS NULL`, [missing]);
    throw badRequest(`Chargers not available: ${missing.join(', ')}`, { cpIds: n > 0 ? 'not_permitted' : 'invalid' });
  }
  return seen;
}

async function openingHour(sql: Sql, id: number) {
  const [row] = await sql.query(`SELECT * FROM opening_hour WHERE opening_hour_id = $1 AND deleted_at IS NULL`, [id]);
  if (!row) throw notFound(`opening_hour ${id} does not exist`);
  return row;
}

/** YYYY-MM-DD HH:mm:ss of an instant in the app's time zone (as the API shows datetimes). */
function wallClock(at: Date, timeZone: string): string {
  return at.toLocaleString('sv-SE', { timeZone, hourCycle: 'h23' }).slice(0, 19);
}

/**
 * Spec §7: the opening hour view's charger checklist (GET/POST /cp_opening_hour), the dry run
 * (POST /cp_opening_hour/test), and the weekday and date editor (PUT /opening_hour_days/{id}).
 */
export function openingHourRoutes(fastify: FastifyInstance, scheduler: OpeningHoursScheduler): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get('/api/cp_opening_hour/:id', { schema: { params: idParams, response: { 200: ChecklistAnswer } }, config: { doc: { summary: 'The chargers the user sees, ticked when on this opening hour', privileges: [READ] } } }, async (req) => {
    const user = requirePrivileges(req, READ);
    const { id } = req.params;
    await openingHour(app.db, id);
    const chargers = await visibleChargers(app.db, user);
    const content = chargers.map((c) => ({ cp_id: c.cp_id, cp_no: c.cp_no, loc_id: c.loc_id, opening_hour_id: c.opening_hour_id, assigned: c.opening_hour_id === id ? (1 as const) : (0 as const) }));
    return { openingHourId: id, cpIds: content.filter((c) => c.assigned).map((c) => c.cp_id), dataset: { content, totalElements: content.length, totalPages: 1 } };
  });

  // cpIds is the whole set among the chargers this user may see; chargers of other sites keep theirs.
  app.post('/api/cp_opening_hour', { schema: { body: AssignBody, response: { 200: successText } }, config: { doc: { summary: 'Set the chargers of an opening hour (cpIds: the whole set)', privileges: [EDIT] } } }, async (req, reply) => {
    const user = requirePrivileges(req, EDIT);
    const { openingHourId, cpIds } = req.body;
    const wanted = [...new Set(cpIds)];
    const { added, removed } = await app.db.tx(async (sql) => {
      await openingHour(sql, openingHourId);
      await checkChargers(sql, user, wanted);
      const before = (await visibleChargers(sql, user)).filter((c) => c.opening_hour_id === openingHourId);
      const removed = before.filter((c) => !wanted.includes(c.cp_id));
      await sql.query(`DELETE FROM cp_opening_hour WHERE opening_hour_id = $1 AND cp_id = ANY($2::int[])`, [openingHourId, removed.map((c) => c.cp_id)]);
      // A charger moving from other hours keeps what was applied to it: the scheduler compares with that.
      await sql.query(
        `INSERT INTO cp_opening_hour (cp_id, opening_hour_id) SELECT unnest($2::int[]), $1
           ON CONFLICT (cp_id) DO UPDATE SET opening_hour_id = EXCLUDED.opening_hour_id`,
        [openingHourId, wanted],
      );
      const added = wanted.filter((id) => !before.some((c) => c.cp_id === id));
      await writeAudit(sql, user, {
        action: 'UPDATE', target: 'opening_hour', targetId: openingHourId, remark: 'charger assignment',
        oldData: { cpIds: before.map((c) => c.cp_id) }, newData: { cpIds: wanted },
      });
      return { added, removed };
    });
    // After the commit, not awaited: a charger's answer may take its timeout.
    void scheduler.reconcile(added);
    void scheduler.release(removed.filter((c) => c.applied_state === 'closed').map((c) => c.cp_id));
    return reply.type('text/plain; charset=utf-8').send('Success');
  });

  app.post('/api/cp_opening_hour/test', { schema: { body: TestBody, response: { 200: TestAnswer } }, config: { doc: { summary: 'Which of these chargers are open now', privileges: [READ] } } }, async (req) => {
    const user = requirePrivileges(req, READ);
    const { cpIds } = req.body;
    const chargers = await checkChargers(app.db, user, [...new Set(cpIds)]);
    const rules = await app.db.query(
      `SELECT * FROM opening_hour WHERE opening_hour_id = ANY($1::int[]) AND deleted_at IS NULL`,
      [chargers.map((c) => c.opening_hour_id).filter((id) => id !== null)],
    );
    const content = chargers.map((c) => {
      const rule = rules.find((r) => r.opening_hour_id === c.opening_hour_id);
      const state = scheduler.stateOf(rule as never);
      return {
        cp_id: c.cp_id, cp_no: c.cp_no, opening_hour_id: rule ? c.opening_hour_id : null, name: rule?.name ?? null,
        open: state.open ? (1 as const) : (0 as const), next_change: state.nextChange && wallClock(state.nextChange, scheduler.timeZone),
        applied_state: c.applied_state, online: c.online_flag,
      };
    });
    return { status: 'success' as const, timeZone: scheduler.timeZone, now: wallClock(scheduler.now(), scheduler.timeZone), dataset: { content } };
  });

  app.put('/api/opening_hour_days/:id', { schema: { params: idParams, body: DaysBody, response: { 200: DaysAnswer } }, config: { doc: { summary: 'Set the weekdays and dates of an opening hour', privileges: [EDIT] } } }, async (req) => {
    const user = requirePrivileges(req, EDIT);
    const { id } = req.params;
    const body = req.body;
    const weekday = [...new Set(body.weekday)].sort();
    const dates = [...new Set(body.date_list)].sort();
    await app.db.tx(async (sql) => {
      const old = await openingHour(sql, id);
      await sql.query(`UPDATE opening_hour SET weekday = $2, date_list = $3, lupd_dttm = now() WHERE opening_hour_id = $1`, [id, weekday, dates]);
      await writeAudit(sql, user, {
        action: 'UPDATE', target: 'opening_hour', targetId: id, remark: 'days',
        oldData: { weekday: old.weekday, date_list: old.date_list }, newData: { weekday, date_list: dates },
      });
    });
    app.bus.emit('resourceChanged', { key: 'opening_hour', action: 'UPDATE', id, changed: ['weekday', 'date_list'] });
    return { status: 'success' as const, data: { weekday, date_list: dates } };
  });
}
