import { Alert, Descriptions, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ResourceDef } from '@ev/core';
import { errorText } from '../../api/errors.ts';
import { useLabels } from '../../app/labels.ts';
import { usePermissions } from '../../app/session.tsx';
import { renderValue } from '../display.tsx';
import { useOptions } from '../options.ts';
import { useRecord, type RecordData } from '../use-record.ts';

/** Label / value pairs of every column the user may see (view page and pop-view). */
export function RecordDescriptions({ def, record }: { def: ResourceDef; record: RecordData }) {
  const { fieldLabel } = useLabels();
  const perms = usePermissions();
  const columns = def.columns.filter(
    (c) => c.display !== 'massUpdate' && c.display !== 'action' && perms.hasAll(c.privileges),
  );
  const options = useOptions(columns.map((c) => c.options));
  return (
    <Descriptions
      bordered
      size="small"
      column={{ xs: 1, sm: 1, md: 2 }}
      styles={{ label: { width: 200 } }}
      items={columns.map((c) => ({
        key: c.field,
        label: fieldLabel(def.key, c.field),
        children: renderValue(c, record[c.field], options, true),
        span: c.display === 'json' ? 'filled' : 1,
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
