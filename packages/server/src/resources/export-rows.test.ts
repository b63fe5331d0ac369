import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { allPrivilegeNames, getResource } from '@ev/core';
import type { AuthUser } from '../auth/session.ts';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { streamExcel } from './export.ts';
import { parseListQuery } from './list-query.ts';
import { columnLetters } from './xlsx-rows.ts';

const admin: AuthUser = {
  id: 1, username: 'admin', name: 'Admin', role: 'super_admin', roleLevel: 100, privileges: new Set(allPrivilegeNames()), allSites: true, siteIds: [], tokenId: 0,
};

/** The export writes its data rows as XML itself (xlsx-rows.ts): what Excel reads back must be the values. */
describe('Excel export rows', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
    await s.db.query(`INSERT INTO user_log (type, username, msg) VALUES ('LOGIN', 'rows', $1), ('LOGIN', 'rows', ''), ('LOGIN', 'rows', '12')`, [
      `a<b> & "c" 'd'\u0001\u001f\nline two\ttab 中文`,
    ]);
  });
  afterAll(() => s?.close());

  async function sheet(): Promise<unknown[][]> {
    const def = getResource('user_log')!;
    const q = parseListQuery(def, { username: 'rows', sort_by: 'user_log_id', order: 'asc' }, () => true, { export: true });
    const chunks: Buffer[] = [];
    const excel = { headers: ['Id', 'Msg <&>'], keys: ['user_log_id', 'msg'], sheetName: 'Log', lang: 'en' as const };
    for await (const c of streamExcel(s.db, def, q, admin, 'UTC', excel)) chunks.push(c);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.concat(chunks) as any);
    return (wb.worksheets[0].getSheetValues().slice(1) as unknown[][]).map((r) => r.slice(1));
  }

  it('keeps text as text (escaped, without the characters XML cannot hold) and numbers as numbers', async () => {
    const [header, special, empty, digits] = await sheet();
    expect(header).toEqual(['Id', 'Msg <&>']);
    expect(typeof special[0]).toBe('number');
    expect(special[1]).toBe(`a<b> & "c" 'd'\nline two\ttab 中文`);
    expect(empty[1] ?? '').toBe('');
    // A text column stays text even when it looks like a number.
    expect(digits[1]).toBe('12');
    expect((digits[0] as number) - (special[0] as number)).toBe(2);
  });

  it('names columns past Z as Excel does', () => {
    expect(columnLetters(28).slice(24)).toEqual(['Y', 'Z', 'AA', 'AB']);
    expect(columnLetters(703)[702]).toBe('AAA');
  });

  it('leaves no connection of its own open after the file is written (PostgreSQL)', async () => {
    if (s.db.kind !== 'postgres') return;
    const count = async () => Number((await s.db.query(`SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database()`))[0].n);
    const before = await count();
    await sheet();
    // The reader's connection ends as the file does; give the server a moment to see it gone.
    for (let i = 0; i < 50 && (await count()) > before; i++) await new Promise((r) => setTimeout(r, 20));
    expect(await count()).toBeLessThanOrEqual(before);
  });
});
