import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { allPrivilegeNames, getResource } from '@ev/core';
import type { AuthUser } from '../auth/session.ts';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { streamExcel } from './export.ts';
import { parseListQuery } from './list-query.ts';

const admin: AuthUser = {
  id: 1, username: 'admin', name: 'Admin', role: 'super_admin', roleLevel: 100, privileges: new Set(allPrivilegeNames()), allSites: true, siteIds: [], tokenId: 0,
};

/** The export's row cap (EXPORT_ROW_LIMIT, a million) at a small limit: the sheet says it was cut only when rows were left out. */
describe('Excel export past its row cap', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
    await s.db.query(`INSERT INTO user_log (type, username, msg) SELECT 'LOGIN', 'capped', 'row ' || g FROM generate_series(1, 5) g`);
  });
  afterAll(() => s?.close());

  async function sheet(limit: number, order: 'asc' | 'desc', sortBy = 'user_log_id'): Promise<unknown[]> {
    const def = getResource('user_log')!;
    const q = parseListQuery(def, { username: 'capped', sort_by: sortBy, order }, () => true, { export: true });
    const chunks: Buffer[] = [];
    for await (const c of streamExcel(s.db, def, q, admin, 'UTC', { headers: ['Msg'], keys: ['msg'], sheetName: 'Log', lang: 'en' }, limit)) chunks.push(c);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.concat(chunks) as any);
    return wb.worksheets[0].getSheetValues().slice(2).map((r: any) => r[1]);
  }

  it('writes the first rows and a last row saying the rest was left out', async () => {
    expect(await sheet(3, 'asc')).toEqual(['row 1', 'row 2', 'row 3', 'Export stopped after 3 rows; narrow the filters to export the rest.']);
    expect(await sheet(2, 'desc', 'msg')).toEqual(['row 5', 'row 4', 'Export stopped after 2 rows; narrow the filters to export the rest.']);
  });

  it('writes no such row when the list has exactly as many rows as the cap, or fewer', async () => {
    expect(await sheet(5, 'asc')).toEqual(['row 1', 'row 2', 'row 3', 'row 4', 'row 5']);
    expect(await sheet(6, 'desc')).toEqual(['row 5', 'row 4', 'row 3', 'row 2', 'row 1']);
  });
});
