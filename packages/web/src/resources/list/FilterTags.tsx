import { Button, Space, Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ResourceDef } from '@ev/core';
import { useLabels } from '../../app/labels.ts';
import { valueText } from '../display.tsx';
import type { OptionMap } from '../options.ts';
import type { FilterValue } from './list-state.ts';

interface Props {
  def: ResourceDef;
  filters: Record<string, FilterValue>;
  options: OptionMap;
  onRemove: (field: string) => void;
  onClear: () => void;
}

/** Active filters as removable tags above the table (spec part 1 §2). */
export function FilterTags({ def, filters, options, onRemove, onClear }: Props) {
  const { t } = useTranslation();
  const { fieldLabel } = useLabels();
  const active = Object.entries(filters).filter(([, v]) => v !== undefined && v !== '');
  if (!active.length) return null;

  const text = (field: string, value: FilterValue) => {
    const col = def.columns.find((c) => c.field === field);
    if (!col) return String(value);
    if (col.filter === 'boolean') return Number(value) === 1 ? t('ui.common.yes') : t('ui.common.no');
    if (col.filter === 'dateRange' && Array.isArray(value)) return `${value[0]} ~ ${value[1]}`;
    return valueText(col, value, options);
  };
  // A long multi-select (cp_requests' thirteen default request types) would stretch the page: show three and a count.
  const short = (field: string, value: FilterValue) => {
    if (!Array.isArray(value) || value.length <= 3) return text(field, value);
    return `${text(field, value.slice(0, 3))} +${value.length - 3}`;
  };

  return (
    <Space wrap size={[4, 8]} style={{ marginBottom: 12 }} data-testid="filter-tags">
      {active.map(([field, value]) => (
        <Tag
          key={field}
          color="processing"
          closable
          onClose={(e) => {
            e.preventDefault();
            onRemove(field);
          }}
        >
          <Tooltip title={Array.isArray(value) && value.length > 3 ? text(field, value) : undefined}>
            <span>
              {fieldLabel(def.key, field)}: {short(field, value)}
            </span>
          </Tooltip>
        </Tag>
      ))}
      <Button type="link" size="small" onClick={onClear}>
        {t('ui.list.clearFilters')}
      </Button>
    </Space>
  );
}
