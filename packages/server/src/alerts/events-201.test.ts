import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RPCClient } from 'ocpp-rpc';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { smtpSink } from '../testing/smtp-sink.ts';
import { addCharger, addSite, connectCharger, eventually } from '../testing/ocpp-support.ts';

/** A 2.0.1 station's NotifyEvent problems and critical security events become alerts as a 1.6 charger's errors do. */
describe('alerts from OCPP 2.0.1 station events', () => {
  let s: TestServer;
  let smtp: Awaited<ReturnType<typeof smtpSink>>;
  const recipients: string[][] = [];
  let cpId: number;
  let station: RPCClient;

  beforeAll(async () => {
    smtp = await smtpSink((to) => recipients.push(to));
    s = await startTestServer({ smtpUrl: smtp.url, smtpFrom: 'alerts@example.com', logLevel: 'error' });
    const locId = await addSite(s.db);
    cpId = await addCharger(s.db, 'ALERT-201', { locId });
    const [contact] = await s.db.query(`INSERT INTO contact (name, email) VALUES ('Sec', 'sec@example.com') RETURNING contact_id`);
    await s.db.query(
      `INSERT INTO contact_group (name, level, contact_ids, error_ids) VALUES ('Security', 1, $1, '{TamperDetectionActivated,OtherError}')`,
      [[contact.contact_id]],
    );
    station = await connectCharger(s.wsUrl, 'ALERT-201', { protocol: 'ocpp2.0.1' });
  });
  afterAll(async () => {
    await station.close();
    await s.close();
    await smtp.close();
  });

  const alerts = () => s.db.query(`SELECT * FROM alert WHERE cp_id = $1 ORDER BY alert_id`, [cpId]);
  const settle = () => new Promise((r) => setTimeout(r, 300));
  let eventId = 0;
  const event = (over: Record<string, unknown>) => ({
    eventId: ++eventId, timestamp: new Date().toISOString(), trigger: 'Delta', actualValue: 'true', eventNotificationType: 'HardWiredNotification',
    component: { name: 'Connector', evse: { id: 1, connectorId: 1 } }, variable: { name: 'Problem' }, ...over,
  });
  const notify = (...eventData: Record<string, unknown>[]) =>
    station.call('NotifyEvent', { generatedAt: new Date().toISOString(), seqNo: 0, eventData });

  it('a Problem reported true raises the connector\'s alert (mailed), counted again; reported false fixes it', async () => {
    await notify(event({ techCode: 'E42', techInfo: 'cable damaged' }));
    await eventually(async () => (await alerts()).length === 1);
    const [raised] = await alerts();
    expect(raised).toMatchObject({ error_id: 'OtherError', level: 1, is_fixes: 0, message: 'Connector 1: Connector Problem = true, tech code E42, cable damaged' });
    await eventually(async () => recipients.length === 1);
    expect(recipients[0]).toEqual(['sec@example.com']);
    await notify(event({}));
    await eventually(async () => (await alerts())[0].level === 2);
    // Not a problem: a periodic report of it, another variable's delta, the problem of another EVSE cleared.
    await notify(
      event({ trigger: 'Periodic' }),
      event({ variable: { name: 'AvailabilityState' }, actualValue: 'Available' }),
      event({ actualValue: 'false', component: { name: 'EVSE', evse: { id: 2 } } }),
    );
    await settle();
    expect((await alerts()).map((a) => [a.level, a.is_fixes])).toEqual([[2, 0]]);
    await notify(event({ actualValue: 'false' }));
    await eventually(async () => (await alerts())[0].is_fixes === 1);
  });

  it('a component\'s fault is its 1.6 error code; a threshold monitor\'s Alerting raises and its cleared event fixes', async () => {
    await notify(event({ component: { name: 'RCD', evse: { id: 2 } }, variable: { name: 'Tripped' } }));
    await notify(event({ trigger: 'Alerting', eventNotificationType: 'HardWiredMonitor', actualValue: '85', component: { name: 'ChargingStation' }, variable: { name: 'Temperature' } }));
    const open = async () => (await alerts()).filter((a) => a.is_fixes === 0).map((a) => [a.error_id, a.message]);
    await eventually(async () => (await open()).length === 2);
    expect(await open()).toEqual([
      ['GroundFailure', 'Connector 2: RCD Tripped = true'],
      ['HighTemperature', 'Connector 0: ChargingStation Temperature = 85'],
    ]);
    await notify(event({ trigger: 'Alerting', eventNotificationType: 'HardWiredMonitor', actualValue: '60', cleared: true, component: { name: 'ChargingStation' }, variable: { name: 'Temperature' } }));
    await eventually(async () => (await open()).length === 1);
    expect((await open())[0][0]).toBe('GroundFailure');
  });

  it('a critical security event is an alert of its own, mailed; a routine one is only logged', async () => {
    const mailed = recipients.length;
    await station.call('SecurityEventNotification', { type: 'StartupOfTheDevice', timestamp: new Date().toISOString() });
    await station.call('SecurityEventNotification', { type: 'TamperDetectionActivated', timestamp: new Date().toISOString(), techInfo: 'door opened' });
    await station.call('SecurityEventNotification', { type: 'TamperDetectionActivated', timestamp: new Date().toISOString() });
    const security = async () => (await alerts()).filter((a) => a.error_id !== 'OtherError' && a.error_id !== 'GroundFailure' && a.error_id !== 'HighTemperature');
    await eventually(async () => (await security()).length === 2);
    expect((await security()).map((a) => [a.error_id, a.message, a.level, a.is_fixes])).toEqual([
      ['TamperDetectionActivated', 'Security event TamperDetectionActivated: door opened', 1, 1],
      ['TamperDetectionActivated', 'Security event TamperDetectionActivated', 1, 1],
    ]);
    await eventually(async () => recipients.length === mailed + 2);
    // Both are in the message log as the station sent them.
    const [{ n }] = await s.db.query(`SELECT count(*)::int AS n FROM cp_requests WHERE cp_id = $1 AND request_type = 111`, [cpId]);
    expect(n).toBe(3);
  });
});
