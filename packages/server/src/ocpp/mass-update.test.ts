import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RPCClient } from 'ocpp-rpc';
import { editPrivilege, MASS_UPDATE_NO_CONFIG, P } from '@ev/core';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { userWith } from '../testing/users.ts';
import { addCharger, addSite, BOOT, connectCharger, eventually } from '../testing/ocpp-support.ts';

/** POST /cp_locs/cp_mass_update and its job progress (spec part 1 §2, §5, §7, §8, §9). */
describe('charger configuration mass update', () => {
  let s: TestServer;
  let admin: string;
  let cp: RPCClient;
  let locId: number;
  let otherLoc: number;
  let online: number;
  let offline1: number;
  let offline2: number;
  let bare: number;
  let elsewhere: number;
  const received: [string, any][] = [];

  beforeAll(async () => {
    s = await startTestServer();
    admin = await s.login();
    locId = await addSite(s.db);
    otherLoc = await addSite(s.db);
    online = await addCharger(s.db, 'MU-1', { locId });
    offline1 = await addCharger(s.db, 'MU-2', { locId });
    offline2 = await addCharger(s.db, 'MU-3', { locId });
    bare = await addCharger(s.db, 'MU-4', { locId });
    elsewhere = await addCharger(s.db, 'MU-5', { locId: otherLoc });
    for (const id of [online, offline1, offline2, elsewhere]) {
      const made = await api('PUT', `/api/cps/${id}/cpConfig`, { fw_ver: 'AC-1.0.0' });
      expect(made.status).toBe(200);
      expect((await api('PUT', `/api/cps/${id}/cpConfig`, { cp_config_id: made.body.data.cp_config_id, current: 1 })).status).toBe(200);
    }
    cp = await connectCharger(s.wsUrl, 'MU-1', {
      handlers: {
        ChangeConfiguration: (p) => {
          received.push(['ChangeConfiguration', p]);
          return { status: 'Accepted' };
        },
        DataTransfer: (p) => {
          received.push(['DataTransfer', p]);
          return { status: 'Accepted' };
        },
      },
    });
    await cp.call('BootNotification', BOOT);
  });
  afterAll(async () => {
    await cp.close();
    await s.close();
  });

  function api(method: string, path: string, body?: unknown, token = admin) {
    return s.api(method, path, { token, body });
  }
  const currents = () => s.db.query(`SELECT cp_id, config_json, last_sent, pending FROM cp_config WHERE current = 1 ORDER BY cp_id`);
  const snapshot = async () => JSON.stringify(await s.db.query(`SELECT * FROM cp_config ORDER BY cp_config_id`));


  it('needs READ_CP_CONFIG and EDIT_CP_CONFIG (403, nothing changed)', async () => {
    const before = await snapshot();
    const reader = await userWith(s, 'mu_reader', [P.CP_CONFIG], 'all');
    const editorOnly = await userWith(s, 'mu_edit_only', [editPrivilege('cp_config')], 'all');
    for (const token of [reader, editorOnly]) {
      expect((await api('POST', '/api/cp_locs/cp_mass_update', { cpIds: [online] }, token)).status).toBe(403);
      expect((await api('POST', '/api/cp_locs/cp_mass_update', { cpIds: [online], commonConfigJson: { Window: 'Shrink' } }, token)).status).toBe(403);
    }
    expect(await snapshot()).toBe(before);
  });

  it('refuses chargers outside the user\'s sites, nothing changed', async () => {
    const before = await snapshot();
    const local = await userWith(s, 'mu_local', [P.CP_CONFIG, editPrivilege('cp_config')], [locId]);
    expect((await api('POST', '/api/cp_locs/cp_mass_update', { cpIds: [online] }, local)).body).toEqual({ status: 'success' });
    expect((await api('POST', '/api/cp_locs/cp_mass_update', { cpIds: [online, elsewhere] }, local)).status).toBe(404);
    const res = await api('POST', '/api/cp_locs/cp_mass_update', { cpIds: [online, elsewhere], commonConfigJson: { Window: 'Shrink' } }, local);
    expect(res.status).toBe(404);
    expect((await api('POST', '/api/cp_locs/cp_mass_update', { cpIds: [999999] })).status).toBe(404);
    expect(await snapshot()).toBe(before);
  });

  it('lists the chargers lacking a current configuration (§8), nothing changed', async () => {
    const before = await snapshot();
    expect((await api('POST', '/api/cp_locs/cp_mass_update', { cpIds: [online, offline1] })).body).toEqual({ status: 'success' });
    const res = await api('POST', '/api/cp_locs/cp_mass_update', { cpIds: [online, bare] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'error', message: MASS_UPDATE_NO_CONFIG, cpNos: ['MU-4'] });
    const applied = await api('POST', '/api/cp_locs/cp_mass_update', { cpIds: [online, bare], commonConfigJson: { Window: 'Shrink' } });
    expect(applied.body).toEqual({ status: 'error', message: MASS_UPDATE_NO_CONFIG, cpNos: ['MU-4'] });
    expect(await snapshot()).toBe(before);
  });

  it('an invalid value, an unknown key or a forbidden change is 400 and changes nothing', async () => {
    const before = await snapshot();
    const bad = async (common: unknown, token = admin) => {
      const res = await api('POST', '/api/cp_locs/cp_mass_update', { cpIds: [online, offline1], commonConfigJson: common }, token);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      return res.body;
    };
    expect((await bad({ 'Time Zone': 14 })).fields).toEqual({ 'Time Zone': 'invalid' });
    expect((await bad({ 'Network Timeout (ms)': 100 })).fields).toEqual({ 'Network Timeout (ms)': 'invalid' });
    expect((await bad({ Window: 'Tiny' })).fields).toEqual({ Window: 'invalid' });
    // Between min and max but off the step (§9: 0 to 10000, step 100), in the §9 kind or in a charger's own.
    const offStep = await bad({ 'Auto Unlock Interval (ms)': 33 });
    expect(offStep.fields).toEqual({ 'Auto Unlock Interval (ms)': 'not_on_step' });
    expect(offStep.errors).toEqual(['Auto Unlock Interval (ms): not_on_step']);
    expect((await bad({ 'Network Timeout (ms)': 5250 })).fields).toEqual({ 'Network Timeout (ms)': 'not_on_step' });
    expect((await bad({ 'Not a key': 1 })).fields).toEqual({ 'Not a key': 'unknown_field' });
    expect((await bad('{not json')).fields).toEqual({ commonConfigJson: 'invalid' });
    expect((await bad({})).fields).toEqual({ commonConfigJson: 'required' });
    // An Admin setting without READ_CP_CONFIG_ADMIN; a Yes/No setting that is on cannot be turned off.
    const editor = await userWith(s, 'mu_editor', [P.CP_CONFIG, editPrivilege('cp_config')], 'all');
    expect((await bad({ 'Network Timeout (ms)': 6000 }, editor)).fields).toEqual({ 'Network Timeout (ms)': 'not_permitted' });
    expect((await bad({ 'Custom Fields': 'No' })).fields).toEqual({ 'Custom Fields': 'not_editable' });
    expect(await snapshot()).toBe(before);
  });

  it('applies to 3 chargers: configs updated, the connected one sent, the offline ones recorded; progress reaches done', async () => {
    received.length = 0;
    const res = await api('POST', '/api/cp_locs/cp_mass_update', {
      cpIds: [online, offline1, offline2],
      commonConfigJson: JSON.stringify({ 'Time Zone': 3, 'End upon state A': 'Yes', Clock: '12:00' }),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ status: 'success', jobId: expect.any(String) });
    const rows = await currents();
    for (const r of rows.filter((x: any) => [online, offline1, offline2].includes(x.cp_id))) {
      expect(r.config_json['Time Zone']).toEqual({ Type: 'Range', Authority: 'Everyone', Value: 3, Option: [-12, 13, 1] });
      expect(r.config_json['End upon state A'].Value).toBe('Yes');
      // Not in the template: added as §9 defines it.
      expect(r.config_json.Clock).toEqual({ Type: 'Text', Authority: 'Everyone', Value: '12:00', Option: [] });
      // Untouched settings stay.
      expect(r.config_json.Window.Value).toBe('Full');
    }
    // Another charger's config is untouched.
    expect(rows.find((x: any) => x.cp_id === elsewhere)!.config_json['Time Zone'].Value).toBe(8);

    const progress = await eventually(async () => {
      const p = await api('GET', `/api/cp_locs/cp_mass_update/${res.body.jobId}`);
      expect(p.status).toBe(200);
      return p.body.finished ? p.body : null;
    });
    expect(progress.total).toBe(3);
    expect(progress.done).toBe(3);
    const all = { 'Time Zone': 'Accepted', 'End upon state A': 'Accepted', Clock: 'Accepted' };
    expect(progress.results).toEqual([
      { cpId: online, cpNo: 'MU-1', status: 'sent', keys: all },
      { cpId: offline1, cpNo: 'MU-2', status: 'offline', keys: { 'Time Zone': 'Offline', 'End upon state A': 'Offline', Clock: 'Offline' } },
      { cpId: offline2, cpNo: 'MU-3', status: 'offline', keys: { 'Time Zone': 'Offline', 'End upon state A': 'Offline', Clock: 'Offline' } },
    ]);
    // Only the chosen settings were sent to the connected charger.
    expect(received).toEqual(expect.arrayContaining([
      ['ChangeConfiguration', { key: 'StopTransactionOnEVSideDisconnect', value: 'true' }],
      ['DataTransfer', expect.objectContaining({ messageId: 'SetConfig', data: JSON.stringify({ key: 'Time Zone', value: 3 }) })],
    ]));
    expect(received).toHaveLength(3);
    const after = await currents();
    const on = after.find((x: any) => x.cp_id === online)!;
    expect(on.last_sent).toMatchObject(all);
    expect(on.pending).toBe(0);
    const off = after.find((x: any) => x.cp_id === offline1)!;
    expect(off.last_sent).toMatchObject({ 'Time Zone': 'Offline', Clock: 'Offline' });
    expect(off.pending).toBe(1);
    // Another user does not see the job.
    const other = await userWith(s, 'mu_other', [P.CP_CONFIG, editPrivilege('cp_config')], 'all');
    expect((await api('GET', `/api/cp_locs/cp_mass_update/${res.body.jobId}`, undefined, other)).status).toBe(404);
    expect((await api('GET', `/api/cp_locs/cp_mass_update/nope`)).status).toBe(404);
  });
});

describe('mass update progress on several nodes', () => {
  // The two-node case (a job on one node, polled on another) is in cluster/cluster.test.ts.
  it('answers 503, not a hang or a 404, while Redis cannot be read for a job this node does not run', async () => {
    const s = await startTestServer({ redisUrl: 'redis://127.0.0.1:1', redisPrefix: 'mass-update-no-redis:' });
    try {
      const res = await s.api('GET', '/api/cp_locs/cp_mass_update/a-job-of-another-node', { token: await s.login() });
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ errorCode: 'cluster_unavailable' });
    } finally {
      await s.close();
    }
  }, 30_000);
});
