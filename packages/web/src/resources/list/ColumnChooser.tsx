import { Button, Checkbox, Popover } from 'antd';
import { SettingOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { ColumnDef } from '@ev/core';

interface Props {
  /** The columns hidden by default that the user may turn on. */
  columns: ColumnDef[];
  shown: string[];
  label: (field: string) => string;
  onChange: (shown: string[]) => void;
}

/** Long definitions (chargers, sites) hide most columns; this lets the user bring some back. */
export function ColumnChooser({ columns, shown, label, onChange }: Props) {
  const { t } = useTranslation();
  if (!columns.length) return null;
  return (
    <Popover
      trigger="click"
      placement="bottomRight"
      title={t('ui.list.moreColumns')}
      content={
        <Checkbox.Group
          value={shown}
          onChange={(v) => onChange(v as string[])}
          style={{ display: 'grid', gridTemplateColumns: 'repeat(2, minmax(160px, 1fr))', gap: 4, maxHeight: 360, overflow: 'auto' }}
          options={columns.map((c) => ({ value: c.field, label: label(c.field) }))}
        />
      }
    >
      <Button icon={<SettingOutlined />}>{t('ui.list.columns')}</Button>
    </Popover>
  );
}
