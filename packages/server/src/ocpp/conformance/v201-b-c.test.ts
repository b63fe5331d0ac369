/**
 * OCTT 2.0.1 (CSMS) blocks B (provisioning) and C (authorization); blocks E and J are in v201-e-j.test.ts.
 *
 * Covered (B): TC_B_01_CSMS cold boot Accepted (fields stored, interval, Heartbeat), B01 messages before the boot
 * (handled under the default boot answer, accept), TC_B_02/TC_B_30/TC_B_31/TC_B_03_CSMS (Pending, Pending then
 * Accepted, GetVariables while Pending, Rejected: the provision and reject boot answers, v201-b-boot.test.ts),
 * TC_B_06/TC_B_07_CSMS GetVariables single and several (config read-back route), TC_B_09_CSMS SetVariables
 * (Accepted, Rejected, UnknownVariable), TC_B_20_CSMS Reset OnIdle (Soft), TC_B_22_CSMS Reset Immediate (Hard),
 * TC_B_58_CSMS subprotocol (ocpp2.0.1 chosen); OCPP-J 2.0.1 §4.3 CALLERROR codes for a broken BootNotification
 * and a 1.6-only action; TC_B_25-27 Reset of one EVSE (v201-evse.test.ts).
 * Not covered (B): TC_B_08
 * (ItemsPerMessageGetVariables: the portal asks at most its key table), TC_B_10 (SetVariables of several at once:
 * the portal sets one key), TC_B_12-14/TC_B_18 base and custom reports (the device-model lane), TC_B_21
 * (Reset with a transaction: not separately scripted), TC_B_42/TC_B_44 (no SetNetworkProfile).
 * Covered (C): C01 Accepted (case-insensitive card number), TC_C_02_CSMS Invalid/Unknown (also an empty idToken,
 * which names no card), TC_C_06_CSMS Blocked (an inactive card, an inactive account), a member's card at another
 * site; TC_C_08/TC_C_20_CSMS (idToken first seen in a TransactionEvent) are in v201-e-j. The idTokenInfo shape is
 * checked by the strict client.
 * Not covered (C): TC_C_07 Expired (cards have no expiry here: an expired holder is an inactive one, Blocked),
 * TC_C_37/38 ClearCache (commands lane), TC_C_39-43 GroupId (only a reservation's holder gets a groupIdToken),
 * TC_C_47-49 Master Pass, TC_C_50-52 ISO 15118 certificates (no OCSP).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RPCClient } from 'ocpp-rpc';
import WebSocket from 'ws';
import { startTestServer, type TestServer } from '../../testing/server.ts';
import { addCard, addCharger, addSite, connectCharger } from '../../testing/ocpp-support.ts';

const STATION = { model: 'OCTT-201', vendorName: 'OCTT', serialNumber: 'SN-201', firmwareVersion: '2.0.1-fw' };

/** The station's device model as the tool holds it: component.variable → value (readonly ones refuse a set). */
const VARIABLES: Record<string, { value: string; readonly?: boolean }> = {
  'OCPPCommCtrlr.HeartbeatInterval': { value: '300' },
  'SampledDataCtrlr.TxUpdatedInterval': { value: '60' },
  'AuthCtrlr.AuthorizeRemoteStart': { value: 'true', readonly: true },
};

/** A raw 2.0.1 socket: sends what a strict client would refuse to, and reads the answer frame. */
async function rawCall(wsUrl: string, cpNo: string, frame: unknown[] | string, protocol = 'ocpp2.0.1'): Promise<unknown[]> {
  const ws = new WebSocket(`${wsUrl}/ocpp/${cpNo}`, [protocol]);
  try {
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    expect(ws.protocol).toBe(protocol);
    const answer = new Promise<unknown[]>((resolve) => ws.once('message', (data) => resolve(JSON.parse(data.toString()))));
    ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
    return await answer;
  } finally {
    ws.close();
  }
}

