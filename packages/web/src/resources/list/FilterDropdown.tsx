import { useState } from 'react';
import { Button, Input, Space, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ColumnDef, OptionItem } from '@ev/core';
import { OptionSelect } from '../form/OptionSelect.tsx';
import type { FilterValue } from './list-state.ts';
import { lazyPart } from '../../app/lazy-part.tsx';

const DateRangeFilter = lazyPart(() => import('./DateRangeFilter.tsx').then((m) => m.DateRangeFilter));

interface Props {
  col: ColumnDef;
  value: FilterValue | undefined;
  options: OptionItem[];
  onApply: (value: FilterValue | undefined) => void;
}

/** The widget in a column header, one per filter kind; applies on OK / Enter, clears on Reset. */
export function FilterDropdown({ col, value, options, onApply }: Props) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<FilterValue | undefined>(value ?? (col.filter === 'boolean' ? 0 : undefined));
  const apply = () => onApply(draft === '' || (Array.isArray(draft) && !draft.length) ? undefined : draft);

  let widget;
  switch (col.filter) {
    case 'text':
      widget = (
        <Input
          autoFocus
          allowClear
          placeholder={t('ui.list.search')}
          value={draft === undefined ? '' : String(draft)}
          onChange={(e) => setDraft(e.target.value)}
          onPressEnter={apply}
        />
      );
      break;
    case 'select':
    case 'multiselect':
      // A select on a column with no option list (an ID such as rsr_id) matches a typed value exactly.
      if (!col.options) {
        widget = (
          <Input
            autoFocus
            allowClear
            value={draft === undefined ? '' : String(draft)}
            onChange={(e) => setDraft(e.target.value.trim())}
            onPressEnter={apply}
          />
        );
        break;
      }
      widget = (
        <OptionSelect
          options={options}
          multiple={col.filter === 'multiselect'}
          value={draft}
          onChange={(v) => setDraft(v as FilterValue | undefined)}
          style={{ width: 240 }}
        />
      );
      break;
    case 'boolean':
      widget = (
        <Switch
          checked={draft === 1}
          onChange={(on) => setDraft(on ? 1 : 0)}
          checkedChildren={t('ui.common.yes')}
          unCheckedChildren={t('ui.common.no')}
        />
      );
      break;
    case 'dateRange':
      widget = <DateRangeFilter value={draft} onChange={setDraft} />;
      break;
    default:
      return null;
  }

  return (
    <div style={{ padding: 8 }} onKeyDown={(e) => e.stopPropagation()}>
      <div style={{ marginBottom: 8 }}>{widget}</div>
      <Space>
        <Button type="primary" size="small" onClick={apply}>
          {t('ui.list.filter')}
        </Button>
        <Button size="small" onClick={() => onApply(undefined)}>
          {t('ui.list.reset')}
        </Button>
      </Space>
    </div>
  );
}
