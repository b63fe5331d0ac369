import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Space, Spin, Table, Tag } from 'antd';
import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { RESOURCES, type ListResponse, type OptionItem } from '@ev/core';
import { api } from '../../api/client.ts';
import { errorText } from '../../api/errors.ts';
import { useLabels } from '../../app/labels.ts';
import { usePermissions } from '../../app/session.tsx';
import { useOptions } from '../../resources/options.ts';
import { useDeleteRecord } from '../../resources/use-delete.tsx';
import type { RecordData } from '../../resources/use-record.ts';
import { SlotForm } from './SlotForm.tsx';

const DEF = RESOURCES.charging_rate_detail;
const ALL = { size: 99999, page: 0, trash: 0 };

interface Scheme {
  id: number;
  name: string;
  maxChargingUnit: number;
}

/**
 * The rate's price details (spec part 2 §2): its time slots, in start order, added, edited and
 * deleted in a popup. The action column needs EDIT_CHARGING_RATE (the definition's rowActionPrivileges).
 */
export function SlotsTab({ rate }: { rate: RecordData }) {
  const { t } = useTranslation();
  const { fieldLabel } = useLabels();
  const perms = usePermissions();
  const rateId = Number(rate.id);
  const locId = rate.loc_id === null || rate.loc_id === undefined ? -1 : Number(rate.loc_id);
  const [editing, setEditing] = useState<RecordData | 'new' | null>(null);
  const confirmDelete = useDeleteRecord(DEF);
  const options = useOptions(['weekday']);
  const slots = useQuery({
    queryKey: ['list', DEF.key, { chargingRateId: rateId }],
    queryFn: () =>
      api.get<ListResponse<RecordData>>(`/${DEF.key}`, { ...ALL, chargingRateId: rateId, loc_id: locId, sort_by: 'startTime', order: 'asc' }).then((r) => r.dataset.content),
  });
  // Spec §5: only the schemes of the rate's site are offered.
  const schemes = useQuery({
    queryKey: ['list', 'price_scheme', { locId }],
    queryFn: () => api.get<ListResponse<Scheme>>('/price_scheme', { ...ALL, locId }).then((r) => r.dataset.content),
  });
  const schemeOptions: OptionItem[] = (schemes.data ?? []).map((s) => ({ value: s.id, label: `${s.name} (${t('ui.rates.sessions', { count: s.maxChargingUnit })})` }));
  const schemeName = (id: unknown) => schemeOptions.find((o) => o.value === id)?.label ?? (id === null ? '' : String(id));
  const dayName = (d: number) => options.weekday?.find((o) => o.value === d)?.label ?? String(d);

  if (slots.isPending) return <Spin />;
  if (slots.isError) return <Alert type="error" showIcon title={errorText(slots.error, t)} />;
  const canCreate = perms.canCreate(DEF) && perms.canEdit(RESOURCES.charging_rate);
  const canEdit = perms.canEdit(DEF);
  const canDelete = perms.canDelete(DEF);

  return (
    <Space orientation="vertical" style={{ width: '100%' }} data-testid="rate-slots">
      <Alert type="info" showIcon title={t(slots.data.length ? 'ui.rates.slotHint' : 'ui.rates.noSlots')} />
      {canCreate && (
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
          {t('ui.rates.addSlot')}
        </Button>
      )}
      <Table<RecordData>
        rowKey="id"
        size="small"
        pagination={false}
        dataSource={slots.data}
        columns={[
          { key: 'id', title: fieldLabel(DEF.key, 'id'), dataIndex: 'id' },
          { key: 'time', title: t('ui.rates.time'), render: (_, r) => `${String(r.startTime)} – ${String(r.endTime)}` },
          {
            key: 'weekday',
            title: fieldLabel(DEF.key, 'weekday'),
            render: (_, r) => (Array.isArray(r.weekday) && r.weekday.length ? (r.weekday as number[]).map(dayName).join(', ') : t('ui.rates.everyDay')),
          },
          { key: 'peak', title: fieldLabel(DEF.key, 'peak'), render: (_, r) => (r.peak ? <Tag color="orange">{t('ui.common.yes')}</Tag> : t('ui.common.no')) },
          { key: 'maxChargingUnit', title: fieldLabel(DEF.key, 'maxChargingUnit'), dataIndex: 'maxChargingUnit' },
          { key: 'priceSchemeId', title: fieldLabel(DEF.key, 'priceSchemeId'), render: (_, r) => schemeName(r.priceSchemeId) },
          { key: 'penaltyUnit', title: fieldLabel(DEF.key, 'penaltyUnit'), dataIndex: 'penaltyUnit' },
          {
            key: 'penaltyFee',
            title: fieldLabel(DEF.key, 'penaltyFee'),
            render: (_, r) => (typeof r.penaltyFee === 'number' ? r.penaltyFee.toFixed(2) : ''),
          },
          ...(canEdit || canDelete
            ? [{
                key: 'actions',
                width: 150,
                title: '',
                render: (_: unknown, r: RecordData) => (
                  <Space>
                    {canEdit && <Button size="small" icon={<EditOutlined />} aria-label={`edit-${String(r.id)}`} onClick={() => setEditing(r)} />}
                    {canDelete && (
                      <Button size="small" danger icon={<DeleteOutlined />} aria-label={`delete-${String(r.id)}`} onClick={() => void confirmDelete(Number(r.id), () => void slots.refetch())} />
                    )}
                  </Space>
                ),
              }]
            : []),
        ]}
      />
      {editing && (
        <SlotForm
          rateId={rateId}
          slot={editing === 'new' ? undefined : editing}
          schemes={schemeOptions}
          onClose={(saved) => {
            setEditing(null);
            if (saved) void slots.refetch();
          }}
        />
      )}
    </Space>
  );
}
