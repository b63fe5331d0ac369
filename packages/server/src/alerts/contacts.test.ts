import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPrivilege, editPrivilege, P, readPrivilege } from '@ev/core';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { userWith as userOf } from '../testing/users.ts';
import { addCharger, addSite } from '../testing/ocpp-support.ts';

describe('contacts, contact groups and alerts through the API', () => {
  let s: TestServer;
  let admin: string;
  let siteA: number;
  let siteB: number;
  const api = (method: string, path: string, body?: unknown, token = admin) => s.api(method, path, { token, body });
  const all = (key: string) => [readPrivilege(key), createPrivilege(key), editPrivilege(key)];

  beforeAll(async () => {
    s = await startTestServer();
    admin = await s.login();
    siteA = await addSite(s.db);
    siteB = await addSite(s.db);
  });
  afterAll(() => s.close());

  it('checks a contact e-mail: required, format, one contact per address', async () => {
    expect((await api('POST', '/api/contact', { name: 'No mail' })).body.fields).toEqual({ email: 'required' });
    expect((await api('POST', '/api/contact', { name: 'Bad', email: 'not-an-address' })).body.fields).toEqual({ email: 'format_error' });
    const ok = await api('POST', '/api/contact', { name: 'Ops', email: 'ops@example.com' });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.data).toMatchObject({ name: 'Ops', email: 'ops@example.com', status: 1 });
    const dup = await api('POST', '/api/contact', { name: 'Ops again', email: 'OPS@example.com' });
    expect(dup.status).toBe(400);
    expect(dup.body.fields).toEqual({ email: 'duplicate' });
    // Editing a contact keeps its own address.
    expect((await api('PUT', `/api/contact/${ok.body.data.contact_id}`, { name: 'Ops team', email: 'ops@example.com' })).status).toBe(200);
    const logged = await s.db.query(`SELECT action FROM portal_action_log WHERE target = 'contact' ORDER BY id`);
    expect(logged.map((r) => r.action)).toEqual(['CREATE', 'UPDATE']);
  });

  it('needs the contact privileges', async () => {
    const reader = await userOf(s, 'contact-reader', [readPrivilege('contact')]);
    expect((await api('GET', '/api/contact', undefined, reader)).status).toBe(200);
    expect((await api('POST', '/api/contact', { name: 'x', email: 'x@example.com' }, reader)).status).toBe(403);
    const nobody = await userOf(s, 'contact-nobody', []);
    expect((await api('GET', '/api/contact', undefined, nobody)).status).toBe(403);
    expect((await api('GET', '/api/contact_group', undefined, nobody)).status).toBe(403);
    expect((await api('GET', '/api/alert', undefined, nobody)).status).toBe(403);
  });

  it('keeps a contact group to at least one of contacts, sites and error codes, under the spec names', async () => {
    const empty = await api('POST', '/api/contact_group', { name: 'Nothing', level: 1 });
    expect(empty.status).toBe(400);
    expect(empty.body.fields).toEqual({ contactIds: 'contact_group_empty' });
    const [c] = await s.db.query(`SELECT contact_id FROM contact LIMIT 1`);
    const made = await api('POST', '/api/contact_group', { name: 'Faults', level: 5, contactIds: [c.contact_id], errorIds: ['GroundFailure', 'Offline'] });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect(made.body.data).toMatchObject({ level: 5, status: 1, contactIds: [c.contact_id], locIds: [], errorIds: ['GroundFailure', 'Offline'] });
    const id = made.body.data.contact_group_id;
    const [row] = await s.db.query(`SELECT contact_ids, loc_ids, error_ids FROM contact_group WHERE contact_group_id = $1`, [id]);
    expect(row).toEqual({ contact_ids: [c.contact_id], loc_ids: [], error_ids: ['GroundFailure', 'Offline'] });
    // Emptying the last non-empty list is refused; the level is one of 1, 5, 10; codes are OCPP's or Offline.
    expect((await api('PUT', `/api/contact_group/${id}`, { contactIds: [], errorIds: [] })).body.fields.contactIds).toBe('contact_group_empty');
    expect((await api('PUT', `/api/contact_group/${id}`, { level: 3 })).body.fields).toEqual({ level: 'invalid' });
    expect((await api('PUT', `/api/contact_group/${id}`, { errorIds: ['NoSuchError'] })).body.fields).toEqual({ errorIds: 'invalid' });
    expect((await api('PUT', `/api/contact_group/${id}`, { contactIds: [999999] })).body.fields).toEqual({ contactIds: 'invalid' });
    const edited = await api('PUT', `/api/contact_group/${id}`, { errorIds: [], locIds: [siteA] });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body.data).toMatchObject({ contactIds: [c.contact_id], locIds: [siteA], errorIds: [] });
    const list = await api('GET', `/api/contact_group?locIds=${siteA}`);
    expect(list.body.dataset.content.map((g: any) => g.contact_group_id)).toEqual([id]);
    // A deleted contact leaves its groups.
    expect((await api('DELETE', `/api/contact/${c.contact_id}`)).body).toBe('Deleted');
    expect((await api('GET', `/api/contact_group/${id}`)).body.contactIds).toEqual([]);
  });

  it('keeps a user with some sites to groups of their sites', async () => {
    const kept = await userOf(s, 'group-kept', all('contact_group'), [siteA]);
    const own = await api('POST', '/api/contact_group', { name: 'Site A only', locIds: [siteA] }, kept);
    expect(own.status, JSON.stringify(own.body)).toBe(200);
    expect((await api('POST', '/api/contact_group', { name: 'Site B', locIds: [siteB] }, kept)).body.fields).toEqual({ locIds: 'not_permitted' });
    // No site would mean every site.
    expect((await api('POST', '/api/contact_group', { name: 'Every site', errorIds: ['Offline'] }, kept)).body.fields).toEqual({ locIds: 'not_permitted' });
    const other = await api('POST', '/api/contact_group', { name: 'Site B by admin', locIds: [siteB] });
    await api('POST', '/api/contact_group', { name: 'Every site by admin', errorIds: ['Offline'] });
    const seen = (await api('GET', '/api/contact_group', undefined, kept)).body.dataset.content.map((g: any) => g.name);
    expect(seen).toContain('Site A only');
    expect(seen).not.toContain('Site B by admin');
    expect(seen).not.toContain('Every site by admin');
    expect((await api('GET', `/api/contact_group/${other.body.data.contact_group_id}`, undefined, kept)).status).toBe(403);
  });

  it('shows alerts read-only and only of the user\'s sites', async () => {
    const cpA = await addCharger(s.db, `ALERT-API-A-${Date.now()}`, { locId: siteA });
    const cpB = await addCharger(s.db, `ALERT-API-B-${Date.now()}`, { locId: siteB });
    for (const cp of [cpA, cpB]) {
      await s.db.query(`INSERT INTO alert (cp_id, cp_no, error_id, loc_id, location, message) SELECT cp_id, cp_no, 'GroundFailure', loc_id, 'here', 'm' FROM cps WHERE cp_id = $1`, [cp]);
    }
    const reader = await userOf(s, 'alert-reader', [P.ALERT], [siteA]);
    const list = await api('GET', '/api/alert', undefined, reader);
    expect(list.status).toBe(200);
    expect(list.body.dataset.content.map((a: any) => a.cp_id)).toEqual([cpA]);
    expect(list.body.dataset.content[0]).toMatchObject({ error_id: 'GroundFailure', level: 1, is_fixes: 0 });
    expect((await api('POST', '/api/alert', { cp_no: 'x' })).status).toBe(405);
    const filtered = await api('GET', '/api/alert?error_id=GroundFailure&is_fixes=0');
    expect(filtered.body.dataset.content).toHaveLength(2);
  });
});
