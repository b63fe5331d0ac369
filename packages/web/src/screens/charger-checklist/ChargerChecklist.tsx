import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { App, Checkbox, Input, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client.ts';
import { errorText } from '../../api/errors.ts';

export interface ChecklistCharger {
  cp_id: number;
  cp_no: string;
  name?: string;
  /** 1 when the charger belongs to what the checklist edits (a zone, an opening hour). */
  assigned: 0 | 1;
}

/** The ticked chargers, the ticks as loaded, and whether they differ. */
export function useChecklist(chargers: readonly ChecklistCharger[] | undefined) {
  const initial = useMemo(() => new Set((chargers ?? []).filter((c) => c.assigned === 1).map((c) => c.cp_id)), [chargers]);
  const [checked, setChecked] = useState<Set<number>>(new Set());
  useEffect(() => setChecked(new Set(initial)), [initial]);
  const changed = (chargers ?? []).filter((c) => checked.has(c.cp_id) !== initial.has(c.cp_id));
  return { initial, checked, setChecked, changed, reset: () => setChecked(new Set(initial)) };
}

/**
 * Saves a charger assignment (POST path with the body save() is given) and reloads it. Spec §8:
 * only the answer body 'Success' is a success; anything else shows the generic error.
 */
export function useAssignmentSave(path: string, reload: () => Promise<unknown>) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [saving, setSaving] = useState(false);
  const save = async (body: unknown) => {
    setSaving(true);
    try {
      if ((await api.post<unknown>(path, body)) === 'Success') {
        void message.success(t('msg.saved'));
        await reload();
      } else void message.error(t('msg.errorOccurred'));
    } catch (err) {
      void message.error(errorText(err, t));
    } finally {
      setSaving(false);
    }
  };
  return { saving, save };
}

interface Props<C extends ChecklistCharger> {
  chargers: readonly C[];
  checked: Set<number>;
  onChange: (next: Set<number>) => void;
  disabled: boolean;
  /** "{count} of {total} chargers …" in the caller's words. */
  countText: string;
  /** A remark after a charger's name (it belongs to another zone, another opening hour). */
  note?: (charger: C) => ReactNode;
}

/** A searchable grid of charger checkboxes: the assignment tabs of zones and opening hours. */
export function ChargerChecklist<C extends ChecklistCharger>({ chargers, checked, onChange, disabled, countText, note }: Props<C>) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const shown = chargers.filter((c) => `${c.cp_no} ${c.name ?? ''}`.toLowerCase().includes(search.toLowerCase()));
  const toggle = (cpId: number, on: boolean) => {
    const next = new Set(checked);
    if (on) next.add(cpId);
    else next.delete(cpId);
    onChange(next);
  };
  return (
    <>
      <Space wrap>
        <Input.Search allowClear placeholder={t('ui.list.search')} onChange={(e) => setSearch(e.target.value)} style={{ width: 240 }} />
        <Typography.Text type="secondary">{countText}</Typography.Text>
      </Space>
      <div style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(220px, 1fr))', gap: 8 }}>
        {shown.map((c) => (
          <Checkbox key={c.cp_id} disabled={disabled} checked={checked.has(c.cp_id)} onChange={(e) => toggle(c.cp_id, e.target.checked)}>
            <strong>{c.cp_no}</strong>
            {c.name ? ` ${c.name}` : null}
            {note?.(c)}
          </Checkbox>
        ))}
      </div>
    </>
  );
}
