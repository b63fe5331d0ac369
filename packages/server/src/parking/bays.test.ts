import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { addCharger, addSite } from '../testing/ocpp-support.ts';
import { userWith } from '../testing/users.ts';

/** The bay resource's rules (spec part 2 §4, §6): Tesla bays, one bay per connector, EDIT_BAY, sites. */
describe('parking bays', () => {
  let s: TestServer;
  let admin: string;
  let siteA: number;
  let siteB: number;
  let cpA: number;
  let cpB: number;
  const api = (method: string, path: string, body?: unknown, token = admin) => s.api(method, path, { token, body });
  const stored = async (id: number) => (await s.db.query(`SELECT * FROM bay WHERE id = $1`, [id]))[0];

  beforeAll(async () => {
    s = await startTestServer();
    admin = await s.login();
    siteA = await addSite(s.db);
    siteB = await addSite(s.db);
    cpA = await addCharger(s.db, 'BAY-A', { locId: siteA });
    cpB = await addCharger(s.db, 'BAY-B', { locId: siteB });
  });
  afterAll(() => s.close());

  it('takes a bay\'s site from its charger, whatever the form sent, and shows charger / connector', async () => {
    const res = await api('POST', '/api/bay', { bayId: 'P-1', bayName: 'Bay 1', cpId: cpA, connectorId: 1, locId: siteB });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ bayId: 'P-1', type: 'Normal', status: 'Vacant', locId: siteA, cpConnector: 'BAY-A / 1' });
    // Moving it to another charger moves its site.
    const moved = await api('PUT', `/api/bay/${res.body.data.id}`, { cpId: cpB });
    expect(moved.body.data).toMatchObject({ locId: siteB, cpConnector: 'BAY-B / 1' });
    expect((await api('PUT', `/api/bay/${res.body.data.id}`, { cpId: cpA })).status).toBe(200);
  });

  it('needs a charger and connector for a bay other than Tesla, and gives a connector at most one live bay', async () => {
    const none = await api('POST', '/api/bay', { bayId: 'P-X', bayName: 'No charger' });
    expect([none.status, none.body.fields]).toEqual([400, { cpId: 'required', connectorId: 'required' }]);
    const first = await api('POST', '/api/bay', { bayId: 'P-2', bayName: 'Bay 2', cpId: cpA, connectorId: 2 });
    expect(first.status).toBe(200);
    const clash = await api('POST', '/api/bay', { bayId: 'P-3', bayName: 'Bay 3', cpId: cpA, connectorId: 2 });
    expect([clash.status, clash.body.fields]).toEqual([400, { connectorId: 'already_taken' }]);
    // Another bay may not be moved onto it either.
    const other = await api('POST', '/api/bay', { bayId: 'P-3', bayName: 'Bay 3', cpId: cpA, connectorId: 3 });
    const onto = await api('PUT', `/api/bay/${other.body.data.id}`, { connectorId: 2 });
    expect([onto.status, onto.body.fields]).toEqual([400, { connectorId: 'already_taken' }]);
    // The parking system's bay id is unique among live bays too.
    const sameId = await api('POST', '/api/bay', { bayId: 'P-2', bayName: 'Again', cpId: cpA, connectorId: 4 });
    expect([sameId.status, sameId.body.fields]).toEqual([400, { bayId: 'already_exist' }]);
    // Once the first bay is deleted (soft), its connector and its bay id are free again.
    expect((await api('DELETE', `/api/bay/${first.body.data.id}`)).status).toBe(200);
    expect((await api('POST', '/api/bay', { bayId: 'P-2', bayName: 'Bay 2 again', cpId: cpA, connectorId: 2 })).status).toBe(200);
  });

  it('locks a Tesla bay: its site is chosen, it has no connector, and it is not edited', async () => {
    const noSite = await api('POST', '/api/bay', { bayId: 'T-0', bayName: 'Tesla', type: 'Tesla' });
    expect([noSite.status, noSite.body.fields]).toEqual([400, { locId: 'required' }]);
    // A connector still held by the form is dropped: the choice is off for Tesla bays.
    const res = await api('POST', '/api/bay', { bayId: 'T-1', bayName: 'Tesla 1', type: 'Tesla', locId: siteB, cpId: cpA, connectorId: 5 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const id = res.body.data.id;
    expect(res.body.data).toMatchObject({ type: 'Tesla', locId: siteB, cpId: null, connectorId: null, cpConnector: null });
    const before = await stored(id);
    const edit = await api('PUT', `/api/bay/${id}`, { bayName: 'Renamed' });
    expect([edit.status, edit.body.fields]).toEqual([400, { type: 'not_editable' }]);
    // Nor removed: the parking system manages it.
    expect((await api('DELETE', `/api/bay/${id}`)).status).toBe(400);
    expect(await stored(id)).toEqual(before);
    // Nor does a bay become Tesla (or stop being one) after creation.
    const normal = await api('POST', '/api/bay', { bayId: 'P-9', bayName: 'Bay 9', cpId: cpA, connectorId: 9 });
    const toTesla = await api('PUT', `/api/bay/${normal.body.data.id}`, { type: 'Tesla' });
    expect([toTesla.status, toTesla.body.fields]).toEqual([400, { type: 'not_editable' }]);
  });

  it('edits only with EDIT_BAY, and only within the user\'s sites', async () => {
    const bay = (await api('POST', '/api/bay', { bayId: 'P-10', bayName: 'Bay 10', cpId: cpA, connectorId: 10 })).body.data;
    const reader = await userWith(s, 'bay-reader', ['READ_BAY', 'CREATE_BAY']);
    expect((await api('GET', `/api/bay/${bay.id}`, undefined, reader)).status).toBe(200);
    const refused = await api('PUT', `/api/bay/${bay.id}`, { bayName: 'Nope' }, reader);
    expect([refused.status, refused.body.privilege]).toEqual([403, 'EDIT_BAY']);
    expect((await stored(bay.id)).bayName).toBe('Bay 10');

    const siteBUser = await userWith(s, 'bay-site-b', ['READ_BAY', 'CREATE_BAY', 'EDIT_BAY', 'READ_CPS'], [siteB]);
    const list = (await api('GET', '/api/bay?size=100', undefined, siteBUser)).body.dataset.content;
    expect(list.length).toBeGreaterThan(0);
    expect(list.every((b: any) => b.locId === siteB)).toBe(true);
    expect((await api('GET', `/api/bay/${bay.id}`, undefined, siteBUser)).status).toBe(403);
    expect((await api('PUT', `/api/bay/${bay.id}`, { bayName: 'Nope' }, siteBUser)).status).toBe(403);
    // A bay on another site's charger is refused; on its own site's charger it is made there.
    const elsewhere = await api('POST', '/api/bay', { bayId: 'P-11', bayName: 'Bay 11', cpId: cpA, connectorId: 11 }, siteBUser);
    expect(elsewhere.status).toBe(400);
    expect((await s.db.query(`SELECT 1 FROM bay WHERE "bayId" = 'P-11'`)).length).toBe(0);
    const own = await api('POST', '/api/bay', { bayId: 'P-12', bayName: 'Bay 12', cpId: cpB, connectorId: 12 }, siteBUser);
    expect(own.body.data).toMatchObject({ locId: siteB });
  });

  it('shows the bay log read-only, newest first', async () => {
    await s.db.query(`INSERT INTO bay_log ("sessionId", status, "requestStatus") VALUES ('S-a', 'In', 'Accepted'), ('S-b', 'Out', 'Refused')`);
    const list = await api('GET', '/api/bay_log');
    expect(list.body.dataset.content.slice(0, 2).map((r: any) => r.sessionId)).toEqual(['S-b', 'S-a']);
    expect((await api('POST', '/api/bay_log', { sessionId: 'x' })).status).toBe(405);
    const excel = await s.api('GET', '/api/bay_log/export/excel?keys=id&headers=ID&keys=sessionId&headers=Session&sheet_name=Bays', { token: admin });
    expect(excel.status).toBe(200);
    expect(excel.headers.get('content-type')).toContain('spreadsheet');
  });
});
