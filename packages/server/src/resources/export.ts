import { PassThrough, type Writable } from 'node:stream';
import { existsSync } from 'node:fs';
import { once } from 'node:events';
import { EXPORT_ROW_LIMIT, type Lang, type ResourceDef } from '@ev/core';
import type { Database, Sql } from '../db/client.ts';
import type { AuthUser } from '../auth/session.ts';
import { badRequest } from '../http/errors.ts';
import type { ListQuery } from './list-query.ts';
import { exportText } from './export-text.ts';
import { buildListQuery } from './list.ts';
import { quoteIdent, resolveResource } from './registry.ts';
import { columnVisible, outputExpr } from './sql.ts';
import { columnLetters, rowXml } from './xlsx-rows.ts';

const BATCH = 2000;

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
 * ExcelJS's sheet stream pushes its XML into the zip without heeding backpressure, so rows made faster
 * than they are compressed would fill memory (460 MB for a million rows): each batch waits for the
 * zip's intake to drain, as for the response. ExcelJS 4 keeps a stream's destinations in `pipes`, and
 * archiver's intake is a readable-stream 2 PassThrough, older than `writableNeedDrain`.
 */
async function drained(sheet: object, out: Writable): Promise<void> {
  const intake = (sheet as { stream?: { pipes?: Writable[] } }).stream?.pipes?.[0] as (Writable & { _writableState?: { needDrain?: boolean } }) | undefined;
  // A client that goes away closes the response: nothing will drain then.
  const wait = async (w: Writable) => {
    const settled = new AbortController();
    await Promise.race([once(w, 'drain', { signal: settled.signal }), once(out, 'close', { signal: settled.signal })]).finally(() => settled.abort());
  };
  if (intake && (intake.writableNeedDrain ?? intake._writableState?.needDrain)) await wait(intake);
  if (out.writableNeedDrain && !out.destroyed) await wait(out);
}

/**
 * Streams the list (current filters and sort) as an .xlsx: rows are read in batches and written
 * to the response as the client takes them, so a large table never sits in memory whole. Past
 * `limit` rows the sheet ends with a row saying it was cut.
 */
export function streamExcel(db: Sql | Database, def: ResourceDef, q: ListQuery, user: AuthUser, timeZone: string, req: ExcelRequest, limit = EXPORT_ROW_LIMIT): PassThrough {
  const out = new PassThrough();
  const r = resolveResource(def);
  const b = buildListQuery(def, q, user);
  const n = b.params.values.length;
  // Only the columns written (and the id, to seek past): the others would only be read to be dropped.
  const columns = [...new Set([def.idField, ...req.keys])].map((field) => {
    const col = def.columns.find((c) => c.field === field);
    const expr = field === def.idField ? `t.${quoteIdent(field)}` : outputExpr(col!, r.expr.get(field)!, timeZone);
    return `${expr} AS ${quoteIdent(field)}`;
  });
  const select = `SELECT ${columns.join(', ')} FROM ${b.from} WHERE ${b.where}`;
  const byOffset = `${select} ORDER BY ${b.order} LIMIT $${n + 1} OFFSET $${n + 2}`;
  // Sorted by id (the default), each batch seeks past the last id written instead of skipping an
  // ever longer OFFSET, which would make a million-row export quadratic.
  const byId = q.sortBy === def.idField;
  const afterId = `${select} AND t.${quoteIdent(def.idField)} ${q.order === 'asc' ? '>' : '<'} $${n + 2} ORDER BY ${b.order} LIMIT $${n + 1}`;
  let sql: Sql = db;
  const batch = (written: number, lastId: unknown) =>
    sql.query(byId && written > 0 ? afterId : byOffset, [...b.params.values, Math.min(BATCH, limit - written + 1), byId && written > 0 ? lastId : written]);
  let reader: Awaited<ReturnType<NonNullable<Database['reader']>>> | undefined;
  (async () => {
    // The batches on a connection of their own: read through the pool, every row would outlive its batch (db/client.ts).
    if ('reader' in db && db.reader) sql = reader = await db.reader();
    // Loaded on the first export, not at start: ExcelJS and what it requires take about 20 MB.
    const { default: ExcelJS } = await import('exceljs');
    // No cell styles: the cells have none, and hashing each one's style took a fifth of a large export's time.
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: false });
    const sheet = workbook.addWorksheet(req.sheetName || def.key);
    sheet.columns = req.keys.map((key, i) => ({ header: req.headers[i], key, width: Math.min(40, Math.max(10, req.headers[i].length + 2)) }));
    const text = await exportText(sql, def, user, req.lang, req.keys);
    // The header row goes through ExcelJS (it opens the sheet's data); the data rows are written as XML.
    sheet.getRow(1).commit();
    const stream = (sheet as unknown as { stream: Writable }).stream;
    const letters = columnLetters(req.keys.length);
    let written = 0;
    let next = batch(0, undefined);
    for (;;) {
      const rows = await next;
      // One row past the cap tells whether there is more than it, so a list of exactly `limit` rows is not called cut.
      const take = Math.min(rows.length, limit - written);
      const more = rows.length > take;
      const full = rows.length === Math.min(BATCH, limit - written + 1);
      // The database reads the next batch while this one is written.
      if (full && !more) {
        next = batch(written + take, rows[take - 1][def.idField]);
        next.catch(() => undefined); // awaited below; a failure while this batch is written is not unhandled
      }
      let xml = '';
      for (let i = 0; i < take; i++) {
        const row = rows[i];
        xml += rowXml(written + i + 2, letters, req.keys.map((k) => text(k, row[k])));
        if (xml.length > 65536) {
          stream.write(xml);
          xml = '';
        }
      }
      written += take;
      if (more) xml += rowXml(written + 2, letters, [`Export stopped after ${limit} rows; narrow the filters to export the rest.`]);
      if (xml) stream.write(xml);
      if (more || !full) break;
      await drained(sheet, out);
      if (out.destroyed) return;
    }
    sheet.commit();
    await workbook.commit();
  })().catch((err) => out.destroy(err)).finally(() => reader?.close());
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
  const { default: PDFDocument } = await import('pdfkit');
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
