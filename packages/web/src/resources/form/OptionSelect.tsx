import type { CSSProperties } from 'react';
import { App, Checkbox, Divider, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import type { OptionItem } from '@ev/core';

type Value = string | number | (string | number)[] | undefined;

interface Props {
  options: OptionItem[];
  multiple?: boolean;
  /** Maximum number of selected items (spec: 'Select up to {limit} maximum'). */
  limit?: number;
  value?: Value;
  onChange?: (value: Value) => void;
  disabled?: boolean;
  style?: CSSProperties;
  id?: string;
}

/** Select / multi-select with a search box, select all and a selection limit (spec part 1 §2). */
export function OptionSelect({ options, multiple, limit, value, onChange, disabled, style, id }: Props) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const selected = Array.isArray(value) ? value : [];

  const change = (next: Value) => {
    if (multiple && limit && Array.isArray(next) && next.length > limit) {
      void message.warning(t('msg.form.selectLimit', { limit }));
      return;
    }
    onChange?.(next);
  };
  const allChecked = options.length > 0 && options.every((o) => selected.some((s) => String(s) === String(o.value)));

  return (
    <Select
      id={id}
      mode={multiple ? 'multiple' : undefined}
      allowClear
      disabled={disabled}
      style={{ minWidth: 200, ...style }}
      value={value as never}
      onChange={(v) => change(v as Value)}
      options={options}
      showSearch={{ optionFilterProp: 'label' }}
      maxTagCount="responsive"
      placeholder={t('ui.form.selectPlaceholder')}
      notFoundContent={t('ui.form.noOption')}
      popupRender={(menu) =>
        multiple && options.length > 0 ? (
          <>
            <div style={{ padding: '4px 12px' }}>
              <Checkbox
                checked={allChecked}
                indeterminate={!allChecked && selected.length > 0}
                onChange={(e) => change(e.target.checked ? options.map((o) => o.value) : [])}
              >
                {t('ui.form.selectAll')}
              </Checkbox>
            </div>
            <Divider style={{ margin: '4px 0' }} />
            {menu}
          </>
        ) : (
          menu
        )
      }
    />
  );
}
