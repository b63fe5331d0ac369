import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { editPrivilege, parseMoneyToCents, readPrivilege } from '@ev/core';
import { requirePrivileges } from '../auth/guard.ts';
import type { AuthUser } from '../auth/session.ts';
import type { Sql } from '../db/client.ts';
import { badRequest, forbidden, notFound } from '../http/errors.ts';
import { idParams } from '../http/schema.ts';
import { writeAudit } from '../resources/audit.ts';
import { keepSchemeSessions, sessionRows, type Scheme } from './scheme-sessions.ts';

// The routes of a scheme's sessions; the rows themselves are kept by scheme-sessions.ts, which the resource hook also calls.

/** The live scheme within the user's sites: 404 when there is none, 403 when it is another site's. */
async function schemeOf(sql: Sql, id: number, user: AuthUser, lock = false): Promise<Scheme> {
  const [s] = await sql.query<Scheme>(
    `SELECT id, type, fee::float8 AS fee, "maxChargingUnit", "locId" FROM price_scheme WHERE id = $1 AND deleted_at IS NULL${lock ? ' FOR UPDATE' : ''}`,
    [id],
  );
  if (!s) throw notFound(`price_scheme ${id} does not exist`);
  if (!user.allSites && (s.locId === null || !user.siteIds.includes(s.locId))) throw forbidden();
  return s;
}

/** The enabled sessions as the spec's call answers them: cash in dollars. */
async function sessionsAnswer(sql: Sql, id: number) {
  return (await sessionRows(sql, id))
    .filter((r) => r.enable_flag === 1)
    .map((r) => ({ id: r.id, session: r.session, cash: r.cash / 100, point: r.point }));
}

const Money = z.union([z.number(), z.string()]);
const Row = z.strictObject({
  id: z.int().optional(),
  session: z.int().min(1).max(1000),
  cash: Money,
  point: z.int().min(0).max(2_147_483_647),
});
const Body = z.array(Row).max(1000);

/** The parameters the spec's call sends (size 99999, page 0, trash 0, enable_flag 1): accepted and ignored, nothing else. */
const ignored = z.string().optional().describe('Accepted and ignored: every enabled session is answered');
const ListQuery = z.strictObject({ size: ignored, page: ignored, trash: ignored, enable_flag: ignored });

/** The enabled sessions 1..maxChargingUnit, cash in dollars. */
const SessionsAnswer = z.array(z.object({ id: z.number(), session: z.number(), cash: z.number(), point: z.number() }));

export function priceSchemeRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get('/api/price_scheme_detail/:id', { schema: { params: idParams, querystring: ListQuery, response: { 200: SessionsAnswer } }, config: { doc: { summary: 'The sessions of a price scheme', privileges: [readPrivilege('price_scheme')] } } }, async (req) => {
    const user = requirePrivileges(req, readPrivilege('price_scheme'));
    const scheme = await schemeOf(app.db, req.params.id, user);
    return sessionsAnswer(app.db, scheme.id);
  });

  /**
   * Saves the sessions as the view's table sends them back. Fixed: session 1's points only (cash
   * follows the fee; other sessions are computed, sent back unchanged or left out). Custom: cash
   * and points of any session 1..maxChargingUnit.
   */
  app.put('/api/price_scheme_detail/:id', { schema: { params: idParams, body: Body, response: { 200: SessionsAnswer } }, config: { doc: { summary: 'Set the sessions of a price scheme', privileges: [editPrivilege('price_scheme')] } } }, async (req) => {
    const user = requirePrivileges(req, editPrivilege('price_scheme'));
    const { id } = req.params;
    const rows = req.body;
    return app.db.tx(async (sql) => {
      const scheme = await schemeOf(sql, id, user, true);
      const before = await sessionsAnswer(sql, id);
      const current = new Map(before.map((r) => [r.session, r]));
      const fields: Record<string, string> = {};
      const changes: { session: number; cash: number; point: number }[] = [];
      rows.forEach((r, i) => {
        const cash = parseMoneyToCents(r.cash);
        if (r.session > scheme.maxChargingUnit || changes.some((c) => c.session === r.session)) fields[`${i}.session`] = 'invalid';
        else if (cash === null || cash < 0) fields[`${i}.cash`] = 'invalid';
        else if (scheme.type === 'Fixed') {
          // Only session 1's points are typed in; anything else must be what the scheme computes.
          const shown = current.get(r.session);
          if (cash !== Math.round((shown?.cash ?? 0) * 100)) fields[`${i}.cash`] = 'not_editable';
          else if (r.session !== 1 && r.point !== shown?.point) fields[`${i}.point`] = 'not_editable';
          else if (r.session === 1) changes.push({ session: 1, cash, point: r.point });
        } else changes.push({ session: r.session, cash, point: r.point });
      });
      if (Object.keys(fields).length) throw badRequest('Invalid sessions', fields);
      for (const c of changes) {
        await sql.query(
          `UPDATE price_scheme_detail SET cash = $3, point = $4, lupd_dttm = now() WHERE "priceSchemeId" = $1 AND session = $2 AND enable_flag = 1`,
          [id, c.session, c.cash, c.point],
        );
      }
      await keepSchemeSessions(sql, id);
      await sql.query(`UPDATE price_scheme SET version = version + 1, lupd_dttm = now() WHERE id = $1`, [id]);
      const after = await sessionsAnswer(sql, id);
      await writeAudit(sql, user, { action: 'UPDATE', target: 'price_scheme_detail', targetId: id, oldData: before, newData: after });
      return after;
    });
  });
}
