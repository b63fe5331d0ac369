import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Empty, Space, Spin, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { editPrivilege, readPrivilege } from '@ev/core';
import { api } from '../../api/client.ts';
import { errorText } from '../../api/errors.ts';
import { usePermissions, type Permissions } from '../../app/session.tsx';
import type { RecordData } from '../use-record.ts';
import type { ViewTab } from './types.ts';
import { ChargerChecklist, useChecklist } from '../../screens/charger-checklist/ChargerChecklist.tsx';

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
  const { initial, checked, setChecked, changed, reset } = useChecklist(chargers.data);
  const [saving, setSaving] = useState(false);

  if (chargers.isPending) return <Spin />;
  if (chargers.isError) return <Alert type="error" showIcon title={errorText(chargers.error, t)} />;
  if (!chargers.data.length) return <Empty description={t('ui.zone.noChargers')} />;

  const changes = changed.map((c) => ({ cp_id: c.cp_id, action: checked.has(c.cp_id) ? ('add' as const) : ('remove' as const) }));

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
      <ChargerChecklist
        chargers={chargers.data}
        checked={checked}
        onChange={setChecked}
        disabled={!canEdit}
        countText={t('ui.zone.assignedCount', { count: checked.size, total: chargers.data.length })}
        note={(c) =>
          c.zone_id && c.zone_id !== zone.zone_id && !initial.has(c.cp_id) ? (
            <Typography.Text type="warning"> ({t('ui.zone.inOtherZone')})</Typography.Text>
          ) : null}
      />
      {canEdit && (
        <Space>
          <Button type="primary" disabled={!changes.length} loading={saving} onClick={save}>
            {t('ui.common.save')}
          </Button>
          <Button disabled={!changes.length} onClick={reset}>
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
