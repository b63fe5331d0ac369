import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RPCClient } from 'ocpp-rpc';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { addCharger, addSite, BOOT, connectCharger } from '../testing/ocpp-support.ts';

describe('OCPP messages from the charger', () => {
  let s: TestServer;
  let cp: RPCClient;
  let cpId: number;
  let locId: number;
  beforeAll(async () => {
    s = await startTestServer();
    locId = await addSite(s.db);
    cpId = await addCharger(s.db, 'CP-M1', { locId, heartbeatInterval: 45 });
    cp = await connectCharger(s.wsUrl, 'CP-M1');
  });
  afterAll(async () => {
    await cp.close();
    await s.close();
  });

  const lastRequest = async (type: number) =>
    (await s.db.query(`SELECT * FROM cp_requests WHERE cp_id = $1 AND request_type = $2 ORDER BY req_id DESC LIMIT 1`, [cpId, type]))[0];

  it('BootNotification: Accepted with the heartbeat interval, identity stored in cps, logged', async () => {
    const res: any = await cp.call('BootNotification', {
      ...BOOT, chargePointSerialNumber: 'SN-1', chargeBoxSerialNumber: 'BOX-1', firmwareVersion: '1.2.3',
      iccid: 'ICC', imsi: 'IMSI', meterType: 'MT', meterSerialNumber: 'MSN',
    });
    expect(res).toMatchObject({ status: 'Accepted', interval: 45 });
    const [row] = await s.db.query(`SELECT * FROM cps WHERE cp_id = $1`, [cpId]);
    expect(row).toMatchObject({
      charge_point_vendor: 'Acme', charge_point_model: 'AC22', charge_point_serial_number: 'SN-1',
      charge_box_serial_number: 'BOX-1', firmware_version: '1.2.3', iccid: 'ICC', imsi: 'IMSI', meter_type: 'MT',
      meter_serial_number: 'MSN',
    });
    expect(row.boot_dttm).not.toBeNull();
    const req = await lastRequest(1);
    expect(req).toMatchObject({ cp_no: 'CP-M1', loc: locId, request_data: expect.objectContaining({ chargePointVendor: 'Acme' }) });
    expect(req.response_data).toMatchObject({ status: 'Accepted', interval: 45 });
    expect(req.uuid).toBeTruthy();
  });

  it('Heartbeat: current time, logged as type 6', async () => {
    const res: any = await cp.call('Heartbeat', {});
    expect(Math.abs(Date.parse(res.currentTime) - Date.now())).toBeLessThan(5000);
    expect(await lastRequest(6)).toBeDefined();
  });

  it('StatusNotification: connectors upserted, cps columns set, an older queued status ignored', async () => {
    const t0 = new Date(Date.now() - 60_000).toISOString();
    const t1 = new Date().toISOString();
    await cp.call('StatusNotification', { connectorId: 1, errorCode: 'NoError', status: 'Preparing', timestamp: t0 });
    await cp.call('StatusNotification', { connectorId: 2, errorCode: 'NoError', status: 'Available' });
    await cp.call('StatusNotification', { connectorId: 1, errorCode: 'NoError', status: 'Charging', timestamp: t1 });
    // Replayed from an offline queue: older than what we know, must not win.
    await cp.call('StatusNotification', { connectorId: 1, errorCode: 'GroundFailure', status: 'Faulted', timestamp: t0, vendorErrorCode: 'E1' });
    const conns = await s.db.query(`SELECT connector_id, status, error_code FROM cp_connectors WHERE cp_id = $1 ORDER BY connector_id`, [cpId]);
    expect(conns).toEqual([
      { connector_id: 1, status: 'Charging', error_code: 'NoError' },
      { connector_id: 2, status: 'Available', error_code: 'NoError' },
    ]);
    const [row] = await s.db.query(`SELECT connectora_status, connectorb_status, charging_status, last_status_dttm FROM cps WHERE cp_id = $1`, [cpId]);
    expect(row).toMatchObject({ connectora_status: 'Charging', connectorb_status: 'Available', charging_status: 'Charging' });
    expect(row.last_status_dttm).not.toBeNull();
    const req = await lastRequest(2);
    expect(req).toMatchObject({ connector_id: 1, connector_status: 'Faulted' });
    // Recorded with the charger's own timestamp.
    expect(new Date(req.cre_dttm).toISOString()).toBe(t0);
  });

  it('Authorize: accepted only by an active card valid everywhere, for the site or for the charger', async () => {
    const other = await addSite(s.db);
    await s.db.query(
      `INSERT INTO auth_card (name, rfid_cards, loc, cp, active) VALUES
        ('global', 'G1, G2', NULL, NULL, 1), ('site', 'S1', $1, NULL, 1), ('charger', 's2;C1', NULL, $2, 1),
        ('elsewhere', 'X1', $3, NULL, 1), ('inactive', 'I1', NULL, NULL, 0)`,
      [locId, cpId, other],
    );
    const status = async (idTag: string) => ((await cp.call('Authorize', { idTag })) as any).idTagInfo.status;
    expect(await status('G2')).toBe('Accepted');
    expect(await status('g1')).toBe('Accepted'); // CiString: case-insensitive
    expect(await status('S1')).toBe('Accepted');
    expect(await status('C1')).toBe('Accepted');
    expect(await status('X1')).toBe('Invalid');
    expect(await status('I1')).toBe('Blocked'); // a card known but inactive
    expect(await status('UNKNOWN')).toBe('Invalid');
    expect((await lastRequest(3)).response_data).toEqual({ idTagInfo: { status: 'Invalid' } });
  });

  it('DataTransfer, DiagnosticsStatusNotification and FirmwareStatusNotification are answered and logged', async () => {
    expect(await cp.call('DataTransfer', { vendorId: 'acme', messageId: 'x', data: 'hello' })).toEqual({ status: 'UnknownVendorId' });
    expect(await cp.call('DiagnosticsStatusNotification', { status: 'Uploaded' })).toEqual({});
    expect(await cp.call('FirmwareStatusNotification', { status: 'Installed' })).toEqual({});
    expect((await lastRequest(7)).request_data).toEqual({ vendorId: 'acme', messageId: 'x', data: 'hello' });
    expect((await lastRequest(8)).request_data).toEqual({ status: 'Uploaded' });
    expect((await lastRequest(9)).request_data).toEqual({ status: 'Installed' });
  });

  it('the portal lists them: cp_requests without the noisy types by default, sessions and connectors', async () => {
    const token = await s.login();
    const list = await s.api('GET', `/api/cp_requests?cp_id=${cpId}&size=100`, { token });
    expect(list.status).toBe(200);
    const types = new Set(list.body.dataset.content.map((r: any) => r.request_type));
    expect(types.has(1) && types.has(2) && types.has(3)).toBe(true);
    expect(types.has(6)).toBe(false); // Heartbeat is outside the default filter
    const beats = await s.api('GET', `/api/cp_requests?cp_id=${cpId}&request_type=6`, { token });
    expect(beats.body.dataset.content.length).toBeGreaterThan(0);
    // Connector 0 is the charge point as a whole: stored, but not listed among its connectors.
    await cp.call('StatusNotification', { connectorId: 0, errorCode: 'NoError', status: 'Available' });
    expect(await s.db.query(`SELECT 1 FROM cp_connectors WHERE cp_id = $1 AND connector_id = 0`, [cpId])).toHaveLength(1);
    const conns = await s.api('GET', `/api/cp_connectors?cp_id=${cpId}`, { token });
    expect(conns.body.dataset.content.map((c: any) => c.connector_id)).toEqual([1, 2]);
    // The charger's record lists the same connectors, its times formatted as every other time.
    const record = await s.api('GET', `/api/cps/${cpId}`, { token });
    expect(record.body.cp_connectors.map((c: any) => c.connector_id)).toEqual([1, 2]);
    expect(record.body.cp_connectors[0].last_status_dttm).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect((await s.api('GET', '/api/cp_sessions', { token })).status).toBe(200);
    const opts = await s.api('GET', '/api/options?opts=request_types', { token });
    expect(opts.body.options.request_types).toContainEqual({ label: 'Heartbeat', value: 6 });
  });

  it('answers the list calls as the spec makes them: locId, connector_required, type by name, size 99999', async () => {
    const token = await s.login();
    const [{ loc_id: site }] = await s.db.query(`SELECT loc_id FROM cps WHERE cp_id = $1`, [cpId]);
    const onSite = await s.api('GET', `/api/cps?size=99999&page=0&trash=0&locId=${site}`, { token });
    expect(onSite.status).toBe(200);
    expect(onSite.body.dataset.content.map((c: any) => c.cp_id)).toEqual([cpId]);
    // -1: no site chosen, every site (spec part 2 §7); more in resources/spec-calls.test.ts.
    const anySite = await s.api('GET', '/api/cps?size=99999&page=0&trash=0&locId=-1', { token });
    expect([anySite.status, anySite.body.dataset.content.map((c: any) => c.cp_id)]).toEqual([200, [cpId]]);
    // An RFID card valid everywhere has no site: locId=0 finds it.
    await s.api('POST', '/api/auth_card', { token, body: { name: 'everywhere', rfid_cards: 'ANY-1' } });
    const cards = await s.api('GET', '/api/auth_card?locId=0', { token });
    expect(cards.body.dataset.content.map((c: any) => c.name)).toContain('everywhere');

    const from = Math.floor(Date.now() / 1000) - 3600;
    await cp.call('MeterValues', { connectorId: 2, meterValue: [{ timestamp: new Date().toISOString(), sampledValue: [{ value: '1234' }] }] });
    await cp.call('MeterValues', { connectorId: 1, meterValue: [{ timestamp: new Date().toISOString(), sampledValue: [{ value: '99' }] }] });
    const chart = await s.api('GET', `/api/cp_requests?cp_id=${cpId}&connector_required=2&type=MeterValues&cre_dttm=${from}&cre_dttm=${from + 7200}&size=50000&order=asc&sort_by=req_id`, { token });
    expect(chart.status).toBe(200);
    expect(chart.body.dataset.content.map((r: any) => [r.request_type, r.connector_id, r.energy])).toEqual([[11, 2, 1234]]);
    expect((await s.api('GET', `/api/cp_requests?type=NoSuchMessage`, { token })).status).toBe(400);
  });
});
