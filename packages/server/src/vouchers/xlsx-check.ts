import { crc32, inflateRawSync } from 'node:zlib';
import { storedText } from '@ev/core';

/**
 * A first look at an upload before any spreadsheet reader touches it: the zip's central directory
 * says whether it is an .xlsx at all, whether it is encrypted, and how big it unpacks to (a zip
 * bomb is refused before it is inflated); then every entry is inflated once and checked against
 * its CRC. The streaming reader (unzipper) waits forever on some damaged deflate data instead of
 * failing, so only a package known whole reaches it. Pure: reads the buffer only.
 */

/** Unpacked bytes an import may hold: 100,000 rows of two columns take about 10 MB. */
export const MAX_UNPACKED_BYTES = 200 * 1024 * 1024;

/** message: a stored text (storedText), shown in the reader's language. */
export type ZipProblem = { message: string };

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;

/** undefined when the buffer is a plain (unencrypted, not oversized) .xlsx package; else why not. */
export async function xlsxProblem(buf: Buffer): Promise<ZipProblem | undefined> {
  const zip = readDirectory(buf);
  if ('message' in zip) return zip;
  for (const e of zip.entries) if (!(await entryIsWhole(buf, e))) return { message: storedText('msg.log.importFile.damaged') };
  return undefined;
}

/** The parts the streaming reader must have read before any worksheet, in this order. */
const FIRST_PARTS = ['xl/_rels/workbook.xml.rels', 'xl/workbook.xml', 'xl/sharedStrings.xml', 'xl/styles.xml'];

/**
 * The same package with the workbook's own parts moved in front of the worksheets (a package that
 * xlsxProblem passed). ExcelJS writes xl/workbook.xml last, and its streaming reader (over
 * unzipper's single pass) at times does not get that last entry before it reads the worksheets:
 * a good file then fails with "Cannot read properties of undefined (reading 'sheets')"
 * (exceljs/exceljs#3064; CI hit it once in the voucher tests). The reader goes by the local
 * entries in file order and stops at the central directory, so moving whole local entries (header,
 * data, data descriptor) is enough; the directory is left as it was.
 */
export function workbookPartsFirst(buf: Buffer): Buffer {
  const zip = readDirectory(buf);
  if ('message' in zip) return buf;
  const byOffset = [...zip.entries].sort((a, b) => a.local - b.local);
  const span = (i: number) => buf.subarray(byOffset[i].local, i + 1 < byOffset.length ? byOffset[i + 1].local : zip.directoryAt);
  const rank = (name: string) => (FIRST_PARTS.includes(name) ? FIRST_PARTS.indexOf(name) : FIRST_PARTS.length);
  const order = byOffset.map((e, i) => ({ i, rank: rank(e.name) })).sort((a, b) => a.rank - b.rank || a.i - b.i);
  return Buffer.concat([...order.map(({ i }) => span(i)), buf.subarray(zip.directoryAt)]);
}

/** The central directory's entries and where it starts, or why the buffer is no .xlsx package. */
function readDirectory(buf: Buffer): { entries: Entry[]; directoryAt: number } | ZipProblem {
  const notXlsx = { message: storedText('msg.log.importFile.notXlsx') };
  // Password-protected workbooks are OLE compound files (so are old .xls ones), not zips.
  if (buf.length >= 8 && buf.readUInt32BE(0) === 0xd0cf11e0) {
    return { message: storedText('msg.log.importFile.encryptedOrXls') };
  }
  if (buf.length < 22 || buf.readUInt32LE(0) !== 0x04034b50) return notXlsx;
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 22 - 0xffff); i--) {
    if (buf.readUInt32LE(i) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) return { message: storedText('msg.log.importFile.notZip') };
  const count = buf.readUInt16LE(eocd + 10);
  const directoryAt = buf.readUInt32LE(eocd + 16);
  let at = directoryAt;
  const names = new Set<string>();
  const entries: Entry[] = [];
  let unpacked = 0;
  for (let n = 0; n < count; n++) {
    if (at + 46 > buf.length || buf.readUInt32LE(at) !== CENTRAL) return { message: storedText('msg.log.importFile.badDirectory') };
    const flags = buf.readUInt16LE(at + 8);
    const size = buf.readUInt32LE(at + 24);
    const nameLen = buf.readUInt16LE(at + 28);
    const extraLen = buf.readUInt16LE(at + 30);
    const commentLen = buf.readUInt16LE(at + 32);
    if (at + 46 + nameLen > buf.length) return { message: storedText('msg.log.importFile.badDirectory') };
    if (flags & 1) return { message: storedText('msg.log.importFile.encrypted') };
    const name = buf.toString('utf8', at + 46, at + 46 + nameLen);
    // 0xffffffff: a ZIP64 entry, larger than any import may be.
    unpacked += size === 0xffffffff ? Infinity : size;
    if (unpacked > MAX_UNPACKED_BYTES) return { message: storedText('msg.log.importFile.unpacksTooLarge', { mb: MAX_UNPACKED_BYTES / 1024 / 1024 }) };
    entries.push({
      name, method: buf.readUInt16LE(at + 10), crc: buf.readUInt32LE(at + 16), packed: buf.readUInt32LE(at + 20), size, local: buf.readUInt32LE(at + 42),
    });
    names.add(name);
    at += 46 + nameLen + extraLen + commentLen;
  }
  if (!names.has('xl/workbook.xml') || ![...names].some((p) => /^xl\/worksheets\/sheet\d+\.xml$/.test(p))) return notXlsx;
  return { entries, directoryAt };
}

interface Entry { name: string; method: number; crc: number; packed: number; size: number; local: number }

/** The entry's local header agrees with the directory and its data unpacks to its size and CRC. */
async function entryIsWhole(buf: Buffer, e: Entry): Promise<boolean> {
  if (e.local + 30 > buf.length || buf.readUInt32LE(e.local) !== 0x04034b50) return false;
  const nameLen = buf.readUInt16LE(e.local + 26);
  const start = e.local + 30 + nameLen + buf.readUInt16LE(e.local + 28);
  if (buf.toString('utf8', e.local + 30, e.local + 30 + nameLen) !== e.name || start + e.packed > buf.length) return false;
  if (buf.readUInt16LE(e.local + 8) !== e.method) return false;
  // The streaming reader goes by the local header: its CRC and sizes must be the directory's
  // (or zero, with bit 3: they follow the data).
  const deferred = (buf.readUInt16LE(e.local + 6) & 8) !== 0;
  const local = [buf.readUInt32LE(e.local + 14), buf.readUInt32LE(e.local + 18), buf.readUInt32LE(e.local + 22)];
  const central = [e.crc, e.packed, e.size];
  if (local.some((v, i) => v !== central[i] && !(deferred && v === 0))) return false;
  const data = buf.subarray(start, start + e.packed);
  try {
    const out = e.method === 0 ? data : e.method === 8 ? inflateRawSync(data, { maxOutputLength: Math.max(1, e.size) }) : null;
    return !!out && out.length === e.size && crc32(out) === e.crc;
  } catch {
    return false;
  }
}
