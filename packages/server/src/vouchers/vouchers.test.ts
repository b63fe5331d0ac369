import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { randomBytes } from 'node:crypto';
import { deflateRawSync } from 'node:zlib';
import { createPrivilege, P, readPrivilege, storedText } from '@ev/core';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { userWith } from '../testing/users.ts';
import { today } from '../resources/hooks/voucher.ts';
import { MAX_IMPORT_BYTES, MAX_IMPORT_ROWS } from './import.ts';

/** A workbook of these rows (the first one the header) as .xlsx bytes. */
async function xlsx(rows: unknown[][]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Voucher');
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** A zip of one stored file (not a workbook), optionally flagged encrypted. */
function zipOf(name: string, data: Buffer, flags = 0): Buffer {
  const body = deflateRawSync(data);
  const n = Buffer.from(name);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0); local.writeUInt16LE(20, 4); local.writeUInt16LE(flags, 6); local.writeUInt16LE(8, 8);
  local.writeUInt32LE(body.length, 18); local.writeUInt32LE(data.length, 22); local.writeUInt16LE(n.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0); central.writeUInt16LE(20, 4); central.writeUInt16LE(20, 6); central.writeUInt16LE(flags, 8);
  central.writeUInt16LE(8, 10); central.writeUInt32LE(body.length, 20); central.writeUInt32LE(data.length, 24); central.writeUInt16LE(n.length, 28);
  const cdOffset = 30 + n.length + body.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0); end.writeUInt16LE(1, 8); end.writeUInt16LE(1, 10);
  end.writeUInt32LE(46 + n.length, 12); end.writeUInt32LE(cdOffset, 16);
  return Buffer.concat([local, n, body, central, n, end]);
}

