import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPrivilege, RESOURCES } from '@ev/core';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { userWith } from '../testing/users.ts';

const tableCounts = async (s: TestServer) => {
  const tables = [...new Set(Object.values(RESOURCES).map((d) => d.table))];
  const counts: Record<string, number> = {};
  for (const t of tables) counts[t] = (await s.db.query(`SELECT count(*)::int AS n FROM "${t}"`))[0].n;
  counts.deleted_cp_locs = (await s.db.query(`SELECT count(*)::int AS n FROM cp_locs WHERE deleted_at IS NOT NULL`))[0].n;
  return counts;
};

describe('permissions on every engine route', () => {
  let s: TestServer;
  let admin: string;
  let siteA: number;
  let siteB: number;
  let cpA: number;
  let cpB: number;

  beforeAll(async () => {
    s = await startTestServer();
    admin = await s.login();
    siteA = (await s.api('POST', '/api/cp_locs', { token: admin, body: { address: 'Site A' } })).body.data.loc_id;
    siteB = (await s.api('POST', '/api/cp_locs', { token: admin, body: { address: 'Site B' } })).body.data.loc_id;
    cpA = (await s.api('POST', '/api/cps', { token: admin, body: { cp_no: 'PA-1', name: 'a', loc_id: siteA, charger_type: 'AC22' } })).body.data.cp_id;
    cpB = (await s.api('POST', '/api/cps', { token: admin, body: { cp_no: 'PB-1', name: 'b', loc_id: siteB } })).body.data.cp_id;
    await s.api('POST', '/api/cp_zones', { token: admin, body: { loc_id: siteA, name_chi: 'ZA', max_physical_current_limit: 50 } });
    await s.api('POST', '/api/cp_pow', { token: admin, body: { name: 'M1', factor: 1, rotation_value: 0 } });
  });
  afterAll(() => s.close());

  it('refuses every action on every resource to a user without privileges, and changes nothing', async () => {
    const nobody = await userWith(s, 'nobody', []);
    const before = await tableCounts(s);
    for (const def of Object.values(RESOURCES)) {
      const [row] = await s.db.query(`SELECT "${def.idField}" AS id FROM "${def.table}" ORDER BY 1 LIMIT 1`);
      const id = row?.id ?? 1;
      const calls: [string, string, unknown?][] = [
        // GET /api/user_profile is one's own profile (checked below); the rest of it is the users resource.
        ...(def.key === 'user_profile' ? [] : [['GET', `/api/${def.key}`] as [string, string]]),
        ['GET', `/api/${def.key}/${id}`],
        ['GET', `/api/${def.key}/checkDelete/${id}`],
        ['GET', `/api/${def.key}/export/excel?headers=Id&keys=${def.idField}`],
        ['POST', `/api/${def.key}`, { name: 'x' }],
        ['PUT', `/api/${def.key}/${id}`, { name: 'x' }],
        ['DELETE', `/api/${def.key}/${id}`],
      ];
      for (const [method, path, body] of calls) {
        const res = await s.api(method, path, { token: nobody, body });
        // 405: the resource does not offer the action to anyone (read-only logs, roles edited in /rnp).
        expect([403, 405], `${method} ${path} → ${res.status}`).toContain(res.status);
      }
    }
    for (const [method, path, body] of [
      ['GET', '/api/rnp'],
      ['PUT', '/api/rnp/1', { privileges: [] }],
      ['GET', `/api/cps/loc_id/${siteA}/zone_id/1/zone_assignment`],
      ['PUT', '/api/cps/assign_zone/1', [{ cp_id: cpA, action: 'remove' }]],
      ['GET', '/api/app/settings'],
      ['PUT', '/api/app/settings', { home_screen: 'LMS' }],
    ] as [string, string, unknown?][]) {
      expect((await s.api(method, path, { token: nobody, body })).status, `${method} ${path}`).toBe(403);
    }
    expect(await tableCounts(s)).toEqual(before);
    // Everyone may read and edit their own profile.
    expect((await s.api('GET', '/api/user_profile', { token: nobody })).body.username).toBe('nobody');
  });

  it('grants exactly what the privileges say: read without create, edit or delete', async () => {
    const reader = await userWith(s, 'reader', [readPrivilege('cp_locs')]);
    expect((await s.api('GET', '/api/cp_locs', { token: reader })).status).toBe(200);
    expect((await s.api('GET', `/api/cp_locs/${siteA}`, { token: reader })).status).toBe(200);
    expect((await s.api('POST', '/api/cp_locs', { token: reader, body: { address: 'New' } })).status).toBe(403);
    expect((await s.api('PUT', `/api/cp_locs/${siteA}`, { token: reader, body: { address: 'X' } })).status).toBe(403);
    expect((await s.api('DELETE', `/api/cp_locs/${siteA}`, { token: reader })).status).toBe(403);
    expect((await s.api('GET', '/api/cps', { token: reader })).status).toBe(403);

    const editor = await userWith(s, 'editor', ['READ_CP_POW', 'EDIT_CP_POW']);
    const [pow] = await s.db.query(`SELECT power_meter_type_id AS id FROM cp_pow LIMIT 1`);
    expect((await s.api('PUT', `/api/cp_pow/${pow.id}`, { token: editor, body: { factor: 2 } })).status).toBe(200);
    // Delete needs READ_DELETE on top of EDIT_.
    expect((await s.api('DELETE', `/api/cp_pow/${pow.id}`, { token: editor })).status).toBe(403);
  });

  it('strips fields the user may not read and refuses them in writes', async () => {
    const noType = await userWith(s, 'notype', ['READ_CPS', 'EDIT_CPS']);
    const row = await s.api('GET', `/api/cps/${cpA}`, { token: noType });
    expect(row.status).toBe(200);
    expect(row.body).not.toHaveProperty('charger_type');
    expect(row.body).not.toHaveProperty('cp_connectors');
    const list = await s.api('GET', '/api/cps', { token: noType });
    expect(list.body.dataset.content[0]).not.toHaveProperty('charger_type');
    expect((await s.api('GET', '/api/cps?sort_by=charger_type', { token: noType })).status).toBe(400);
    const write = await s.api('PUT', `/api/cps/${cpA}`, { token: noType, body: { charger_type: 'DC' } });
    // Refused as a field error, not a 403: in the portal a 403 ends the session.
    expect(write.status).toBe(400);
    expect(write.body.fields).toEqual({ charger_type: 'not_permitted' });
    expect((await s.db.query(`SELECT charger_type FROM cps WHERE cp_id = $1`, [cpA]))[0].charger_type).toBe('AC22');
  });

  it('keeps a site-restricted user to their sites in lists, records, writes, options and exports', async () => {
    const local = await userWith(s, 'local', ['READ_CPS', 'EDIT_CPS', 'CREATE_CPS', 'READ_CP_LOCS', 'READ_CP_ZONES', 'CREATE_AUTH_CARD', 'EDIT_AUTH_CARD', 'READ_AUTH_CARD'], [siteA]);
    const cps = await s.api('GET', '/api/cps', { token: local });
    expect(cps.body.dataset.content.map((r: any) => r.cp_no)).toEqual(['PA-1']);
    const locs = await s.api('GET', '/api/cp_locs', { token: local });
    expect(locs.body.dataset.content.map((r: any) => r.address)).toEqual(['Site A']);
    expect((await s.api('GET', `/api/cps/${cpB}`, { token: local })).status).toBe(403);
    expect((await s.api('PUT', `/api/cps/${cpB}`, { token: local, body: { name: 'hijack' } })).status).toBe(403);
    const move = await s.api('PUT', `/api/cps/${cpA}`, { token: local, body: { loc_id: siteB } });
    expect([move.status, move.body.fields]).toEqual([400, { loc_id: 'not_permitted' }]);
    const elsewhere = await s.api('POST', '/api/cps', { token: local, body: { cp_no: 'PB-2', name: 'x', loc_id: siteB } });
    expect([elsewhere.status, elsewhere.body.fields]).toEqual([400, { loc_id: 'not_permitted' }]);
    expect((await s.api('POST', '/api/cps', { token: local, body: { cp_no: 'PA-2', name: 'x', loc_id: siteA } })).status).toBe(200);
    const opts = await s.api('GET', '/api/options?opts=cp_locs&opts=cps', { token: local });
    expect(opts.body.options.cp_locs.map((o: any) => o.label)).toEqual(['Site A']);
    expect(opts.body.options.cps.map((o: any) => o.label)).toEqual(['PA-1', 'PA-2']);
    const zones = await s.api('GET', '/api/cp_zones', { token: local });
    expect(zones.body.dataset.content.every((z: any) => z.loc_id === siteA)).toBe(true);
    expect((await s.db.query(`SELECT name FROM cps WHERE cp_id = $1`, [cpB]))[0].name).toBe('b');
    // A card without a site is valid at every site: not something a user kept to one site may issue.
    const everywhere = await s.api('POST', '/api/auth_card', { token: local, body: { name: 'all sites', rfid_cards: 'X1' } });
    expect([everywhere.status, everywhere.body.fields]).toEqual([400, { loc: 'not_permitted' }]);
    const card = await s.api('POST', '/api/auth_card', { token: local, body: { name: 'site A', rfid_cards: 'X2', loc: siteA } });
    expect(card.status).toBe(200);
    const emptied = await s.api('PUT', `/api/auth_card/${card.body.data.id}`, { token: local, body: { loc: null } });
    expect([emptied.status, emptied.body.fields]).toEqual([400, { loc: 'not_permitted' }]);
    expect((await s.api('PUT', `/api/auth_card/${card.body.data.id}`, { token: local, body: { name: 'site A cards' } })).status).toBe(200);
    expect((await s.db.query(`SELECT count(*)::int AS n FROM auth_card WHERE loc IS NULL`))[0].n).toBe(0);
  });

  it('limits the privileges menu to the super_admin role', async () => {
    const almost = await userWith(s, 'almost', ['READ_PRIVILEGES']);
    expect((await s.api('GET', '/api/privileges', { token: almost })).status).toBe(403);
    expect((await s.api('GET', '/api/privileges', { token: admin })).status).toBe(200);
  });

  it('lets nobody grant a privilege they do not hold, and keeps super_admin whole', async () => {
    const granter = await userWith(s, 'granter', ['READ_RNP', 'EDIT_RNP', 'READ_CPS']);
    const role = await s.api('POST', '/api/roles', { token: admin, body: { role: 'target', name_chi: 't', level: 5 } });
    const target = role.body.data.id;
    expect((await s.api('PUT', `/api/rnp/${target}`, { token: granter, body: { privileges: ['READ_CPS'] } })).status).toBe(200);
    const grant = await s.api('PUT', `/api/rnp/${target}`, { token: granter, body: { privileges: ['READ_CPS', 'READ_USERS'] } });
    expect([grant.status, grant.body.fields]).toEqual([400, { privileges: 'not_permitted' }]);
    expect((await s.api('PUT', '/api/rnp/1', { token: admin, body: { privileges: [] } })).status).toBe(400);
    expect((await s.api('PUT', `/api/rnp/${target}`, { token: admin, body: { privileges: ['NOT_A_PRIVILEGE'] } })).status).toBe(400);
    const rnp = await s.api('GET', '/api/rnp', { token: granter });
    expect(rnp.body.rolePrivileges[target]).toEqual(['READ_CPS']);
  });

  it('ends the sessions of a user who is deactivated or gets a new password, and refuses self-deletion', async () => {
    const victim = await userWith(s, 'victim', ['READ_CPS']);
    const [{ id }] = await s.db.query(`SELECT id FROM users WHERE username = 'victim'`);
    expect((await s.api('POST', '/api/me', { token: victim })).status).toBe(200);
    await s.api('PUT', `/api/users/${id}`, { token: admin, body: { active: 0 } });
    expect((await s.api('POST', '/api/me', { token: victim })).status).toBe(401);
    expect((await s.api('POST', '/api/login', { body: { username: 'victim', password: 'victim-password' } })).status).toBe(400);
    await s.api('PUT', `/api/users/${id}`, { token: admin, body: { active: 1 } });
    const again = await s.login('victim', 'victim-password');
    const changed = await s.api('PUT', '/api/user_profile', { token: again, body: { password: 'new-pass-123', confirm_password: 'new-pass-123' } });
    expect(changed.status).toBe(200);
    expect((await s.api('POST', '/api/me', { token: again })).status).toBe(401);
    await s.login('victim', 'new-pass-123');
    const [{ id: adminId }] = await s.db.query(`SELECT id FROM users WHERE username = 'admin'`);
    expect((await s.api('DELETE', `/api/users/${adminId}`, { token: admin })).status).toBe(400);
  });
});
