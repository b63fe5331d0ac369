import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Empty, Space, Spin, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { editPrivilege } from '@ev/core';
import { api } from '../../api/client.ts';
import { errorText } from '../../api/errors.ts';
import { usePermissions } from '../../app/session.tsx';
import type { RecordData } from '../../resources/use-record.ts';
import { ChargerChecklist, useAssignmentSave, useChecklist } from '../charger-checklist/ChargerChecklist.tsx';

interface Charger {
  cp_id: number;
  cp_no: string;
  opening_hour_id: number | null;
  assigned: 0 | 1;
}

interface CheckRow {
  cp_id: number;
  cp_no: string;
  open: 0 | 1;
  next_change: string | null;
  applied_state: string | null;
}

/** The chargers the user may see, ticked when they follow this opening hour (a charger follows at most one). */
export function ChargersTab({ record }: { record: RecordData }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const canEdit = usePermissions().has(editPrivilege('opening_hour'));
  const id = Number(record.opening_hour_id);
  const chargers = useQuery({
    queryKey: ['cp_opening_hour', id],
    queryFn: () => api.get<{ dataset: { content: Charger[] } }>(`/cp_opening_hour/${id}`).then((r) => r.dataset.content),
  });
  const { initial, checked, setChecked, changed, reset } = useChecklist(chargers.data);
  const { saving, save: saveAssignment } = useAssignmentSave('/cp_opening_hour', () => chargers.refetch());
  const [check, setCheck] = useState<{ now: string; timeZone: string; rows: CheckRow[] } | null>(null);

  if (chargers.isPending) return <Spin />;
  if (chargers.isError) return <Alert type="error" showIcon title={errorText(chargers.error, t)} />;
  if (!chargers.data.length) return <Empty description={t('ui.openingHours.noChargers')} />;

  const save = () => saveAssignment({ openingHourId: id, cpIds: [...checked] });
  const runCheck = async () => {
    try {
      const res = await api.post<{ now: string; timeZone: string; dataset: { content: CheckRow[] } }>('/cp_opening_hour/test', { cpIds: [...initial] });
      setCheck({ now: res.now, timeZone: res.timeZone, rows: res.dataset.content });
    } catch (err) {
      void message.error(errorText(err, t));
    }
  };

  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <ChargerChecklist
        chargers={chargers.data}
        checked={checked}
        onChange={setChecked}
        disabled={!canEdit}
        countText={t('ui.openingHours.assignedCount', { count: checked.size, total: chargers.data.length })}
        note={(c) =>
          c.opening_hour_id && c.opening_hour_id !== id ? (
            <Typography.Text type="warning"> ({t('ui.openingHours.otherHours')})</Typography.Text>
          ) : null}
      />
      <Space>
        {canEdit && (
          <>
            <Button type="primary" disabled={!changed.length} loading={saving} onClick={() => void save()}>
              {t('ui.common.save')}
            </Button>
            <Button disabled={!changed.length} onClick={reset}>
              {t('ui.common.reset')}
            </Button>
          </>
        )}
        <Button disabled={!initial.size} onClick={() => void runCheck()}>
          {t('ui.openingHours.check')}
        </Button>
      </Space>
      {check && (
        <Table<CheckRow>
          size="small"
          rowKey="cp_id"
          pagination={false}
          title={() => t('ui.openingHours.checkTitle', { time: check.now, zone: check.timeZone })}
          dataSource={check.rows}
          columns={[
            { key: 'cp_no', dataIndex: 'cp_no', title: t('resources.cps.fields.cp_no', { defaultValue: 'cp_no' }) },
            {
              key: 'open',
              title: t('ui.openingHours.open'),
              render: (_, r) => (r.open ? <Tag color="green">{t('ui.openingHours.open')}</Tag> : <Tag color="red">{t('ui.openingHours.closed')}</Tag>),
            },
            { key: 'next', title: t('ui.openingHours.nextChange'), render: (_, r) => r.next_change ?? '—' },
            {
              key: 'applied',
              title: t('ui.openingHours.applied'),
              render: (_, r) => (r.applied_state ? t(`ui.openingHours.${r.applied_state}`) : t('ui.openingHours.never')),
            },
          ]}
        />
      )}
    </Space>
  );
}
