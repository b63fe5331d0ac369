import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RPCClient } from 'ocpp-rpc';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { smtpSink } from '../testing/smtp-sink.ts';
import { addCharger, addSite, connectCharger } from '../testing/ocpp-support.ts';
import { AlertNotifier } from './notifier.ts';

interface Mail {
  to: string[];
  subject: string;
  text: string;
}

/** The decoded subject and text of a single-part message as nodemailer writes it. */
function decodeMail(raw: string): { subject: string; text: string } {
  const [head, ...rest] = raw.split(/\r?\n\r?\n/);
  const headers = head.replace(/\r?\n[ \t]+/g, ' ');
  const header = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(headers)?.[1] ?? '';
  const word = (s: string) =>
    s.replace(/=\?utf-8\?([bq])\?([^?]*)\?=\s*/gi, (_m, enc: string, data: string) =>
      enc.toLowerCase() === 'b' ? Buffer.from(data, 'base64').toString('utf8') : qp(data.replace(/_/g, ' ')));
  const qp = (s: string) => Buffer.from(s.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16))), 'latin1').toString('utf8');
  const body = rest.join('\n\n');
  const encoding = header('Content-Transfer-Encoding').toLowerCase();
  const text = encoding === 'base64' ? Buffer.from(body, 'base64').toString('utf8') : encoding === 'quoted-printable' ? qp(body) : body;
  return { subject: word(header('Subject')), text: text.replace(/\r\n/g, '\n') };
}

