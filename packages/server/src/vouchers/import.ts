import { Readable } from 'node:stream';
import type { Row } from 'exceljs';
import { storedText } from '@ev/core';
import { expiryProblem } from '../resources/hooks/voucher.ts';
import { workbookPartsFirst, xlsxProblem } from './xlsx-check.ts';

/**
 * Reading Voucher.xlsx (spec part 2 §2, §5): the first worksheet, a header row naming memberId and
 * voucherExpireDate (other columns are ignored), one voucher per non-empty row after it. The rows
 * are read with ExcelJS's streaming reader, once, from the uploaded bytes; every bad row is
 * reported (row number as the spreadsheet shows it, the field, what is wrong).
 */

/** At most this many bytes per upload. */
export const MAX_IMPORT_BYTES = 10 * 1024 * 1024;
/** At most this many vouchers per import. */
export const MAX_IMPORT_ROWS = 100_000;
export const COLUMNS = ['memberId', 'voucherExpireDate'] as const;
const MEMBER_ID_MAX = 100;
/** Far above the 2-3 s 100,000 rows take. */
const READ_DEADLINE_MS = 120_000;

/** The good rows as two columns (what the multi-row INSERT sends), not an object per row. */
export interface VoucherColumns {
  memberIds: string[];
  dates: string[];
}
export interface RowError {
  row: number;
  field: string;
  /** msg.form.<code> in the portal. */
  code: 'required' | 'format_error' | 'expired' | 'too_long';
  message: string;
}
/** The file itself cannot be imported (400): not a workbook, damaged, too big, wrong header. */
export class ImportFileError extends Error {}

/** Why a file cannot be imported, as a stored text (the ImportFileError's message): the portal shows it in the reader's language. */
export const fileProblem = (key: string, params?: Record<string, string | number>) => storedText(`msg.log.importFile.${key}`, params);

const MESSAGES: Record<RowError['code'], string> = {
  required: 'Required to fill',
  format_error: 'Format Error (yyyy-mm-dd expected)',
  expired: 'Expiry date already expired',
  too_long: `Too long (at most ${MEMBER_ID_MAX} characters)`,
};

/** The text a cell shows: rich text joined, a formula's result, a hyperlink's text. */
function cellText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v.trim();
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? '' : v.toISOString().slice(0, 10);
  if (typeof v === 'object') {
    const o = v as { richText?: { text: string }[]; result?: unknown; text?: unknown; error?: string };
    if (Array.isArray(o.richText)) return o.richText.map((r) => r.text).join('').trim();
    if ('result' in o) return cellText(o.result);
    if ('text' in o) return cellText(o.text);
  }
  return '';
}

/** An expiry cell as yyyy-mm-dd: a date cell (ExcelJS gives it at UTC midnight) or text as typed. */
function dateText(v: unknown): string {
  if (v instanceof Date) return cellText(v);
  if (typeof v === 'object' && v !== null && 'result' in v) return dateText((v as { result: unknown }).result);
  // A bare number is a date serial without a date format: not what the template asks for.
  return typeof v === 'number' ? `#${v}` : cellText(v);
}

export interface ParsedImport {
  rows: VoucherColumns;
  errors: RowError[];
}

/** The vouchers of a workbook, or every bad row; ImportFileError when the file is unusable. */
export async function readVoucherWorkbook(buf: Buffer, today: string): Promise<ParsedImport> {
  const problem = await xlsxProblem(buf);
  if (problem) throw new ImportFileError(problem.message);
  const input = Readable.from([workbookPartsFirst(buf)]);
  // Whatever the package checks miss, a read that stalls ends as an unreadable file, not a hung request.
  let timer: NodeJS.Timeout | undefined;
  const stalled = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      input.destroy();
      reject(new ImportFileError(fileProblem('unreadable')));
    }, READ_DEADLINE_MS);
  });
  try {
    return await Promise.race([readRows(input, today), stalled]);
  } finally {
    clearTimeout(timer);
  }
}

async function readRows(input: Readable, today: string): Promise<ParsedImport> {
  const rows: VoucherColumns = { memberIds: [], dates: [] };
  const errors: RowError[] = [];
  let count = 0;
  const { default: ExcelJS } = await import('exceljs'); // on the first import, not at start (about 20 MB)
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(input, {
    worksheets: 'emit', sharedStrings: 'cache', styles: 'cache', hyperlinks: 'ignore', entries: 'ignore',
  });
  let sawSheet = false;
  try {
    for await (const sheet of reader) {
      if (sawSheet) break;
      sawSheet = true;
      let at: Record<(typeof COLUMNS)[number], number> | undefined;
      for await (const row of sheet as AsyncIterable<Row>) {
        const values = row.values as unknown[];
        if (!at) {
          at = headerOf(values);
          continue;
        }
        const memberId = cellText(values[at.memberId]);
        const expiry = dateText(values[at.voucherExpireDate]);
        if (!memberId && !expiry) continue;
        if (++count > MAX_IMPORT_ROWS) throw new ImportFileError(fileProblem('tooManyRows', { max: MAX_IMPORT_ROWS }));
        const bad = (field: string, code: RowError['code']) => errors.push({ row: row.number, field, code, message: MESSAGES[code] });
        let ok = true;
        if (!memberId) ok = !bad('memberId', 'required');
        else if (memberId.length > MEMBER_ID_MAX) ok = !bad('memberId', 'too_long');
        const dateIssue = expiry ? expiryProblem(expiry, today) : 'required';
        if (dateIssue) ok = !bad('voucherExpireDate', dateIssue);
        if (ok) {
          rows.memberIds.push(memberId);
          rows.dates.push(expiry);
        }
      }
      if (!at) throw new ImportFileError(fileProblem('noHeader', { columns: COLUMNS.join(', ') }));
    }
  } catch (err) {
    if (err instanceof ImportFileError) throw err;
    throw new ImportFileError(fileProblem((err as Error).message ? 'unreadableDetail' : 'unreadable', { detail: (err as Error).message ?? '' }));
  }
  if (!sawSheet) throw new ImportFileError(fileProblem('noSheet'));
  if (!count) throw new ImportFileError(fileProblem('noRows'));
  return { rows, errors };
}

/** Where each expected column is (1-based); ImportFileError naming the missing ones. */
function headerOf(values: unknown[]): Record<(typeof COLUMNS)[number], number> {
  const names = values.map((v) => cellText(v).toLowerCase());
  const at = Object.fromEntries(COLUMNS.map((c) => [c, names.indexOf(c.toLowerCase())]));
  const missing = COLUMNS.filter((c) => at[c] < 0);
  if (missing.length) throw new ImportFileError(fileProblem('missingColumns', { columns: COLUMNS.join(', '), missing: missing.join(', ') }));
  return at as Record<(typeof COLUMNS)[number], number>;
}

/** Voucher.xlsx: the header row and one example row (expiring in a year). */
export async function voucherTemplate(today: string): Promise<Buffer> {
  const { default: ExcelJS } = await import('exceljs');
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Voucher');
  ws.columns = [
    { header: 'memberId', key: 'memberId', width: 24 },
    { header: 'voucherExpireDate', key: 'voucherExpireDate', width: 22 },
  ];
  const example = `${Number(today.slice(0, 4)) + 1}${today.slice(4)}`.replace(/-02-29$/, '-02-28');
  ws.addRow({ memberId: 'M0001', voucherExpireDate: example });
  // Text cells: Excel would otherwise turn a typed date into a number of its own.
  ws.getColumn(2).numFmt = '@';
  return Buffer.from(await wb.xlsx.writeBuffer());
}
