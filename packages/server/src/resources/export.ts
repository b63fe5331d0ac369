import ExcelJS from 'exceljs';
import PDFDocument from 'pdfkit';
import { PassThrough } from 'node:stream';
import { existsSync } from 'node:fs';
import { once } from 'node:events';
import type { Lang, ResourceDef } from '@ev/core';
import type { Sql } from '../db/client.ts';
import type { AuthUser } from '../auth/session.ts';
import { badRequest } from '../http/errors.ts';
import type { ListQuery } from './list-query.ts';
import { exportText } from './export-text.ts';
import { buildListQuery } from './list.ts';
import { quoteIdent, resolveResource } from './registry.ts';
import { columnVisible, selectList } from './sql.ts';

const BATCH = 2000;
/** An export past this many rows is cut; the sheet's last row says so. */
export const EXPORT_ROW_LIMIT = 1_000_000;

export interface ExcelRequest {
  headers: string[];
  keys: string[];
  sheetName: string;
  /** The reader's language: stored texts (display 'message') are written in it. */
  lang: Lang;
}

export function checkExcelRequest(def: ResourceDef, user: AuthUser, req: ExcelRequest): void {
  const r = resolveResource(def);
  const visible = columnVisible(user);
  const known = new Set([def.idField, ...def.columns.filter((c) => visible(c) && r.expr.has(c.field)).map((c) => c.field)]);
  const bad = req.keys.filter((k) => !known.has(k));
  if (bad.length) throw badRequest(`Unknown column: ${bad.join(', ')}`, { keys: 'invalid' });
  if (req.keys.length === 0) throw badRequest('No column to export: send keys=<column>&headers=<title> once per column, in order', { keys: 'required' });
  if (req.headers.length !== req.keys.length) throw badRequest(`One header per key: ${req.keys.length} keys, ${req.headers.length} headers`, { headers: 'invalid' });
  if (req.sheetName.length > 31 || /[\\/?*[\]:]/.test(req.sheetName)) throw badRequest('Invalid sheet name', { sheet_name: 'invalid' });
}

/**
 * Streams the list (current filters and sort) as an .xlsx: rows are read in batches and written
 * to the response as the client takes them, so a large table never sits in memory whole.
 */
export function streamExcel(sql: Sql, def: ResourceDef, q: ListQuery, user: AuthUser, timeZone: string, req: ExcelRequest): PassThrough {
  const out = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true });
  const sheet = workbook.addWorksheet(req.sheetName || def.key);
  sheet.columns = req.keys.map((key, i) => ({ header: req.headers[i], key, width: Math.min(40, Math.max(10, req.headers[i].length + 2)) }));
  const r = resolveResource(def);
  const b = buildListQuery(def, q, user);
  const n = b.params.values.length;
  const select = `SELECT ${selectList(r, user, timeZone, false)} FROM ${b.from} WHERE ${b.where}`;
  const byOffset = `${select} ORDER BY ${b.order} LIMIT $${n + 1} OFFSET $${n + 2}`;
  // Sorted by id (the default), each batch seeks past the last id written instead of skipping an
  // ever longer OFFSET, which would make a million-row export quadratic.
  const byId = q.sortBy === def.idField;
  const afterId = `${select} AND t.${quoteIdent(def.idField)} ${q.order === 'asc' ? '>' : '<'} $${n + 2} ORDER BY ${b.order} LIMIT $${n + 1}`;
  (async () => {
    const text = await exportText(sql, def, user, req.lang, req.keys);
    let written = 0;
    let lastId: unknown;
    for (;;) {
      const rows = await sql.query(byId && written > 0 ? afterId : byOffset, [...b.params.values, BATCH, byId && written > 0 ? lastId : written]);
      for (const row of rows) {
        sheet.addRow(Object.fromEntries(req.keys.map((k) => [k, text(k, row[k])]))).commit();
      }
      written += rows.length;
      lastId = rows.at(-1)?.[def.idField];
      if (rows.length < BATCH) break;
      if (out.writableNeedDrain) await once(out, 'drain');
      if (written >= EXPORT_ROW_LIMIT) {
        sheet.addRow([`Export stopped after ${EXPORT_ROW_LIMIT} rows; narrow the filters to export the rest.`]).commit();
        break;
      }
    }
    sheet.commit();
    await workbook.commit();
  })().catch((err) => out.destroy(err));
  return out;
}

/**
 * A font with Chinese glyphs (PDFKit's built-in Helvetica has none), from a Debian package
 * (fonts-wqy-microhei or fonts-noto-cjk) when installed; a .ttc needs the face's PostScript name.
 * Without one, the PDF's labels are English whatever the reader's language.
 */
const CJK_FONT = [
  { path: '/usr/share/fonts/truetype/wqy/wqy-microhei.ttc', face: 'WenQuanYiMicroHei' },
  { path: '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc', face: 'NotoSansCJKtc-Regular' },
].find((f) => existsSync(f.path));

/** One record as a one-page PDF of label: value lines, labels and values in the user's language, as its view shows them. */
export async function recordPdf(sql: Sql, def: ResourceDef, user: AuthUser, record: Record<string, unknown>, lang: Lang): Promise<PassThrough> {
  const shown = CJK_FONT ? lang : 'en';
  const labels = def.labels[shown];
  const text = await exportText(sql, def, user, shown, Object.keys(record));
  const out = new PassThrough();
  const doc = new PDFDocument({ size: 'A4', margin: 48 });
  doc.pipe(out);
  if (CJK_FONT) doc.registerFont('cjk', CJK_FONT.path, CJK_FONT.face);
  const [regular, bold] = CJK_FONT ? ['cjk', 'cjk'] : ['Helvetica', 'Helvetica-Bold'];
  doc.font(bold).fontSize(16).text(`${labels?.name ?? def.key} #${record[def.idField]}`);
  doc.moveDown();
  doc.fontSize(10);
  for (const [field, value] of Object.entries(record)) {
    const label = labels?.fields[field] ?? field;
    doc.font(bold).text(`${label}: `, { continued: true }).font(regular).text(String(text(field, value)));
  }
  doc.end();
  return out;
}
