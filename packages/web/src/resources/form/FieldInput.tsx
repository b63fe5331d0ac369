import { DatePicker, Input, InputNumber, Switch, TimePicker } from 'antd';
import { useTranslation } from 'react-i18next';
import type { FieldDef } from '@ev/core';
import type { OptionMap } from '../options.ts';
import { OptionSelect } from './OptionSelect.tsx';

interface Props {
  field: FieldDef;
  options: OptionMap;
  disabled?: boolean;
  /** Injected by Form.Item. */
  value?: unknown;
  onChange?: (value: unknown) => void;
  id?: string;
}

/** The input widget of a form field, by its input kind. */
export function FieldInput({ field, options, disabled, value, onChange, id }: Props) {
  const { t } = useTranslation();
  const common = { id, disabled };
  switch (field.input) {
    case 'boolean':
      return (
        <Switch
          {...common}
          checked={!!value}
          onChange={(v) => onChange?.(v)}
          checkedChildren={t('ui.common.yes')}
          unCheckedChildren={t('ui.common.no')}
        />
      );
    case 'number':
      return (
        <InputNumber
          {...common}
          style={{ width: 220 }}
          min={field.min}
          max={field.max}
          step={field.type === 'float' ? 0.1 : 1}
          precision={field.type === 'int' ? 0 : undefined}
          value={value as number | null}
          onChange={(v) => onChange?.(v)}
        />
      );
    case 'select':
    case 'multiselect':
      return (
        <OptionSelect
          {...common}
          options={field.options ? (options[field.options] ?? []) : []}
          multiple={field.input === 'multiselect'}
          limit={field.limit}
          value={value as never}
          onChange={(v) => onChange?.(v)}
          style={{ width: '100%' }}
        />
      );
    case 'password':
      return (
        <Input.Password
          {...common}
          autoComplete="new-password"
          maxLength={field.maxLength}
          value={(value as string) ?? ''}
          onChange={(e) => onChange?.(e.target.value)}
        />
      );
    case 'textarea':
    case 'json':
      return (
        <Input.TextArea
          {...common}
          rows={10}
          maxLength={field.maxLength}
          value={(value as string) ?? ''}
          onChange={(e) => onChange?.(e.target.value)}
          style={field.input === 'json' ? { fontFamily: 'monospace' } : undefined}
        />
      );
    case 'datetime':
      return <DatePicker {...common} showTime format="YYYY-MM-DD HH:mm:ss" value={value as never} onChange={(v) => onChange?.(v)} />;
    case 'time':
      return <TimePicker {...common} format="HH:mm" value={value as never} onChange={(v) => onChange?.(v)} />;
    default:
      return (
        <Input
          {...common}
          type={field.input === 'email' ? 'email' : 'text'}
          maxLength={field.maxLength}
          value={(value as string) ?? ''}
          onChange={(e) => onChange?.(e.target.value)}
        />
      );
  }
}
