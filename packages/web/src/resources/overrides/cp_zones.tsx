import { useEffect, useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Checkbox, Empty, Input, Space, Spin, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { editPrivilege, readPrivilege } from '@ev/core';
import { api } from '../../api/client.ts';
import { errorText } from '../../api/errors.ts';
import { usePermissions, type Permissions } from '../../app/session.tsx';
import type { RecordData } from '../use-record.ts';
import type { ViewTab } from './types.ts';

interface Charger {
  cp_id: number;
  cp_no: string;
  name: string;
  zone_id: number | null;
  assigned: 0 | 1;
}

/** Zone view: tick the chargers of the zone's site that belong to this zone; saving sends only the changes. */
export function ZoneAssignment({ zone }: { zone: RecordData }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const perms = usePermissions();
  const canEdit = perms.has(editPrivilege('cp_zones'));
  const path = `/cps/loc_id/${String(zone.loc_id)}/zone_id/${String(zone.zone_id)}/zone_assignment`;
  const chargers = useQuery({
    queryKey: ['zone_assignment', zone.loc_id, zone.zone_id],
    queryFn: () => api.get<{ dataset: { content: Charger[] } }>(path).then((r) => r.dataset.content),
  });
  const [checked, setChecked] = useState<Set<number>>(new Set());
  const [search, setSearch] = useState('');
  const [saving, setSaving] = useState(false);

  const initial = useMemo(() => new Set((chargers.data ?? []).filter((c) => c.assigned === 1).map((c) => c.cp_id)), [chargers.data]);
  useEffect(() => setChecked(new Set(initial)), [initial]);

  if (chargers.isPending) return <Spin />;
  if (chargers.isError) return <Alert type="error" showIcon title={errorText(chargers.error, t)} />;
  if (!chargers.data.length) return <Empty description={t('ui.zone.noChargers')} />;

  const changes = chargers.data
    .filter((c) => checked.has(c.cp_id) !== initial.has(c.cp_id))
    .map((c) => ({ cp_id: c.cp_id, action: checked.has(c.cp_id) ? ('add' as const) : ('remove' as const) }));
  const shown = chargers.data.filter((c) => `${c.cp_no} ${c.name}`.toLowerCase().includes(search.toLowerCase()));

  const save = () =>
    modal.confirm({
      title: t('msg.confirmChanges', { x: changes.length }),
      okText: t('ui.common.confirm'),
      cancelText: t('ui.common.cancel'),
      onOk: async () => {
        setSaving(true);
        try {
          const res = await api.put<{ status: string; errorCode?: number }>(`/cps/assign_zone/${String(zone.zone_id)}`, changes);
          if (res.status === 'success') {
            void message.success(t('msg.saved'));
            await chargers.refetch();
          } else void message.error(t(`msg.error.${String(res.errorCode)}`, { defaultValue: t('msg.errorOccurred') }));
        } catch (err) {
          void message.error(errorText(err, t));
        } finally {
          setSaving(false);
        }
      },
    });

  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <Space wrap>
        <Input.Search allowClear placeholder={t('ui.list.search')} onChange={(e) => setSearch(e.target.value)} style={{ width: 240 }} />
        <Typography.Text type="secondary">{t('ui.zone.assignedCount', { count: checked.size, total: chargers.data.length })}</Typography.Text>
      </Space>
      <div style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(220px, 1fr))', gap: 8 }}>
        {shown.map((c) => (
          <Checkbox
            key={c.cp_id}
            disabled={!canEdit}
            checked={checked.has(c.cp_id)}
            onChange={(e) => {
              const next = new Set(checked);
              if (e.target.checked) next.add(c.cp_id);
              else next.delete(c.cp_id);
              setChecked(next);
            }}
          >
            <strong>{c.cp_no}</strong> {c.name}
            {c.zone_id && c.zone_id !== zone.zone_id && !initial.has(c.cp_id) ? (
              <Typography.Text type="warning"> ({t('ui.zone.inOtherZone')})</Typography.Text>
            ) : null}
          </Checkbox>
        ))}
      </div>
      {canEdit && (
        <Space>
          <Button type="primary" disabled={!changes.length} loading={saving} onClick={save}>
            {t('ui.common.save')}
          </Button>
          <Button disabled={!changes.length} onClick={() => setChecked(new Set(initial))}>
            {t('ui.common.reset')}
          </Button>
        </Space>
      )}
    </Space>
  );
}

/** A zone's chargers, for users who may read chargers. */
export const viewTabs = (record: RecordData, perms: Permissions): ViewTab[] =>
  perms.has(readPrivilege('cps')) ? [{ key: 'assignment', label: 'ui.zone.assignment', children: <ZoneAssignment zone={record} /> }] : [];
