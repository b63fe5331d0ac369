import {
  buildCatalogs, catalogTranslate, displayText, flatRows, getResource, isTrue, mayReadOptionList, nestedColumn, rowKeys, storedTextIn,
  type ColumnDef, type Lang, type ResourceDef,
} from '@ev/core';
import type { AuthUser } from '../auth/session.ts';
import type { Sql } from '../db/client.ts';
import { loadOptions } from './options.ts';

const CATALOGS = buildCatalogs();
export const translator = (lang: Lang) => catalogTranslate(CATALOGS[lang].translation, CATALOGS.en.translation);

/** A cell as the reader sees it on the screen: a number stays a number (a sheet sums it), anything else is text. */
export type ExportCell = (field: string, value: unknown) => string | number;

/**
 * How exports (Excel, PDF) write each value, as the list and view show it (issue 30): option labels
 * instead of ids (a campaign's name, a site's address), yes/no instead of 1/0, durations as
 * hh:mm:ss, stored texts and a JSON table's rows (a charger's connectors) in the reader's language.
 * The option lists are read once, before the first row; a list the user may not read keeps its ids,
 * as the screen would.
 */
export async function exportText(sql: Sql, def: ResourceDef, user: AuthUser, lang: Lang, fields: string[]): Promise<ExportCell> {
  const t = translator(lang);
  const columns = new Map(def.columns.filter((c) => fields.includes(c.field)).map((c) => [c.field, c]));
  const nested = (field: string, name: string) => nestedColumn(def, field, name);
  // Nested keys are known only from the rows: their option lists are those of the columns they may be.
  const wanted = new Set<string>();
  for (const col of columns.values()) {
    if (col.options) wanted.add(col.options);
    if (col.display === 'json') for (const c of [...def.columns, ...(getResource(col.field)?.columns ?? [])]) if (c.options) wanted.add(c.options);
  }
  const readable = [...wanted].filter((k) => mayReadOptionList(k, (p) => user.privileges.has(p)));
  const lists = await loadOptions(sql, user, readable, lang);
  const labels = new Map(Object.entries(lists).map(([k, items]) => [k, new Map(items.map((o) => [String(o.value), o.label]))]));
  const option = (key: string, value: unknown) => labels.get(key)?.get(String(value));
  const [yes, no] = [t('ui.common.yes', {}), t('ui.common.no', {})];
  const yesNo = (v: unknown) => (isTrue(v) ? yes : no);
  const findKeyLabel = (field: string, name: string) => {
    for (const owner of [def.key, field]) {
      const key = `resources.${owner}.fields.${name}`;
      const label = t(key, {});
      if (label !== key) return label;
    }
    return name;
  };
  // Looked up once per key: a million-row export would otherwise translate each JSON key of each row.
  const keyLabels = new Map<string, string>();
  const keyLabel = (field: string, name: string) => {
    const id = `${field}\0${name}`;
    let label = keyLabels.get(id);
    if (label === undefined) keyLabels.set(id, (label = findKeyLabel(field, name)));
    return label;
  };

  const plain = (col: ColumnDef, value: unknown): string | number => {
    if (col.display === 'boolean') return value === null || value === undefined || value === '' ? '' : yesNo(value);
    if (col.display === 'message') return storedTextIn(value, t, lang);
    if (typeof value === 'object' && !Array.isArray(value)) return JSON.stringify(value);
    if (typeof value === 'number' && (col.display === 'text' || col.display === 'number' || col.display === 'link') && col.decimals === undefined) return value;
    return displayText(col, value, option);
  };
  return (field, value) => {
    if (value === null || value === undefined) return '';
    const col = columns.get(field);
    if (!col) return typeof value === 'object' ? JSON.stringify(value) : (value as string | number);
    const rows = col.display === 'json' ? flatRows(value) : undefined;
    // A small table as lines: one per row, each "label: value" of its keys.
    if (rows) {
      const keys = rowKeys(rows);
      return rows.map((r) => keys.map((k) => {
        const c = nested(field, k);
        const v = r[k];
        return `${keyLabel(field, k)}: ${c ? plain(c, v) : v === null ? '' : String(v)}`;
      }).join(' · ')).join('\n');
    }
    return plain(col, value);
  };
}