async function until<T>(what: () => Promise<T | undefined | false>, timeoutMs = 10_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await what();
    if (v) return v;
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('alerts raised from chargers and mailed to contact groups', () => {
  let s: TestServer;
  let smtp: Awaited<ReturnType<typeof smtpSink>>;
  const mails: Mail[] = [];
  let siteA: number;
  let siteB: number;
  const GRACE_MS = 600;

  beforeAll(async () => {
    smtp = await smtpSink((to, raw) => mails.push({ to: to.sort(), ...decodeMail(raw) }));
    s = await startTestServer({ smtpUrl: smtp.url, smtpFrom: 'alerts@example.com', alertOfflineGraceMs: GRACE_MS });
    siteA = await addSite(s.db);
    siteB = await addSite(s.db);
  });
  afterAll(async () => {
    await s.close();
    await smtp.close();
  });

  const openAlerts = (cpId: number) => s.db.query(`SELECT * FROM alert WHERE cp_id = $1 ORDER BY alert_id`, [cpId]);
  const status = (cp: RPCClient, connectorId: number, errorCode: string, status = errorCode === 'NoError' ? 'Available' : 'Faulted') =>
    cp.call('StatusNotification', { connectorId, errorCode, status, info: 'from the test' });

  it('raises one open alert per charger and error, counts detections, fixes it on NoError of that connector', async () => {
    const cpId = await addCharger(s.db, 'ALERT-1', { locId: siteA });
    const cp = await connectCharger(s.wsUrl, 'ALERT-1');
    try {
      await status(cp, 1, 'GroundFailure');
      await status(cp, 1, 'GroundFailure');
      await status(cp, 1, 'GroundFailure');
      const [a] = await until(async () => {
        const rows = await openAlerts(cpId);
        return rows.length === 1 && rows[0].level === 3 && rows;
      });
      const [site] = await s.db.query(`SELECT address FROM cp_locs WHERE loc_id = $1`, [siteA]);
      expect(a).toMatchObject({ cp_no: 'ALERT-1', error_id: 'GroundFailure', loc_id: siteA, location: site.address, is_fixes: 0, fixed_dttm: null });
      expect(a.message).toBe('Connector 1: Faulted, from the test');
      // Another connector's NoError leaves connector 1's alert open; its own fixes it.
      await status(cp, 2, 'NoError');
      await new Promise((r) => setTimeout(r, 300));
      expect((await openAlerts(cpId))[0].is_fixes).toBe(0);
      await status(cp, 1, 'NoError');
      const [fixed] = await until(async () => {
        const rows = (await openAlerts(cpId)).filter((r) => r.is_fixes === 1);
        return rows.length > 0 && rows;
      });
      expect(fixed.alert_id).toBe(a.alert_id);
      expect(fixed.fixed_dttm).not.toBeNull();
      // The same error again is a new alert, counted from 1.
      await status(cp, 1, 'GroundFailure');
      const rows = await until(async () => {
        const r = await openAlerts(cpId);
        return r.length === 2 && r;
      });
      expect(rows[1]).toMatchObject({ error_id: 'GroundFailure', level: 1, is_fixes: 0 });
      const list = await s.api('GET', `/api/alert?cp_no=ALERT-1`, { token: await s.login() });
      expect(list.body.dataset.content.map((r: any) => [r.level, r.is_fixes])).toEqual([[1, 0], [3, 1]]);
    } finally {
      await cp.close();
    }
  });

  it('raises Offline after the grace period, not for a quick reconnect, and fixes it when the charger is back', async () => {
    const cpId = await addCharger(s.db, 'ALERT-2', { locId: siteA });
    let cp = await connectCharger(s.wsUrl, 'ALERT-2');
    await cp.close();
    cp = await connectCharger(s.wsUrl, 'ALERT-2');
    await new Promise((r) => setTimeout(r, GRACE_MS * 2));
    expect(await openAlerts(cpId)).toEqual([]);
    await cp.close();
    const [offline] = await until(async () => openAlerts(cpId).then((r) => r.length > 0 && r));
    expect(offline).toMatchObject({ error_id: 'Offline', is_fixes: 0, level: 1 });
    cp = await connectCharger(s.wsUrl, 'ALERT-2');
    await until(async () => (await openAlerts(cpId))[0].is_fixes === 1);
    await cp.close();
  });

  it('raises the Offline alerts of chargers dropped together in one statement (a network outage is not one INSERT per charger)', async () => {
    const cpIds = await Promise.all(Array.from({ length: 20 }, (_, i) => addCharger(s.db, `ALERT-OUT-${i}`, { locId: siteA })));
    const cps = await Promise.all(cpIds.map((_, i) => connectCharger(s.wsUrl, `ALERT-OUT-${i}`)));
    const query = s.db.query;
    let inserts = 0;
    s.db.query = (text, params, name) => {
      if (text.includes('INSERT INTO alert (')) inserts++;
      return query(text, params, name);
    };
    try {
      await Promise.all(cps.map((cp) => cp.close()));
      const rows = await until(async () => {
        const r = await s.db.query(`SELECT cp_id, error_id, level, is_fixes FROM alert WHERE cp_id = ANY($1::int[])`, [cpIds]);
        return r.length === cpIds.length && r;
      });
      expect(rows.every((r: any) => r.error_id === 'Offline' && r.level === 1 && r.is_fixes === 0)).toBe(true);
      // One IdBatch window: one statement, two if the chargers' timers straddle a window's end.
      expect(inserts).toBeLessThanOrEqual(2);
    } finally {
      s.db.query = query;
    }
  });

  it('mails each group once when an alert reaches its level, to its active contacts, in both languages', async () => {
    const contact = async (name: string, email: string, status = 1) =>
      (await s.db.query(`INSERT INTO contact (name, email, status) VALUES ($1, $2, $3) RETURNING contact_id`, [name, email, status]))[0].contact_id as number;
    const a = await contact('A', 'a@example.com');
    const b = await contact('B', 'b@example.com');
    const off = await contact('Off', 'off@example.com', 0);
    const c = await contact('C', 'c@example.com');
    const d = await contact('D', 'd@example.com');
    const group = (name: string, level: number, contacts: number[], locs: number[], errors: string[]) =>
      s.db.query(`INSERT INTO contact_group (name, level, contact_ids, loc_ids, error_ids) VALUES ($1, $2, $3, $4, $5)`, [name, level, contacts, locs, errors]);
    await group('Every time', 1, [a, b, off], [], ['OverVoltage']);
    await group('Fifth time', 5, [c], [siteA], []);
    await group('Other site', 1, [d], [siteB], []);
    await group('Other error', 1, [d], [], ['WeakSignal']);

    await addCharger(s.db, 'ALERT-3', { locId: siteA });
    const cp = await connectCharger(s.wsUrl, 'ALERT-3');
    try {
      await status(cp, 1, 'OverVoltage');
      const [first] = await until(async () => mails.length > 0 && mails);
      expect(first.to).toEqual(['a@example.com', 'b@example.com']);
      expect(first.subject).toContain('[Alert] ALERT-3: OverVoltage (1)');
      expect(first.subject).toContain('[警報] ALERT-3：電壓過高');
      const [site] = await s.db.query(`SELECT address FROM cp_locs WHERE loc_id = $1`, [siteA]);
      for (const line of ['Charger: ALERT-3', `Site: ${site.address}`, 'Error: Over-voltage (OverVoltage)', 'Message: Connector 1: Faulted, from the test',
        'Continuous detections: 1', '充電樁：ALERT-3', `地點：${site.address}`, '錯誤：電壓過高 (OverVoltage)', '連續偵測次數：1']) {
        expect(first.text).toContain(line);
      }
      expect(first.text).toMatch(/Time: \d{4}-\d\d-\d\d \d\d:\d\d:\d\d/);
      for (let i = 2; i <= 4; i++) await status(cp, 1, 'OverVoltage');
      await new Promise((r) => setTimeout(r, 500));
      expect(mails).toHaveLength(1);
      await status(cp, 1, 'OverVoltage');
      const fifth = (await until(async () => mails.length === 2 && mails))[1];
      expect(fifth.to).toEqual(['c@example.com']);
      expect(fifth.text).toContain('Continuous detections: 5');
      await status(cp, 1, 'OverVoltage');
      await new Promise((r) => setTimeout(r, 500));
      expect(mails).toHaveLength(2);
      const sent = await s.db.query(`SELECT g.name, n.level, n.sent_dttm IS NOT NULL AS sent, n.error FROM alert_notification n
        JOIN contact_group g USING (contact_group_id) ORDER BY n.id`);
      expect(sent).toEqual([
        { name: 'Every time', level: 1, sent: true, error: null },
        { name: 'Fifth time', level: 5, sent: true, error: null },
      ]);
    } finally {
      await cp.close();
    }
  });

  it('tries a failed e-mail again, and records the error when every attempt failed', async () => {
    // A site of its own: the groups of the test before (every code at site B) stay out.
    const siteC = await addSite(s.db);
    const cpId = await addCharger(s.db, 'ALERT-4', { locId: siteC });
    const [contact] = await s.db.query(`INSERT INTO contact (name, email) VALUES ('R', 'r@example.com') RETURNING contact_id`);
    await s.db.query(`INSERT INTO contact_group (name, level, contact_ids, error_ids) VALUES ('Retry', 1, $1, '{ReaderFailure}')`, [[contact.contact_id]]);
    let calls = 0;
    let failures = 1;
    const transport = {
      sendMail: async () => {
        calls++;
        if (failures-- > 0) throw new Error('421 try again later');
        return {};
      },
    } as never;
    const notifier = new AlertNotifier(s.db, s.app.log, transport, 'alerts@example.com', 'UTC', { attempts: 2, retryDelayMs: 10 });
    const raise = async (error: string) => {
      const [a] = await s.db.query(`INSERT INTO alert (cp_id, cp_no, error_id, loc_id) VALUES ($1, 'ALERT-4', $2, $3) RETURNING alert_id`, [cpId, error, siteC]);
      await notifier.onRaised({ alertId: Number(a.alert_id), level: 1 });
      return Number(a.alert_id);
    };
    const outcome = (alertId: number) =>
      until(async () => {
        const [n] = await s.db.query(`SELECT sent_dttm IS NOT NULL AS sent, error FROM alert_notification WHERE alert_id = $1`, [alertId]);
        return n && (n.sent || n.error) && n;
      });
    expect(await outcome(await raise('ReaderFailure'))).toEqual({ sent: true, error: null });
    expect(calls).toBe(2);
    await s.db.query(`UPDATE alert SET is_fixes = 1 WHERE cp_id = $1`, [cpId]);
    failures = 5;
    expect(await outcome(await raise('ReaderFailure'))).toEqual({ sent: false, error: '421 try again later' });
    expect(calls).toBe(4);
    await notifier.stop();
  });
});
