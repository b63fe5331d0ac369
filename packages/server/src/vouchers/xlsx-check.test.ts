import { describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { workbookPartsFirst, xlsxProblem } from './xlsx-check.ts';
import { readVoucherWorkbook } from './import.ts';

/** The names of a zip's local entries, in file order (what a streaming reader sees). */
function localNames(buf: Buffer): string[] {
  const names: string[] = [];
  for (let i = buf.indexOf('PK\x03\x04'); i >= 0; i = buf.indexOf('PK\x03\x04', i + 4)) {
    names.push(buf.toString('utf8', i + 30, i + 30 + buf.readUInt16LE(i + 26)));
  }
  return names;
}

describe('workbookPartsFirst (exceljs/exceljs#3064: the streaming reader may miss the last entry)', () => {
  it('moves the workbook\'s own parts in front of the worksheets, every entry kept whole, and the file still reads', async () => {
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet('Voucher').addRows([['memberId', 'voucherExpireDate'], ['M1', '2099-01-31'], ['M2', '2099-02-28']]);
    const good = Buffer.from(await wb.xlsx.writeBuffer());
    expect(await xlsxProblem(good)).toBeUndefined();
    // As ExcelJS writes it: the workbook last, after the worksheet.
    expect(localNames(good).at(-1)).toBe('xl/workbook.xml');

    const reordered = workbookPartsFirst(good);
    const names = localNames(reordered);
    expect(names.slice(0, 4)).toEqual(['xl/_rels/workbook.xml.rels', 'xl/workbook.xml', 'xl/sharedStrings.xml', 'xl/styles.xml']);
    expect([...names].sort()).toEqual([...localNames(good)].sort());
    expect(reordered.length).toBe(good.length);

    const read = await readVoucherWorkbook(good, '2026-11-24');
    expect(read).toEqual({ rows: { memberIds: ['M1', 'M2'], dates: ['2099-01-31', '2099-02-28'] }, errors: [] });
  });

  it('leaves a buffer that is no .xlsx package as it is', () => {
    const text = Buffer.from('memberId,voucherExpireDate\n');
    expect(workbookPartsFirst(text)).toBe(text);
  });
});