describe('OCTT 2.0.1 CSMS: B provisioning, C authorization', () => {
  let s: TestServer;
  let admin: string;
  let cpId: number;
  let locId: number;
  let station: RPCClient;
  const received: { action: string; params: any }[] = [];
  const last = (action: string) => received.filter((r) => r.action === action).at(-1)?.params;

  beforeAll(async () => {
    s = await startTestServer();
    admin = await s.login();
    locId = await addSite(s.db);
    cpId = await addCharger(s.db, 'OCTT-201-B', { locId, heartbeatInterval: 120 });
    await addCharger(s.db, 'OCTT-201-RAW', { locId });
    station = await connectCharger(s.wsUrl, 'OCTT-201-B', {
      protocol: 'ocpp2.0.1',
      handlers: {
        Reset: (p) => (received.push({ action: 'Reset', params: p }), { status: 'Accepted' }),
        GetVariables: (p) => {
          received.push({ action: 'GetVariables', params: p });
          return {
            getVariableResult: p.getVariableData.map((d: any) => {
              const known = VARIABLES[`${d.component.name}.${d.variable.name}`];
              return { component: d.component, variable: d.variable, attributeStatus: known ? 'Accepted' : 'UnknownVariable', ...(known ? { attributeValue: known.value } : {}) };
            }),
          };
        },
        SetVariables: (p) => {
          received.push({ action: 'SetVariables', params: p });
          return {
            setVariableResult: p.setVariableData.map((d: any) => {
              const known = VARIABLES[`${d.component.name}.${d.variable.name}`];
              const attributeStatus = !known ? 'UnknownVariable' : known.readonly ? 'Rejected' : 'Accepted';
              if (attributeStatus === 'Accepted') known!.value = d.attributeValue;
              return { component: d.component, variable: d.variable, attributeStatus };
            }),
          };
        },
      },
    });
  });
  afterAll(async () => {
    await station.close({ force: true });
    await s.close();
  });

  const api = (method: string, path: string, body?: unknown) => s.api(method, path, { token: admin, body });
  const cp = async () => (await s.db.query(`SELECT * FROM cps WHERE cp_id = $1`, [cpId]))[0];

  it('B01 messages before the BootNotification are answered (the default boot answer, accept)', async () => {
    const hb = await station.call('Heartbeat', {}) as { currentTime: string };
    expect(Math.abs(Date.parse(hb.currentTime) - Date.now())).toBeLessThan(60_000);
    await station.call('StatusNotification', { timestamp: new Date().toISOString(), connectorStatus: 'Available', evseId: 1, connectorId: 1 });
    expect((await cp()).connectora_status).toBe('Available');
  });

  it('TC_B_01_CSMS Cold Boot Charging Station - Accepted', async () => {
    const boot = await station.call('BootNotification', { reason: 'PowerUp', chargingStation: { ...STATION, modem: { iccid: 'ICCID-1', imsi: 'IMSI-1' } } }) as any;
    // B01.FR.xx: Accepted with the heartbeat interval the portal set for the charger and the central system's time.
    expect(boot).toMatchObject({ status: 'Accepted', interval: 120 });
    expect(Math.abs(Date.parse(boot.currentTime) - Date.now())).toBeLessThan(60_000);
    expect(await cp()).toMatchObject({
      ocpp_protocol: 'ocpp2.0.1', online_flag: 1, charge_point_vendor: 'OCTT', charge_point_model: 'OCTT-201',
      charge_point_serial_number: 'SN-201', firmware_version: '2.0.1-fw', iccid: 'ICCID-1', imsi: 'IMSI-1',
    });
    for (const evseId of [1, 2]) {
      await station.call('StatusNotification', { timestamp: new Date().toISOString(), connectorStatus: 'Available', evseId, connectorId: 1 });
    }
    expect(await cp()).toMatchObject({ connectora_status: 'Available', connectorb_status: 'Available' });
    // G02 Heartbeat after the boot: the central system's time.
    const hb = await station.call('Heartbeat', {}) as { currentTime: string };
    expect(Math.abs(Date.parse(hb.currentTime) - Date.now())).toBeLessThan(60_000);
    const [row] = await s.db.query(`SELECT request_type, request_data FROM cp_requests WHERE cp_id = $1 AND request_type = 101 ORDER BY req_id DESC LIMIT 1`, [cpId]);
    expect(row.request_data.chargingStation.serialNumber).toBe('SN-201');
  });

  it('TC_B_58_CSMS WebSocket subprotocol: ocpp2.0.1 is chosen when offered beside ocpp1.6', async () => {
    expect(station.protocol).toBe('ocpp2.0.1');
    const ws = new WebSocket(`${s.wsUrl}/ocpp/OCTT-201-RAW`, ['ocpp1.6', 'ocpp2.0.1']);
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    expect(ws.protocol).toBe('ocpp2.0.1');
    ws.close();
  });

  it('TC_B_06_CSMS / TC_B_07_CSMS Get Variables - single and multiple values (configuration read-back)', async () => {
    const one = await api('POST', `/api/cps/${cpId}/getConfiguration`, { keys: ['HeartbeatInterval'] });
    expect(last('GetVariables')).toEqual({ getVariableData: [{ component: { name: 'OCPPCommCtrlr' }, variable: { name: 'HeartbeatInterval' } }] });
    expect(one.body.configurationKey).toEqual([expect.objectContaining({ key: 'HeartbeatInterval', value: '300' })]);

    // Several at once; one the station does not know (UnknownVariable) and one with no 2.0.1 variable at all.
    const many = await api('POST', `/api/cps/${cpId}/getConfiguration`, { keys: ['HeartbeatInterval', 'MeterValueSampleInterval', 'ResetRetries', 'NoSuchKey'] });
    expect(last('GetVariables').getVariableData).toHaveLength(3);
    expect(many.body.configurationKey.map((k: any) => [k.key, k.value])).toEqual(expect.arrayContaining([['HeartbeatInterval', '300'], ['MeterValueSampleInterval', '60']]));
    expect(many.body.unknownKey).toEqual(expect.arrayContaining(['ResetRetries', 'NoSuchKey']));
  });

  it('TC_B_09_CSMS Set Variables - Accepted, Rejected, UnknownVariable', async () => {
    const set = (key: string, value: string) => api('POST', `/api/cps/${cpId}/changeConfiguration`, { key, value });
    expect((await set('HeartbeatInterval', '90')).body).toEqual({ key: 'HeartbeatInterval', answer: 'Accepted' });
    expect(last('SetVariables')).toEqual({ setVariableData: [{ component: { name: 'OCPPCommCtrlr' }, variable: { name: 'HeartbeatInterval' }, attributeValue: '90' }] });
    expect(VARIABLES['OCPPCommCtrlr.HeartbeatInterval'].value).toBe('90');
    expect((await set('AuthorizeRemoteTxRequests', 'false')).body).toEqual({ key: 'AuthorizeRemoteTxRequests', answer: 'Rejected' });
    expect((await set('ResetRetries', '3')).body).toEqual({ key: 'ResetRetries', answer: 'NotSupported' });
    // A 1.6 key with no 2.0.1 variable is refused without a message to the station.
    const sent = received.length;
    const none = await set('NoSuchKey', '1');
    expect(none.status).toBeLessThan(500);
    expect(none.body.answer).toBeUndefined();
    expect(received.length).toBe(sent);
  });

  it('TC_B_20_CSMS Reset Charging Station - OnIdle (the portal\'s Soft reset)', async () => {
    const res = await api('GET', `/api/cps/rsrResetCharger/${cpId}?type=Soft`);
    expect(res.body).toMatchObject({ status: 'success' });
    expect(last('Reset')).toEqual({ type: 'OnIdle' });
  });

  it('TC_B_22_CSMS Reset Charging Station - Immediate (the portal\'s Hard reset)', async () => {
    const res = await api('GET', `/api/cps/rsrResetCharger/${cpId}?type=Hard`);
    expect(res.body).toMatchObject({ status: 'success' });
    expect(last('Reset')).toEqual({ type: 'Immediate' });
    const [sent] = await s.db.query(`SELECT request_data FROM cp_requests WHERE cp_id = $1 AND request_data->>'type' = 'Immediate'`, [cpId]);
    expect(sent).toBeTruthy();
  });

  it('OCPP-J 2.0.1 §4.3: a BootNotification missing a required field gets OccurrenceConstraintViolation (2.0.1 spelling)', async () => {
    const [type, id, code] = await rawCall(s.wsUrl, 'OCTT-201-RAW', [2, 'b-1', 'BootNotification', { reason: 'PowerUp', chargingStation: { vendorName: 'X' } }]);
    expect([type, id]).toEqual([4, 'b-1']);
    expect(code).toBe('OccurrenceConstraintViolation');
    const [, , unknownProperty] = await rawCall(s.wsUrl, 'OCTT-201-RAW', [2, 'b-2', 'BootNotification', { reason: 'PowerUp', chargingStation: { vendorName: 'X', model: 'Y' }, extra: 1 }]);
    expect(unknownProperty).toBe('FormatViolation');
  });

  it('OCPP-J 2.0.1 §4.3: a 1.6-only action (StartTransaction) on a 2.0.1 connection is NotImplemented', async () => {
    const [type, id, code] = await rawCall(s.wsUrl, 'OCTT-201-RAW', [2, 'st-1', 'StartTransaction', { connectorId: 1, idTag: 'X', meterStart: 0, timestamp: new Date().toISOString() }]);
    expect([type, id]).toEqual([4, 'st-1']);
    expect(['NotImplemented', 'NotSupported']).toContain(code);
    // And the other way round: a 2.0.1-only action on a 1.6 connection.
    const [, , code16] = await rawCall(s.wsUrl, 'OCTT-201-RAW', [2, 'te-1', 'TransactionEvent', {}], 'ocpp1.6');
    expect(['NotImplemented', 'NotSupported']).toContain(code16);
  });

  it('OCPP-J 2.0.1 §4.3: a frame whose message id cannot be read gets RpcFrameworkError, not the 1.6 FormationViolation', async () => {
    const [type, , code] = await rawCall(s.wsUrl, 'OCTT-201-RAW', '[2, 17, "Heartbeat", {}]');
    expect(type).toBe(4);
    expect(code).toBe('RpcFrameworkError');
  });

  describe('C01 Authorize', () => {
    const authorize = (idToken: string) => station.call('Authorize', { idToken: { idToken, type: 'ISO14443' } }) as Promise<any>;

    it('C01 Authorize a known card - Accepted (idTokenInfo as 2.0.1 shapes it)', async () => {
      await addCard(s.db, ['04A1B2C3D4']);
      expect(await authorize('04a1b2c3d4')).toEqual({ idTokenInfo: { status: 'Accepted' } });
    });

    it('TC_C_02_CSMS Local start transaction - Authorization Invalid/Unknown', async () => {
      expect(await authorize('04FFFFFFFF')).toEqual({ idTokenInfo: { status: 'Invalid' } });
    });

    it('TC_C_02_CSMS an empty idToken names no card: a member without cards is not matched', async () => {
      await s.db.query(`INSERT INTO accounts (first_name, rfid_cards, acc_status) VALUES ('no cards', '', 1)`);
      expect(await station.call('Authorize', { idToken: { idToken: '', type: 'KeyCode' } })).toEqual({ idTokenInfo: { status: 'Invalid' } });
    });

    it('TC_C_06_CSMS Local start transaction - Authorization Blocked (an inactive card, a member whose account is inactive)', async () => {
      await s.db.query(`INSERT INTO auth_card (name, rfid_cards, active) VALUES ('blocked', '04B10CED', 0)`);
      expect(await authorize('04B10CED')).toEqual({ idTokenInfo: { status: 'Blocked' } });
      await s.db.query(`INSERT INTO accounts (first_name, rfid_cards, acc_status) VALUES ('left', '04AC0001', 0)`);
      expect(await authorize('04AC0001')).toEqual({ idTokenInfo: { status: 'Blocked' } });
    });

    it('C01 a member\'s card valid at another site only - Invalid here', async () => {
      const other = await addSite(s.db);
      await s.db.query(`INSERT INTO accounts (first_name, rfid_cards, acc_status, loc_ids) VALUES ('elsewhere', '04AC0002', 1, $1)`, [[other]]);
      expect(await authorize('04AC0002')).toEqual({ idTokenInfo: { status: 'Invalid' } });
      await s.db.query(`UPDATE accounts SET loc_ids = $1 WHERE first_name = 'elsewhere'`, [[other, locId]]);
      expect(await authorize('04AC0002')).toEqual({ idTokenInfo: { status: 'Accepted' } });
    });
  });
});
