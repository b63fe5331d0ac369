import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ExclamationCircleOutlined } from '@ant-design/icons';
import { Checkbox, Image, Table, Tag, Typography } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { displayText, flatRows, getResource, isTrue, rowKeys, storedTextIn, type ColumnDef, type FlatRow } from '@ev/core';
import { humanize, useLabels } from '../app/labels.ts';
import { optionLabel, useOptions, type OptionMap } from './options.ts';

/** Plain text of a value, for list cells, filter tags and the change counter. */
export function valueText(col: ColumnDef, value: unknown, options: OptionMap): string {
  return displayText(col, value, (key, v) => optionLabel(options[key], v));
}

/** How the keys of a JSON value are named and shown (view page); without it, humanized and plain. */
export interface JsonKeys {
  label: (name: string) => string;
  column?: (name: string) => ColumnDef | undefined;
}

function JsonTable({ rows, keys, options }: { rows: FlatRow[]; keys?: JsonKeys; options: OptionMap }) {
  const names = rowKeys(rows);
  return (
    <Table<FlatRow & { __row: number }>
      size="small"
      bordered
      pagination={false}
      scroll={{ x: 'max-content' }}
      rowKey="__row"
      dataSource={rows.map((r, i) => ({ ...r, __row: i }))}
      columns={names.map((name) => {
        const col = keys?.column?.(name);
        return {
          key: name,
          dataIndex: name,
          title: keys?.label(name) ?? name,
          render: (v: FlatRow[string]) => (col ? renderValue(col, v, options) : v === null ? '' : String(v)),
        };
      })}
    />
  );
}

/** A stored text (a log's message, an error the server words) in the reader's language; plain text as it is. */
export function readStoredText(value: unknown, t: TFunction, lang: string): string {
  return storedTextIn(value, (key, params) => t(key, { ...params, defaultValue: key }), lang === 'zh-TW' ? 'zh-TW' : 'en');
}

function StoredTextView({ value }: { value: unknown }) {
  const { t, i18n } = useTranslation();
  return readStoredText(value, t, i18n.language);
}

/** An audit row's record before and after, and the resource it concerns (display 'changes'). */
interface AuditChanges {
  target?: string | null;
  old?: Record<string, unknown> | null;
  new?: Record<string, unknown> | null;
}

/** Never shown, even where an older audit row kept them. */
const SECRET = /password|secret|api_key|token|_hash$/i;

/** The fields that changed, labelled and displayed as in the target resource, in the reader's language. */
function ChangesTable({ value }: { value: AuditChanges }) {
  const { t } = useTranslation();
  const { fieldLabel } = useLabels();
  const target = value.target ? getResource(value.target) : undefined;
  const before = value.old ?? {};
  const after = value.new ?? {};
  const writeOnly = new Set(target?.fields.filter((f) => f.writeOnly).map((f) => f.field));
  const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter(
    (f) => !SECRET.test(f) && !writeOnly.has(f) && !same(before[f], after[f]),
  );
  const columnOf = (field: string) => target?.columns.find((c) => c.field === field);
  const options = useOptions(fields.map((f) => columnOf(f)?.options));
  if (!fields.length) return <Typography.Text type="secondary">{t('ui.actionLog.noChanges')}</Typography.Text>;
  const cell = (field: string, v: unknown): string => {
    const col = columnOf(field);
    if (v === null || v === undefined || v === '') return '';
    if (col?.display === 'boolean') return t(isTrue(v) ? 'ui.common.yes' : 'ui.common.no');
    if (col && col.display !== 'json') return valueText(col, v, options);
    return typeof v === 'object' ? JSON.stringify(v) : String(v);
  };
  return (
    <Table
      size="small"
      bordered
      pagination={false}
      rowKey="field"
      data-testid="action-log-changes"
      dataSource={fields.map((f) => ({ field: f, label: target ? fieldLabel(target.key, f) : humanize(f), before: cell(f, before[f]), after: cell(f, after[f]) }))}
      columns={[
        { key: 'label', dataIndex: 'label', title: t('ui.actionLog.field'), width: 200 },
        { key: 'before', dataIndex: 'before', title: t('ui.actionLog.before') },
        { key: 'after', dataIndex: 'after', title: t('ui.actionLog.after') },
      ]}
    />
  );
}

/** How a value shows in a list cell (compact) or a view page (full, where a JSON array of flat objects is a table). */
export function renderValue(col: ColumnDef, value: unknown, options: OptionMap, full = false, keys?: JsonKeys): ReactNode {
  if (col.display === 'boolean') return <Checkbox checked={isTrue(value)} disabled />;
  const empty = value === null || value === undefined || value === '' || (Array.isArray(value) && !value.length);
  if (empty) return full ? <Typography.Text type="secondary">-</Typography.Text> : null;
  if (col.display === 'link' && col.linkTo) return <Link to={`/${col.linkTo}/${encodeURIComponent(String(value))}`}>{String(value)}</Link>;
  if (col.display === 'message') return <StoredTextView value={value} />;
  if (col.display === 'changes') return <ChangesTable value={value as AuditChanges} />;
  if (col.display === 'flag') return <Tag color="warning" icon={<ExclamationCircleOutlined />}>{valueText(col, value, options)}</Tag>;
  // A picture's web address shows as the picture (a thumbnail in lists, opened full size on click); a path the
  // browser cannot load (a file on the parking system's disk) stays text.
  if (col.display === 'image' && /^(https?:|data:image\/|\/)/i.test(String(value))) {
    return <Image src={String(value)} alt={col.field} height={full ? 240 : 40} referrerPolicy="no-referrer" style={{ objectFit: 'contain' }} />;
  }
  if (col.display === 'json') {
    const rows = full ? flatRows(value) : undefined;
    if (rows) return <JsonTable rows={rows} keys={keys} options={options} />;
    if (full) return <pre style={{ margin: 0, whiteSpace: 'pre-wrap', maxHeight: 320, overflow: 'auto' }}>{JSON.stringify(value, null, 2)}</pre>;
    // A native title, not a Tooltip: a 200-row page of messages would mount 400 of them.
    const text = valueText(col, value, options);
    return text.length > 60 ? <span title={text}>{`${text.slice(0, 60)}…`}</span> : text;
  }
  return valueText(col, value, options);
}
