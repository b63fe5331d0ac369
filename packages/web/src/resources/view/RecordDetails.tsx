import { Alert, Descriptions, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { flatRows, nestedColumn, rowKeys, type ResourceDef } from '@ev/core';
import { errorText } from '../../api/errors.ts';
import { useLabels } from '../../app/labels.ts';
import { usePermissions } from '../../app/session.tsx';
import { renderValue, type JsonKeys } from '../display.tsx';
import { useOptions } from '../options.ts';
import { useRecord, type RecordData } from '../use-record.ts';

/** Label / value pairs of every column the user may see (view page and pop-view). */
export function RecordDescriptions({ def, record }: { def: ResourceDef; record: RecordData }) {
  const { fieldLabel, jsonKeyLabel } = useLabels();
  const perms = usePermissions();
  const columns = def.columns.filter(
    (c) => c.display !== 'massUpdate' && c.display !== 'action' && perms.hasAll(c.privileges),
  );
  // A JSON field holding rows shows as a table: its keys named and displayed like the columns of that name.
  const jsonKeys = (field: string): JsonKeys => ({
    label: (name) => jsonKeyLabel(def.key, field, name),
    column: (name) => nestedColumn(def, field, name),
  });
  const nestedOptions = columns
    .filter((c) => c.display === 'json')
    .flatMap((c) => rowKeys(flatRows(record[c.field]) ?? []).map((name) => nestedColumn(def, c.field, name)?.options));
  const options = useOptions([...columns.map((c) => c.options), ...nestedOptions]);
  // A JSON value (a table) takes a row of its own on two columns: sharing one, its width squeezes the other
  // value to a letter per line. The item before it then fills its own row.
  const spans: (1 | 'filled')[] = [];
  let second = false;
  for (const c of columns) {
    if (c.display === 'json' || c.display === 'changes') {
      if (second) spans[spans.length - 1] = 'filled';
      spans.push('filled');
      second = false;
    } else {
      spans.push(1);
      second = !second;
    }
  }
  return (
    <Descriptions
      bordered
      size="small"
      column={{ xs: 1, sm: 1, md: 2 }}
      styles={{ label: { width: 200 } }}
      items={columns.map((c, i) => ({
        key: c.field,
        label: fieldLabel(def.key, c.field),
        children: renderValue(c, record[c.field], options, true, c.display === 'json' ? jsonKeys(c.field) : undefined),
        span: spans[i],
      }))}
    />
  );
}

export function RecordDetails({ def, id }: { def: ResourceDef; id: string | number }) {
  const { t } = useTranslation();
  const record = useRecord(def, id);
  if (record.isPending) return <Spin />;
  if (record.isError) return <Alert type="error" showIcon title={errorText(record.error, t)} />;
  return <RecordDescriptions def={def} record={record.data} />;
}
