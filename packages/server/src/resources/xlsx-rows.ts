/**
 * A sheet's rows as SpreadsheetML, written straight into ExcelJS's sheet stream by the Excel export:
 * the same XML ExcelJS writes for a row of values (strings as t="str", numbers as they are, no
 * styles), without its Row and Cell objects, which made some 20 KB of garbage per row of a large
 * export (issue 30).
 */

// Characters XML 1.0 cannot hold are dropped (tab, line feed and carriage return stay), as ExcelJS does.
const SPECIAL = /[<>&'"\x7F\x00-\x08\x0B\x0C\x0E-\x1F]/;
const SPECIALS = /[<>&'"\x7F\x00-\x08\x0B\x0C\x0E-\x1F]/g;
const ENTITIES: Record<string, string> = { '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' };

export function xmlText(text: string): string {
  return SPECIAL.test(text) ? text.replace(SPECIALS, (c) => ENTITIES[c] ?? '') : text;
}

/** The column letters of the first `count` columns: A … Z, AA, AB … */
export function columnLetters(count: number): string[] {
  const letters: string[] = [];
  for (let i = 0; i < count; i++) {
    let name = '';
    for (let n = i + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
    letters.push(name);
  }
  return letters;
}

/** Row `r` (1-based) of cells in columns A, B, …: a finite number stays a number, anything else is text. */
export function rowXml(r: number, letters: string[], cells: readonly (string | number)[]): string {
  let xml = `<row r="${r}" spans="1:${cells.length}" x14ac:dyDescent="0.25">`;
  for (let i = 0; i < cells.length; i++) {
    const v = cells[i];
    xml += typeof v === 'number' && Number.isFinite(v)
      ? `<c r="${letters[i]}${r}"><v>${v}</v></c>`
      : `<c r="${letters[i]}${r}" t="str"><v>${xmlText(String(v))}</v></c>`;
  }
  return `${xml}</row>`;
}
