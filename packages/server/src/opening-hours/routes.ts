import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { editPrivilege, readPrivilege } from '@ev/core';
import { requirePrivileges } from '../auth/guard.ts';
import type { AuthUser } from '../auth/session.ts';
import type { Sql } from '../db/client.ts';
import { badRequest, notFound } from '../http/errors.ts';
import { parseBody } from '../http/parse.ts';
import { writeAudit } from '../resources/audit.ts';
import { parseId } from '../resources/engine.ts';
import { isDate } from './schedule.ts';
import type { OpeningHoursScheduler } from './scheduler.ts';

const READ = readPrivilege('opening_hour');
const EDIT = editPrivilege('opening_hour');
const cpIdList = z.array(z.number().int().positive().max(2_147_483_647)).max(20_000);
const AssignBody = z.strictObject({ openingHourId: z.number().int().positive().max(2_147_483_647), cpIds: cpIdList });
const TestBody = z.strictObject({ cpIds: cpIdList.min(1).max(500) });
const DaysBody = z.strictObject({
  weekday: z.array(z.number().int().min(1).max(7)).max(7),
  date_list: z.array(z.string().refine(isDate, { message: 'format_error' })).max(1000),
});

/** The chargers this user may see (their sites, not in trash), with their opening hour. */
async function visibleChargers(sql: Sql, user: AuthUser, cpIds?: number[]) {
  return sql.query<{ cp_id: number; cp_no: string; loc_id: number | null; opening_hour_id: number | null; applied_state: string | null; online_flag: number }>(
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
function wallClock(at: Date | null, timeZone: string): string | null {
  if (!at) return null;
  return at.toLocaleString('sv-SE', { timeZone, hourCycle: 'h23' }).slice(0, 19);
}

/**
 * Spec §7: the opening hour view's charger checklist (GET/POST /cp_opening_hour), the dry run
 * (POST /cp_opening_hour/test), and the weekday and date editor (PUT /opening_hour_days/{id}).
 */
export function openingHourRoutes(app: FastifyInstance, scheduler: OpeningHoursScheduler): void {
  app.get<{ Params: { id: string } }>('/api/cp_opening_hour/:id', { config: { doc: { summary: 'The chargers the user sees, ticked when on this opening hour', privileges: [READ] } } }, async (req) => {
    const user = requirePrivileges(req, READ);
    const id = parseId(req.params.id);
    await openingHour(app.db, id);
    const chargers = await visibleChargers(app.db, user);
    const content = chargers.map((c) => ({ cp_id: c.cp_id, cp_no: c.cp_no, loc_id: c.loc_id, opening_hour_id: c.opening_hour_id, assigned: c.opening_hour_id === id ? 1 : 0 }));
    return { openingHourId: id, cpIds: content.filter((c) => c.assigned).map((c) => c.cp_id), dataset: { content, totalElements: content.length, totalPages: 1 } };
  });

  // cpIds is the whole set among the chargers this user may see; chargers of other sites keep theirs.
  app.post('/api/cp_opening_hour', { config: { doc: { summary: 'Set the chargers of an opening hour (cpIds: the whole set)', privileges: [EDIT], body: AssignBody } } }, async (req, reply) => {
    const user = requirePrivileges(req, EDIT);
    const { openingHourId, cpIds } = parseBody(AssignBody, req.body);
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

  app.post('/api/cp_opening_hour/test', { config: { doc: { summary: 'Which of these chargers are open now', privileges: [READ], body: TestBody } } }, async (req) => {
    const user = requirePrivileges(req, READ);
    const { cpIds } = parseBody(TestBody, req.body);
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
        open: state.open ? 1 : 0, next_change: wallClock(state.nextChange, scheduler.timeZone),
        applied_state: c.applied_state, online: c.online_flag,
      };
    });
    return { status: 'success', timeZone: scheduler.timeZone, now: wallClock(scheduler.now(), scheduler.timeZone), dataset: { content } };
  });

  app.put<{ Params: { id: string } }>('/api/opening_hour_days/:id', { config: { doc: { summary: 'Set the weekdays and dates of an opening hour', privileges: [EDIT], body: DaysBody } } }, async (req) => {
    const user = requirePrivileges(req, EDIT);
    const id = parseId(req.params.id);
    const body = parseBody(DaysBody, req.body);
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
    return { status: 'success', data: { weekday, date_list: dates } };
  });
}
