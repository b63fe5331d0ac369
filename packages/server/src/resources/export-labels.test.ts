import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { staticOptionItems } from '@ev/core';
import { addCharger } from '../testing/ocpp-support.ts';
import { startTestServer, type TestServer } from '../testing/server.ts';

/** An export says what the list says (issue 30): labels, not ids; yes/no, not 1/0; connectors as lines of labelled values. */
describe('Excel export as the screen shows it', () => {
  let s: TestServer;
  let token: string;

  beforeAll(async () => {
    s = await startTestServer();
    token = await s.login();
    const [site] = await s.db.query(`INSERT INTO cp_locs (address) VALUES ('1 Harbour Road') RETURNING loc_id`);
    const cpId = await addCharger(s.db, 'EXP-1', { locId: site.loc_id });
    await s.db.query(`UPDATE cps SET charging_status = 'Charging', online_flag = 0 WHERE cp_id = $1`, [cpId]);
    await s.db.query(`INSERT INTO cp_connectors (cp_id, connector_id, status, last_status_dttm) VALUES ($1, 1, 'Faulted', now())`, [cpId]);
  });
  afterAll(() => s?.close());

  async function exported(lang: 'en' | 'zh-TW'): Promise<unknown[]> {
    const keys = ['cp_no', 'loc_id', 'charging_status', 'online_flag', 'cp_connectors'];
    const query = keys.map((k) => `keys=${k}&headers=${k}`).join('&');
    const res = await fetch(`${s.baseUrl}/api/cps/export/excel?${query}&lang=${lang}`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(await res.arrayBuffer()) as any);
    const [, ...values] = wb.worksheets[0].getRow(2).values as unknown[];
    return values;
  }

  it('writes option labels, yes/no and connectors in the reader\'s language', async () => {
    // The charger is offline: its status reads Offline (one rule everywhere), its last known one beside it.
    const label = (lang: 'en' | 'zh-TW', value: string) => staticOptionItems('connector_status', lang).find((o) => o.value === value)!.label;
    expect(await exported('en')).toEqual(['EXP-1', '1 Harbour Road', 'Offline', 'No', expect.stringMatching(/^Connector ID: 1 · Status: Offline · .*: Faulted · .*: \d{4}-/)]);
    const zh = await exported('zh-TW');
    expect(zh.slice(0, 4)).toEqual(['EXP-1', '1 Harbour Road', label('zh-TW', 'Offline'), '否']);
    expect(zh[4]).toContain(`: ${label('zh-TW', 'Faulted')}`);
    expect(zh[4]).not.toMatch(/Connector ID|Status/);
  });
});
