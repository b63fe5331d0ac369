import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RPCClient } from 'ocpp-rpc';
import { buildCatalogs, createPrivilege, editPrivilege, P, type Catalog } from '@ev/core';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { userWith } from '../testing/users.ts';
import { addCharger, addSite, BOOT, connectCharger } from '../testing/ocpp-support.ts';

/** The charger configuration calls of spec part 1 §7 (cpConfig, fwVerConfig). */
describe('charger configurations', () => {
  let s: TestServer;
  let admin: string;
  let cp: RPCClient;
  let cpId: number;
  let offlineId: number;
  let locId: number;
  let otherLoc: number;
  /** A charger's answer to ChangeConfiguration per OCPP key (Accepted when not listed). */
  const answers: Record<string, string> = {};
  const received: [string, any][] = [];

  beforeAll(async () => {
    s = await startTestServer();
    admin = await s.login();
    locId = await addSite(s.db);
    otherLoc = await addSite(s.db);
    cpId = await addCharger(s.db, 'CP-CFG1', { locId });
    offlineId = await addCharger(s.db, 'CP-CFG2', { locId });
    cp = await connectCharger(s.wsUrl, 'CP-CFG1', {
      handlers: {
        ChangeConfiguration: (p) => {
          received.push(['ChangeConfiguration', p]);
          return { status: answers[p.key] ?? 'Accepted' };
        },
        DataTransfer: (p) => {
          received.push(['DataTransfer', p]);
          return { status: p.vendorId === BOOT.chargePointVendor ? 'Accepted' : 'UnknownVendorId' };
        },
      },
    });
    await cp.call('BootNotification', BOOT);
  });
  afterAll(async () => {
    await cp.close();
    await s.close();
  });

  const api = (method: string, path: string, body?: unknown, token = admin) => s.api(method, path, { token, body });
  const rows = (id: number) => s.db.query(`SELECT * FROM cp_config WHERE cp_id = $1 ORDER BY cp_config_id`, [id]);
  const create = async (id: number, fw = 'AC-1.0.0', token = admin) => {
    const res = await api('PUT', `/api/cps/${id}/cpConfig`, { fw_ver: fw, description: 'from template' }, token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data;
  };
  const withValue = (json: any, name: string, value: unknown) => JSON.stringify({ ...json, [name]: { ...json[name], Value: value } });


  it('lists the firmware templates, with the §5 defaults added', async () => {
    const res = await api('GET', '/api/cps/fwVerConfig');
    expect(res.status).toBe(200);
    expect(res.body.map((t: any) => t.fw_ver)).toEqual(['AC-1.0.0', 'AC-2.0.0']);
    const tpl = res.body[0].config_json;
    expect(tpl['Network Timeout (ms)']).toEqual({ Type: 'Range', Authority: 'Admin', Value: 5000, Option: [500, 30000, 500] });
    expect(tpl['Time Select Interval Min']).toEqual({ Type: 'Range', Authority: 'Everyone', Value: 15, Option: [1, 30, 5] });
    expect(tpl['Custom Fields']).toEqual({ Type: 'Selection', Authority: 'Everyone', Value: 'Yes', Option: ['Yes', 'No'] });
    // AC-2.0.0 has its own Custom Fields: kept.
    expect(res.body[1].config_json['Custom Fields'].Value).toBe('No');
  });

  it('both templates have the spec §3 settings, every setting named in Traditional Chinese', async () => {
    const templates = (await api('GET', '/api/cps/fwVerConfig')).body;
    const zh = (buildCatalogs()['zh-TW'].translation.ui as Catalog).configSetting as Catalog;
    for (const { fw_ver, config_json } of templates) {
      expect(config_json.Phase, fw_ver).toEqual({ Type: 'Selection', Authority: 'Admin', Value: 'Single', Option: ['Single', 'Three'] });
      expect(config_json['Powermeter ID'], fw_ver).toEqual({ Type: 'Range', Authority: 'Admin', Value: 1, Option: [1, 247, 1] });
      expect(config_json['Powermeter Type'].Type, fw_ver).toBe('Selection');
      for (const name of ['Admin Card', 'Remote OCPP Server Path', 'Remote OCPP Username', 'Remote OCPP Password'])
        expect(config_json[name], `${fw_ver} ${name}`).toEqual({ Type: 'Text', Authority: 'Admin', Value: '', Option: [] });
      expect(Object.keys(config_json).filter((name) => !zh[name]), fw_ver).toEqual([]);
    }
  });

  it('creates from a template (current 0, pending 0), lists, duplicates, updates and deletes', async () => {
    const created = await create(cpId);
    expect(created).toMatchObject({ cp_id: cpId, fw_ver: 'AC-1.0.0', current: 0, pending: 0, description: 'from template', last_sent: null });
    expect(created.config_json['Time Zone'].Value).toBe(8);
    expect(created.config_json['Custom Fields'].Value).toBe('Yes');

    const copy = await api('PUT', `/api/cps/${cpId}/cpConfig`, { copy_of: created.cp_config_id, description: 'copy', current: 1 });
    expect(copy.body.data).toMatchObject({ fw_ver: 'AC-1.0.0', current: 0, pending: 0, description: 'copy' });
    expect(copy.body.data.config_json).toEqual(created.config_json);

    const list = await api('GET', `/api/cps/${cpId}/cpConfig`);
    expect(list.body.map((r: any) => r.cp_config_id)).toEqual([copy.body.data.cp_config_id, created.cp_config_id]);

    const upd = await api('PUT', `/api/cps/${cpId}/cpConfig`, {
      ...created,
      description: 'edited',
      config_json: withValue(created.config_json, 'Default Capacity (A)', '20'),
    });
    expect(upd.status, JSON.stringify(upd.body)).toBe(200);
    expect(upd.body.data.config_json['Default Capacity (A)'].Value).toBe(20);
    expect(upd.body.data.description).toBe('edited');
    const [audit] = await s.db.query(`SELECT * FROM portal_action_log WHERE target = 'cp_config' ORDER BY id DESC LIMIT 1`);
    expect(audit).toMatchObject({ action: 'UPDATE', target_id: String(created.cp_config_id), cre_user: 'admin' });

    const del = await api('DELETE', `/api/cps/${copy.body.data.cp_config_id}/cpConfig`);
    expect(del.body).toBe('Deleted');
    expect((await rows(cpId)).map((r) => r.cp_config_id)).toEqual([created.cp_config_id]);
  });

  it('bad input is 400 and changes nothing', async () => {
    const [row] = await rows(cpId);
    const before = JSON.stringify(await rows(cpId));
    const json = row.config_json;
    const put = (body: unknown) => api('PUT', `/api/cps/${cpId}/cpConfig`, body);
    for (const bad of ['not json', '[1,2]', 'null', '"text"', '{"A": 1}']) {
      const res = await put({ cp_config_id: row.cp_config_id, config_json: bad });
      expect(res.status, bad).toBe(400);
    }
    expect((await put({ cp_config_id: row.cp_config_id, config_json: JSON.stringify({ X: { Type: 'Slider', Authority: 'Everyone', Value: 1, Option: [] } }) })).body.fields).toEqual({ X: 'invalid' });
    expect((await put({ cp_config_id: row.cp_config_id, config_json: JSON.stringify({ X: { Type: 'Text', Authority: 'Nobody', Value: 'a', Option: [] } }) })).status).toBe(400);
    expect((await put({ cp_config_id: row.cp_config_id, config_json: withValue(json, 'Default Capacity (A)', 33) })).body.fields).toEqual({ 'Default Capacity (A)': 'invalid' });
    expect((await put({ cp_config_id: row.cp_config_id, config_json: withValue(json, 'Time Zone', -13) })).status).toBe(400);
    expect((await put({ cp_config_id: row.cp_config_id, config_json: withValue(json, 'Window', 'Tiny') })).body.fields).toEqual({ Window: 'invalid' });
    expect((await put({ cp_config_id: row.cp_config_id, config_json: withValue(json, 'Time Zone', 'abc') })).status).toBe(400);
    expect((await put({ cp_config_id: row.cp_config_id, current: 2 })).status).toBe(400);
    expect((await put({ cp_config_id: row.cp_config_id, surprise: 1 })).body.fields).toEqual({ surprise: 'unknown_field' });
    expect((await put({ cp_config_id: 999999 })).status).toBe(400);
    expect((await put({ fw_ver: 'NO-SUCH-FW' })).body.fields).toEqual({ fw_ver: 'invalid' });
    expect((await put({ copy_of: 999999 })).body.fields).toEqual({ copy_of: 'invalid' });
    expect(JSON.stringify(await rows(cpId))).toBe(before);
    // A charger that does not exist, or a config of another charger.
    expect((await api('GET', `/api/cps/999999/cpConfig`)).body).toEqual({ status: 'error', errorCode: 10001 });
    expect((await api('PUT', `/api/cps/${offlineId}/cpConfig`, { cp_config_id: row.cp_config_id, description: 'x' })).body.fields).toEqual({ cp_config_id: 'invalid' });
    expect((await api('DELETE', `/api/cps/999999/cpConfig`)).body).toEqual({ status: 'error', errorCode: 10001 });
  });

  it('booleans that are on cannot be turned off, by anyone', async () => {
    const c = await create(cpId, 'AC-2.0.0');
    // Custom Fields is No in this template: it may be turned on, then not off again.
    const on = await api('PUT', `/api/cps/${cpId}/cpConfig`, { cp_config_id: c.cp_config_id, config_json: withValue(c.config_json, 'Custom Fields', 'Yes') });
    expect(on.status).toBe(200);
    const off = await api('PUT', `/api/cps/${cpId}/cpConfig`, { cp_config_id: c.cp_config_id, config_json: withValue(on.body.data.config_json, 'Custom Fields', 'No') });
    expect(off.status).toBe(400);
    expect(off.body.fields).toEqual({ 'Custom Fields': 'not_editable' });
    expect((await s.db.query(`SELECT config_json FROM cp_config WHERE cp_config_id = $1`, [c.cp_config_id]))[0].config_json['Custom Fields'].Value).toBe('Yes');
    // Charging detail starts on (Yes).
    const off2 = await api('PUT', `/api/cps/${cpId}/cpConfig`, { cp_config_id: c.cp_config_id, config_json: withValue(c.config_json, 'Charging detail', 'No') });
    expect(off2.body.fields).toMatchObject({ 'Charging detail': 'not_editable' });
    await api('DELETE', `/api/cps/${c.cp_config_id}/cpConfig`);
  });

  it('Admin settings: only with READ_CP_CONFIG_ADMIN; Everyone settings: by any editor', async () => {
    const everyone = await userWith(s, 'cfg_everyone', [P.CP_CONFIG, createPrivilege('cp_config'), editPrivilege('cp_config')], [locId]);
    const cfgAdmin = await userWith(s, 'cfg_admin', [P.CP_CONFIG, editPrivilege('cp_config'), P.CP_CONFIG_ADMIN], 'all');
    const [row] = await rows(cpId);
    const before = JSON.stringify(await rows(cpId));
    const put = (token: string, json: string) => api('PUT', `/api/cps/${cpId}/cpConfig`, { cp_config_id: row.cp_config_id, config_json: json }, token);

    const refused = await put(everyone, withValue(row.config_json, 'Network Timeout (ms)', 1000));
    expect(refused.status).toBe(400);
    expect(refused.body.fields).toEqual({ 'Network Timeout (ms)': 'not_permitted' });
    // Changing a setting's authority, options, or adding one, is not theirs either.
    const demoted = { ...row.config_json, 'Server Path': { ...row.config_json['Server Path'], Authority: 'Everyone' } };
    expect((await put(everyone, JSON.stringify(demoted))).body.fields).toEqual({ 'Server Path': 'not_permitted' });
    const widened = { ...row.config_json, 'Default Capacity (A)': { ...row.config_json['Default Capacity (A)'], Option: [0, 64, 1] } };
    expect((await put(everyone, JSON.stringify(widened))).body.fields).toEqual({ 'Default Capacity (A)': 'not_permitted' });
    const added = { ...row.config_json, Clock: { Type: 'Text', Authority: 'Everyone', Value: 'x', Option: [] } };
    expect((await put(everyone, JSON.stringify(added))).body.fields).toEqual({ Clock: 'not_permitted' });
    // A new config whose Admin settings differ from its template's.
    const tpl = (await api('GET', '/api/cps/fwVerConfig')).body[0].config_json;
    const fromTpl = await api('PUT', `/api/cps/${cpId}/cpConfig`, { fw_ver: 'AC-1.0.0', config_json: withValue(tpl, 'UART Port', 'RS232') }, everyone);
    expect(fromTpl.body.fields).toEqual({ 'UART Port': 'not_permitted' });
    expect(JSON.stringify(await rows(cpId))).toBe(before);

    // The Everyone setting, with the Admin ones sent back unchanged (and the read defaults included): fine.
    const ok = await put(everyone, withValue(row.config_json, 'Window', 'Shrink'));
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.data.config_json.Window.Value).toBe('Shrink');
    const okAdmin = await put(cfgAdmin, withValue(ok.body.data.config_json, 'Network Timeout (ms)', 1000));
    expect(okAdmin.status).toBe(200);
    expect(okAdmin.body.data.config_json['Network Timeout (ms)'].Value).toBe(1000);
  });

  it('needs READ_CP_CONFIG to read, CREATE/EDIT_CP_CONFIG to write, READ_DELETE to delete (403, nothing changed)', async () => {
    const reader = await userWith(s, 'cfg_reader', [P.CP_CONFIG], 'all');
    const none = await userWith(s, 'cfg_none', [], 'all');
    const [row] = await rows(cpId);
    const before = JSON.stringify(await rows(cpId));
    expect((await api('GET', `/api/cps/${cpId}/cpConfig`, undefined, none)).status).toBe(403);
    expect((await api('GET', `/api/cps/fwVerConfig`, undefined, none)).status).toBe(403);
    expect((await api('GET', `/api/cps/${cpId}/cpConfig`, undefined, reader)).status).toBe(200);
    expect((await api('PUT', `/api/cps/${cpId}/cpConfig`, { fw_ver: 'AC-1.0.0' }, reader)).status).toBe(403);
    expect((await api('PUT', `/api/cps/${cpId}/cpConfig`, { cp_config_id: row.cp_config_id, description: 'no' }, reader)).status).toBe(403);
    expect((await api('PUT', `/api/cps/${cpId}/cpConfig`, { cp_config_id: row.cp_config_id, current: 1 }, reader)).status).toBe(403);
    expect((await api('DELETE', `/api/cps/${row.cp_config_id}/cpConfig`, undefined, reader)).status).toBe(403);
    // The editor without READ_DELETE.
    const editor = await userWith(s, 'cfg_editor', [P.CP_CONFIG, editPrivilege('cp_config')], 'all');
    expect((await api('DELETE', `/api/cps/${row.cp_config_id}/cpConfig`, undefined, editor)).status).toBe(403);
    expect(JSON.stringify(await rows(cpId))).toBe(before);
  });

  it('keeps site-restricted users to their sites', async () => {
    const elsewhere = await userWith(s, 'cfg_elsewhere', [P.CP_CONFIG, createPrivilege('cp_config'), editPrivilege('cp_config'), P.DELETE], [otherLoc]);
    const [row] = await rows(cpId);
    const before = JSON.stringify(await rows(cpId));
    const nf = { status: 'error', errorCode: 10001 };
    expect((await api('GET', `/api/cps/${cpId}/cpConfig`, undefined, elsewhere)).body).toEqual(nf);
    expect((await api('PUT', `/api/cps/${cpId}/cpConfig`, { fw_ver: 'AC-1.0.0' }, elsewhere)).body).toEqual(nf);
    expect((await api('PUT', `/api/cps/${cpId}/cpConfig`, { cp_config_id: row.cp_config_id, current: 1 }, elsewhere)).body).toEqual(nf);
    expect((await api('DELETE', `/api/cps/${row.cp_config_id}/cpConfig`, undefined, elsewhere)).body).toEqual(nf);
    expect(JSON.stringify(await rows(cpId))).toBe(before);
  });

  it('making a config current sends it: ChangeConfiguration for OCPP keys, DataTransfer for the rest, answers recorded', async () => {
    const first = await create(cpId);
    const second = await create(cpId);
    answers.MeterValueSampleInterval = 'Rejected';
    answers.StopTransactionOnEVSideDisconnect = 'Accepted';
    received.length = 0;
    const res = await api('PUT', `/api/cps/${cpId}/cpConfig`, {
      cp_config_id: first.cp_config_id,
      current: 1,
      config_json: withValue(first.config_json, 'End upon state A', 'Yes'),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const sent = res.body.data;
    expect(sent.current).toBe(1);
    expect(sent.last_sent['End upon state A']).toBe('Accepted');
    expect(sent.last_sent['Meter Value Sample Interval (s)']).toBe('Rejected');
    expect(sent.last_sent['Time Zone']).toBe('Accepted');
    expect(sent.last_sent['Custom Fields']).toBe('Accepted');
    expect(Object.keys(sent.last_sent)).toHaveLength(Object.keys(sent.config_json).length);
    expect(sent.pending).toBe(0);
    expect(sent.sent_dttm).toBeTruthy();
    expect(received).toContainEqual(['ChangeConfiguration', { key: 'StopTransactionOnEVSideDisconnect', value: 'true' }]);
    expect(received).toContainEqual(['ChangeConfiguration', { key: 'MeterValueSampleInterval', value: '60' }]);
    expect(received).toContainEqual(['DataTransfer', { vendorId: 'Acme', messageId: 'SetConfig', data: JSON.stringify({ key: 'Time Zone', value: 8 }) }]);
    expect(received.filter(([a]) => a === 'ChangeConfiguration')).toHaveLength(2);

    // Another made current: the first is no longer current; RebootRequired leaves it pending.
    answers.MeterValueSampleInterval = 'RebootRequired';
    const res2 = await api('PUT', `/api/cps/${cpId}/cpConfig`, { cp_config_id: second.cp_config_id, current: 1 });
    expect(res2.body.data).toMatchObject({ current: 1, pending: 1 });
    expect(res2.body.data.last_sent['Meter Value Sample Interval (s)']).toBe('RebootRequired');
    const current = (await rows(cpId)).filter((r) => r.current === 1).map((r) => r.cp_config_id);
    expect(current).toEqual([second.cp_config_id]);
    // A current config is not made non-current by itself.
    expect((await api('PUT', `/api/cps/${cpId}/cpConfig`, { cp_config_id: second.cp_config_id, current: 0 })).body.fields).toEqual({ current: 'not_editable' });
  });

  it('a charger that is not connected: every setting recorded Offline, the config pending', async () => {
    const c = await create(offlineId);
    const res = await api('PUT', `/api/cps/${offlineId}/cpConfig`, { cp_config_id: c.cp_config_id, current: 1 });
    expect(res.body.data).toMatchObject({ current: 1, pending: 1 });
    expect(new Set(Object.values(res.body.data.last_sent))).toEqual(new Set(['Offline']));
    const [stored] = await s.db.query(`SELECT last_sent, pending FROM cp_config WHERE cp_config_id = $1`, [c.cp_config_id]);
    expect(stored.pending).toBe(1);
    expect(stored.last_sent['Time Zone']).toBe('Offline');

    // Two configs made current at the same moment: both saves succeed, one after the other, and one is current.
    const a = await create(offlineId);
    const b = await create(offlineId);
    const both = await Promise.all([a, b].map((x) => api('PUT', `/api/cps/${offlineId}/cpConfig`, { cp_config_id: x.cp_config_id, current: 1 })));
    expect(both.map((r) => r.status)).toEqual([200, 200]);
    expect((await rows(offlineId)).filter((r) => r.current === 1)).toHaveLength(1);
  });

  it('a Range value must be a whole number of steps: 400 naming the setting, nothing changed', async () => {
    const c = await create(cpId);
    const before = JSON.stringify(await rows(cpId));
    const put = (name: string, value: unknown) =>
      api('PUT', `/api/cps/${cpId}/cpConfig`, { cp_config_id: c.cp_config_id, config_json: withValue(c.config_json, name, value) });
    const offStep = await put('Auto Unlock Interval (ms)', 33);
    expect(offStep.status).toBe(400);
    expect(offStep.body).toEqual({ errors: ['Auto Unlock Interval (ms): not_on_step'], fields: { 'Auto Unlock Interval (ms)': 'not_on_step' } });
    expect((await put('Network Timeout (ms)', 750)).body.fields).toEqual({ 'Network Timeout (ms)': 'not_on_step' });
    expect((await put('Time Select Interval Min', 16)).body.fields).toEqual({ 'Time Select Interval Min': 'not_on_step' });
    // Also when creating, and in a setting of the operator's own with a decimal step.
    const own = { ...c.config_json, Gain: { Type: 'Range', Authority: 'Everyone', Value: 0.35, Option: [0, 1, 0.1] } };
    expect((await api('PUT', `/api/cps/${cpId}/cpConfig`, { fw_ver: 'AC-1.0.0', config_json: JSON.stringify(own) })).body.fields).toEqual({ Gain: 'not_on_step' });
    expect(JSON.stringify(await rows(cpId))).toBe(before);

    expect((await put('Auto Unlock Interval (ms)', 3300)).body.data.config_json['Auto Unlock Interval (ms)'].Value).toBe(3300);
    // The spec §5 default (15 in 1 to 30, step 5) counts its steps from zero.
    expect((await put('Time Select Interval Min', 15)).status).toBe(200);
    own.Gain.Value = 0.3;
    expect((await api('PUT', `/api/cps/${cpId}/cpConfig`, { cp_config_id: c.cp_config_id, config_json: JSON.stringify(own) })).status).toBe(200);
    await api('DELETE', `/api/cps/${c.cp_config_id}/cpConfig`);
  });

  it('the remote OCPP password is never answered nor logged; left blank it is kept, in an edit and in a copy', async () => {
    const c = await create(cpId);
    const set = await api('PUT', `/api/cps/${cpId}/cpConfig`, { cp_config_id: c.cp_config_id, config_json: withValue(c.config_json, 'Remote OCPP Password', 's3cret-pw') });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.data.config_json['Remote OCPP Password'].Value).toBe('');
    const stored = async (id: number) => (await s.db.query(`SELECT config_json FROM cp_config WHERE cp_config_id = $1`, [id]))[0].config_json;
    expect((await stored(c.cp_config_id))['Remote OCPP Password'].Value).toBe('s3cret-pw');
    const listed = (await api('GET', `/api/cps/${cpId}/cpConfig`)).body.find((r: any) => r.cp_config_id === c.cp_config_id);
    expect(listed.config_json['Remote OCPP Password'].Value).toBe('');

    // The portal sends back what it was answered (blank) with another change: the password stays.
    const edited = await api('PUT', `/api/cps/${cpId}/cpConfig`, { cp_config_id: c.cp_config_id, config_json: withValue(listed.config_json, 'Window', 'Shrink') });
    expect(edited.status).toBe(200);
    expect((await stored(c.cp_config_id))['Remote OCPP Password'].Value).toBe('s3cret-pw');
    const copy = await api('PUT', `/api/cps/${cpId}/cpConfig`, { copy_of: c.cp_config_id, config_json: JSON.stringify(listed.config_json) });
    expect(copy.status).toBe(200);
    expect((await stored(copy.body.data.cp_config_id))['Remote OCPP Password'].Value).toBe('s3cret-pw');
    // Without the Admin settings right the blank password is no change; a new one is refused.
    const everyone = await userWith(s, 'cfg_secret', [P.CP_CONFIG, editPrivilege('cp_config')], 'all');
    const mine = (pw: string) => api('PUT', `/api/cps/${cpId}/cpConfig`, { cp_config_id: c.cp_config_id, config_json: withValue(listed.config_json, 'Remote OCPP Password', pw) }, everyone);
    expect((await mine('')).status).toBe(200);
    expect((await mine('other')).body.fields).toEqual({ 'Remote OCPP Password': 'not_permitted' });

    const logged = await s.db.query(`SELECT 1 FROM portal_action_log WHERE target = 'cp_config' AND (old_data::text LIKE '%s3cret%' OR new_data::text LIKE '%s3cret%')`);
    expect(logged).toEqual([]);
    // The charger is sent the password itself.
    received.length = 0;
    await api('PUT', `/api/cps/${cpId}/cpConfig`, { cp_config_id: copy.body.data.cp_config_id, current: 1 });
    expect(received).toContainEqual(['DataTransfer', { vendorId: 'Acme', messageId: 'SetConfig', data: JSON.stringify({ key: 'Remote OCPP Password', value: 's3cret-pw' }) }]);
  });

  it('does not take the generic routes of cps', async () => {
    expect((await api('GET', `/api/cps/${cpId}`)).body.cp_id ?? (await api('GET', `/api/cps/${cpId}`)).body.data?.cp_id).toBe(cpId);
    expect((await api('GET', `/api/cps/checkDelete/${cpId}`)).status).toBe(200);
  });
});
