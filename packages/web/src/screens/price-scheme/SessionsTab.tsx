import { useEffect, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, InputNumber, Space, Spin, Table } from 'antd';
import { DeleteOutlined } from '@ant-design/icons';
import { PRICE_SCHEME_SESSION_ERROR } from '@ev/core';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../api/errors.ts';
import { api, ApiError } from '../../api/client.ts';

interface SessionRow {
  id: number;
  session: number;
  cash: number;
  point: number;
}

interface Props {
  schemeId: number;
  type: string;
  canEdit: boolean;
}

/**
 * A price scheme's sessions (spec part 2 §4): session n is what n units cost in all. Fixed: only
 * session 1's points are entered, the rest is computed by the server and shown read-only; Custom:
 * every session's cash and points. Saving sends the table after a confirmation. The last session is removed by
 * lowering the scheme's maximum (a session is what n units cost, so only the last can go without leaving a gap):
 * its row is disabled, as the spec's removal marks rows deleted, and comes back if the maximum is raised.
 */
export function SessionsTab({ schemeId, type, canEdit }: Props) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: ['price_scheme_detail', schemeId],
    queryFn: () => api.get<SessionRow[]>(`/price_scheme_detail/${schemeId}`, { size: 99999, page: 0, trash: 0, enable_flag: 1 }),
  });
  const [rows, setRows] = useState<SessionRow[]>([]);
  const [saving, setSaving] = useState(false);
  useEffect(() => setRows(query.data ?? []), [query.data]);

  if (query.isPending) return <Spin />;
  if (query.isError) return <Alert type="error" showIcon title={errorText(query.error, t)} />;
  const fixed = type === 'Fixed';
  const editable = (r: SessionRow, field: 'cash' | 'point') => canEdit && (!fixed || (r.session === 1 && field === 'point'));
  const set = (session: number, field: 'cash' | 'point', v: number | null) =>
    setRows((prev) => prev.map((r) => (r.session === session ? { ...r, [field]: v ?? 0 } : r)));

  const save = () =>
    modal.confirm({
      title: t('ui.priceScheme.confirmSave'),
      okText: t('ui.common.confirm'),
      cancelText: t('ui.common.cancel'),
      onOk: async () => {
        setSaving(true);
        try {
          await api.put(`/price_scheme_detail/${schemeId}`, rows.map(({ session, cash, point }) => ({ session, cash, point })));
          void message.success(t('msg.saved'));
          await query.refetch();
        } catch (err) {
          void message.error(errorText(err, t));
        } finally {
          setSaving(false);
        }
      },
    });

  const remove = (session: number) =>
    modal.confirm({
      title: t('ui.priceScheme.confirmRemove', { n: session }),
      content: t('ui.priceScheme.confirmRemoveBody', { max: session - 1 }),
      okText: t('ui.common.confirm'),
      cancelText: t('ui.common.cancel'),
      okButtonProps: { danger: true },
      onOk: async () => {
        try {
          await api.put(`/price_scheme/${schemeId}`, { maxChargingUnit: session - 1 });
          void message.success(t('msg.saved'));
          await Promise.all([query.refetch(), queryClient.invalidateQueries({ queryKey: ['record', 'price_scheme'] })]);
        } catch (err) {
          const usedBySlot = err instanceof ApiError && (err.body as { fields?: Record<string, string> } | null)?.fields?.maxChargingUnit === PRICE_SCHEME_SESSION_ERROR;
          void message.error(usedBySlot ? t('ui.priceScheme.removeRefused') : errorText(err, t));
        }
      },
    });

  const input = (r: SessionRow, field: 'cash' | 'point') =>
    editable(r, field) ? (
      <InputNumber
        id={`${field}-${r.session}`}
        min={0}
        precision={field === 'cash' ? 2 : 0}
        style={{ width: 140 }}
        value={r[field]}
        onChange={(n) => set(r.session, field, typeof n === 'number' ? n : null)}
      />
    ) : (
      <span data-testid={`${field}-${r.session}`}>{field === 'cash' ? r.cash.toFixed(2) : r.point}</span>
    );

  return (
    <Space orientation="vertical" style={{ width: '100%' }} data-testid="price-scheme-sessions">
      <Alert type="info" showIcon title={t(fixed ? 'ui.priceScheme.fixedHint' : 'ui.priceScheme.customHint')} />
      <Table<SessionRow>
        rowKey="session"
        size="small"
        pagination={false}
        dataSource={rows}
        columns={[
          { key: 'session', title: t('ui.priceScheme.session'), dataIndex: 'session' },
          { key: 'cash', title: t('ui.priceScheme.cash'), render: (_, r) => input(r, 'cash') },
          { key: 'point', title: t('ui.priceScheme.point'), render: (_, r) => input(r, 'point') },
          ...(canEdit
            ? [{
                key: 'remove',
                title: t('ui.list.actions'),
                render: (_: unknown, r: SessionRow) =>
                  r.session > 1 && r.session === rows.length ? (
                    <Button type="link" size="small" danger icon={<DeleteOutlined />} data-testid={`remove-${r.session}`} onClick={() => remove(r.session)}>
                      {t('ui.priceScheme.remove')}
                    </Button>
                  ) : null,
              }]
            : []),
        ]}
      />
      {canEdit && (
        <Space>
          <Button type="primary" loading={saving} onClick={save}>
            {t('ui.priceScheme.save')}
          </Button>
          <Button onClick={() => setRows(query.data ?? [])}>{t('ui.common.reset')}</Button>
        </Space>
      )}
    </Space>
  );
}