const inDays = (days: number) => {
  const d = new Date(`${today()}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
};

describe('vouchers: the resource and the Voucher.xlsx import', () => {
  let s: TestServer;
  let admin: string;
  let siteA: number;
  let siteB: number;
  let voucherCampaign: number;
  let plainCampaign: number;
  let otherSiteCampaign: number;
  const api = (method: string, path: string, body?: unknown, token = admin) => s.api(method, path, { token, body });
  const count = async () => (await s.db.query(`SELECT count(*)::int AS n FROM voucher`))[0].n as number;
  const audits = async () => (await s.db.query(`SELECT count(*)::int AS n FROM portal_action_log WHERE target = 'voucher'`))[0].n as number;
  const upload = async (file: Buffer | undefined, campaignId: number | string | undefined, token = admin) => {
    const form = new FormData();
    if (campaignId !== undefined) form.append('campaignId', String(campaignId));
    if (file) form.append('file', new Blob([new Uint8Array(file)]), 'Voucher.xlsx');
    const res = await fetch(`${s.baseUrl}/api/voucher/import`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
    return { status: res.status, body: await res.json() };
  };

  beforeAll(async () => {
    s = await startTestServer();
    admin = await s.login();
    siteA = (await api('POST', '/api/cp_locs', { address: 'Voucher Site A', address_chi: '禮券站甲' })).body.data.loc_id;
    siteB = (await api('POST', '/api/cp_locs', { address: 'Voucher Site B' })).body.data.loc_id;
    voucherCampaign = (await api('POST', '/api/campaign', { name: 'Free hour', fee: 0, locIds: [siteA], isVoucher: 1 })).body.data.id;
    plainCampaign = (await api('POST', '/api/campaign', { name: 'Plain', fee: 1, locIds: [siteA] })).body.data.id;
    otherSiteCampaign = (await api('POST', '/api/campaign', { name: 'B free', fee: 0, locIds: [siteB], isVoucher: 1 })).body.data.id;
  });
  afterAll(() => s.close());

  it('creates a voucher of a voucher campaign, valid from now to its expiry, and deletes it unless redeemed', async () => {
    const res = await api('POST', '/api/voucher', { memberId: 'M1', campaignId: voucherCampaign, voucherExpireDate: inDays(30) });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ memberId: 'M1', status: 'Valid', creUserName: 'admin', voucherExpireDate: inDays(30) });
    // The campaign's sites in both languages: the portal shows the reader's.
    expect(JSON.parse(res.body.data.address)).toEqual({ en: 'Voucher Site A', 'zh-TW': '禮券站甲' });
    const id = res.body.data.id;
    // Never edited.
    expect((await api('PUT', `/api/voucher/${id}`, { memberId: 'M2' })).status).toBe(405);
    for (const [body, fields] of [
      [{ memberId: 'M1', campaignId: voucherCampaign, voucherExpireDate: inDays(-1) }, { voucherExpireDate: 'expired' }],
      [{ memberId: 'M1', campaignId: voucherCampaign, voucherExpireDate: '2026-02-30' }, { voucherExpireDate: 'format_error' }],
      [{ memberId: 'M1', campaignId: plainCampaign, voucherExpireDate: inDays(1) }, { campaignId: 'invalid' }],
      [{ memberId: 'M1', voucherExpireDate: inDays(1) }, { campaignId: 'campaign_not_chosen' }],
      [{ memberId: 'M1', campaignId: voucherCampaign, voucherExpireDate: inDays(1), status: 'Redeemed' }, { status: 'unknown_field' }],
    ] as const) {
      const bad = await api('POST', '/api/voucher', body);
      expect([bad.status, bad.body.fields], JSON.stringify(body)).toEqual([400, fields]);
    }
    // Today is not yet expired.
    expect((await api('POST', '/api/voucher', { memberId: 'M1', campaignId: voucherCampaign, voucherExpireDate: inDays(0) })).status).toBe(200);

    const redeemed = (await api('POST', '/api/voucher', { memberId: 'M3', campaignId: voucherCampaign, voucherExpireDate: inDays(5) })).body.data.id;
    await s.db.query(`UPDATE voucher SET status = 'Redeemed', "redeemDttm" = now() WHERE id = $1`, [redeemed]);
    const refused = await api('DELETE', `/api/voucher/${redeemed}`);
    expect([refused.status, refused.body.fields]).toEqual([400, { status: 'not_editable' }]);
    expect((await api('DELETE', `/api/voucher/${id}`)).status).toBe(200);
    expect((await s.db.query(`SELECT deleted_at IS NOT NULL AS gone FROM voucher WHERE id = $1`, [id]))[0].gone).toBe(true);
    expect((await api('GET', `/api/voucher/${id}`)).body.deleteDttm).toMatch(/^\d{4}-\d{2}-\d{2} /);

    // Newest first; the Excel export offered.
    const list = await api('GET', '/api/voucher?size=10&page=0');
    const ids = list.body.dataset.content.map((r: any) => r.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect((await fetch(`${s.baseUrl}/api/voucher/export/excel?keys=id&keys=memberId&headers=ID&headers=Member`, { headers: { authorization: `Bearer ${admin}` } })).status).toBe(200);
  });

  it('downloads the template, which imports as it is', async () => {
    const res = await fetch(`${s.baseUrl}/api/voucher/import/template`, { headers: { authorization: `Bearer ${admin}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toContain('Voucher.xlsx');
    const file = Buffer.from(await res.arrayBuffer());
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(file as never);
    expect(wb.worksheets[0].getRow(1).values).toEqual([undefined, 'memberId', 'voucherExpireDate']);
    const before = await count();
    expect((await upload(file, voucherCampaign)).body).toEqual({ status: 'success', count: 1 });
    expect(await count()).toBe(before + 1);
  });

  it('imports every row in one go, text or Excel dates, with one audit row naming the campaign and the count', async () => {
    const before = await count();
    const auditsBefore = await audits();
    const rows: unknown[][] = [['memberId', 'voucherExpireDate', 'remark']];
    for (let i = 0; i < 1200; i++) rows.push([`IMP${i}`, i % 2 ? inDays(10) : new Date(`${inDays(20)}T00:00:00Z`), 'ignored']);
    rows.push([], [12345, inDays(3)]);
    const res = await upload(await xlsx(rows), voucherCampaign);
    expect(res.body).toEqual({ status: 'success', count: 1201 });
    expect(await count()).toBe(before + 1201);
    const stored = await s.db.query(`SELECT "memberId", to_char("voucherExpireDate", 'YYYY-MM-DD') AS d, status, "creUserName" FROM voucher WHERE "memberId" IN ('IMP0', 'IMP1', '12345') ORDER BY "memberId"`);
    expect(stored).toEqual([
      { memberId: '12345', d: inDays(3), status: 'Valid', creUserName: 'admin' },
      { memberId: 'IMP0', d: inDays(20), status: 'Valid', creUserName: 'admin' },
      { memberId: 'IMP1', d: inDays(10), status: 'Valid', creUserName: 'admin' },
    ]);
    expect(await audits()).toBe(auditsBefore + 1);
    const [log] = await s.db.query(`SELECT new_data, remark FROM portal_action_log WHERE target = 'voucher' ORDER BY id DESC LIMIT 1`);
    expect(typeof log.new_data === 'string' ? JSON.parse(log.new_data) : log.new_data).toMatchObject({ campaignId: voucherCampaign, campaignName: 'Free hour', count: 1201 });
  });

  it('reports every bad row with its number and imports nothing', async () => {
    const before = await count();
    const res = await upload(await xlsx([
      ['memberId', 'voucherExpireDate'],
      ['OK1', inDays(5)],
      ['', inDays(5)],
      ['OK2', inDays(-3)],
      ['OK3', '2026/12/01'],
      ['OK4', ''],
      ['X'.repeat(101), '2026-02-30'],
      ['OK5', inDays(5)],
    ]), voucherCampaign);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('error');
    expect(res.body.errors.map((e: any) => [e.row, e.field, e.code])).toEqual([
      [3, 'memberId', 'required'],
      [4, 'voucherExpireDate', 'expired'],
      [5, 'voucherExpireDate', 'format_error'],
      [6, 'voucherExpireDate', 'required'],
      [7, 'memberId', 'too_long'],
      [7, 'voucherExpireDate', 'format_error'],
    ]);
    expect(res.body.errors[0].message).toBe('Required to fill');
    expect(await count()).toBe(before);
  });

  it('answers 400 and changes nothing for files that are no voucher workbook', async () => {
    const before = await count();
    const auditsBefore = await audits();
    const good = await xlsx([['memberId', 'voucherExpireDate'], ['F1', inDays(5)]]);
    const cases: [string, Buffer][] = [
      ['random bytes', randomBytes(5000)],
      ['empty', Buffer.alloc(0)],
      ['text', Buffer.from('memberId,voucherExpireDate\nA,2030-01-01\n')],
      ['a zip that is not xlsx', zipOf('hello.txt', Buffer.from('hello'))],
      ['an encrypted zip', zipOf('xl/workbook.xml', Buffer.from('<x/>'), 1)],
      ['an OLE (encrypted) workbook', Buffer.concat([Buffer.from('d0cf11e0a1b11ae1', 'hex'), randomBytes(4000)])],
      ['a truncated xlsx', good.subarray(0, Math.floor(good.length / 2))],
      ['an xlsx with its middle scrambled', Buffer.concat([good.subarray(0, 200), randomBytes(good.length - 400), good.subarray(good.length - 200)])],
      ['wrong columns', await xlsx([['member', 'expiry'], ['A', inDays(5)]])],
      ['a missing column', await xlsx([['memberId'], ['A']])],
      ['no header at all', await xlsx([])],
      ['a header and no rows', await xlsx([['memberId', 'voucherExpireDate']])],
      ['oversize', Buffer.concat([good, randomBytes(MAX_IMPORT_BYTES)])],
    ];
    for (let i = 0; i < Number(process.env.FUZZ_RUNS ?? 20); i++) {
      // Random bytes from a good file on: a damaged workbook, never a 500.
      const fuzzed = Buffer.from(good);
      for (let k = 0; k < 20; k++) fuzzed[Math.floor(Math.random() * fuzzed.length)] = Math.floor(Math.random() * 256);
      cases.push([`fuzzed #${i}`, fuzzed]);
    }
    let imported = 0;
    let importedAudits = 0;
    for (const [what, file] of cases) {
      const res = await upload(file, voucherCampaign);
      // A fuzzed file may still read as its one good row (the bytes hit were unused): it imports, or reports the row.
      if (what.startsWith('fuzzed') && res.status === 200) {
        expect(['success', 'error'], what).toContain(res.body.status);
        if (res.body.status === 'success') (imported += res.body.count), importedAudits++;
        continue;
      }
      expect(res.status, `${what}: ${JSON.stringify(res.body)}`).toBe(400);
      // Worded as a message key with parameters, for the reader's language.
      expect(res.body.errors?.[0], what).toMatch(/^\{"key":"msg\.log\.importFile\./);
      expect(res.body.fields, what).toEqual({ file: expect.any(String) });
    }
    expect(await count()).toBe(before + imported);
    expect(await audits()).toBe(auditsBefore + importedAudits);
    // The server still serves.
    expect((await upload(good, voucherCampaign)).body).toEqual({ status: 'success', count: 1 });
  });

  it('refuses a file of more rows than an import takes, importing none', async () => {
    const before = await count();
    const rows: unknown[][] = [['memberId', 'voucherExpireDate']];
    for (let i = 0; i <= MAX_IMPORT_ROWS; i++) rows.push([`R${i}`, inDays(9)]);
    const res = await upload(await xlsx(rows), voucherCampaign);
    expect([res.status, res.body.errors]).toEqual([400, [storedText('msg.log.importFile.tooManyRows', { max: MAX_IMPORT_ROWS })]]);
    expect(await count()).toBe(before);
  }, 120_000);

  it('needs a voucher campaign, CREATE_VOUCHER, and a campaign of the user\'s sites', async () => {
    const file = await xlsx([['memberId', 'voucherExpireDate'], ['P1', inDays(5)]]);
    const before = await count();
    for (const campaignId of [undefined, '', 'abc', plainCampaign, 999999]) {
      const res = await upload(file, campaignId);
      expect(res.status, String(campaignId)).toBe(400);
      expect(Object.keys(res.body.fields)).toEqual(['campaignId']);
    }
    expect((await upload(undefined, voucherCampaign)).body.fields).toEqual({ file: 'required' });
    const reader = await userWith(s, 'voucher-reader', [readPrivilege('voucher')]);
    expect((await upload(file, voucherCampaign, reader)).status).toBe(403);
    const userA = await userWith(s, 'voucher-a', [readPrivilege('voucher'), createPrivilege('voucher'), P.DELETE], [siteA]);
    expect((await upload(file, otherSiteCampaign, userA)).body.fields).toEqual({ campaignId: 'not_permitted' });
    expect(await count()).toBe(before);
    expect((await upload(file, voucherCampaign, userA)).body).toEqual({ status: 'success', count: 1 });
    // The user sees vouchers of their sites' campaigns only, and is offered only those campaigns.
    await api('POST', '/api/voucher', { memberId: 'ONLY-B', campaignId: otherSiteCampaign, voucherExpireDate: inDays(5) });
    const seen = (await api('GET', '/api/voucher?size=1000&page=0', undefined, userA)).body.dataset.content.map((r: any) => r.memberId);
    expect(seen).toContain('P1');
    expect(seen).not.toContain('ONLY-B');
    const options = (await api('GET', '/api/options?opts=campaign', undefined, userA)).body.options.campaign.map((o: any) => o.value);
    expect(options).toEqual([voucherCampaign]);
  });
});
