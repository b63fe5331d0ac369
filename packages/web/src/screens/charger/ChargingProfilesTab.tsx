import { useState } from 'react';
import { useQuery, useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import { Alert, App, Button, Card, Empty, InputNumber, Segmented, Space, Table, Tag, Tooltip, Typography } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { ERROR_CODES, getResource, type ActionResult } from '@ev/core';
import { api } from '../../api/client.ts';
import { codeText, errorText } from '../../api/errors.ts';
import { useRecord } from '../../resources/use-record.ts';
import { ClearCriteriaModal } from './ClearCriteriaModal.tsx';
import { CompositeScheduleChart, type SchedulePeriod } from './CompositeScheduleChart.tsx';
import { ProfileFormModal } from './ProfileFormModal.tsx';

/** One profile of GET /cps/{id}/chargingProfiles (server charging-profiles/routes.ts). */
interface Profile {
  connectorId: number;
  chargingProfileId: number;
  purpose: string;
  stackLevel: number;
  kind: string;
  recurrency: string | null;
  transactionId: number | null;
  schedule: { chargingRateUnit: string; duration?: number; chargingSchedulePeriod: SchedulePeriod[] };
  source: 'lms' | 'manual';
  setAt: string;
  setBy: string | null;
}
interface Composite {
  scheduleStart?: string;
  chargingSchedule?: { duration?: number; chargingRateUnit: string; chargingSchedulePeriod: SchedulePeriod[] };
}
type Failed = ActionResult & { status: 'error' };
const failed = (r: object): r is Failed => (r as { status?: string }).status === 'error';
const when = (v: string) => dayjs(v).format('YYYY-MM-DD HH:mm:ss');

/**
 * Charger view, "Charging profiles" tab (issue 29): the profiles the server set on the charger per connector,
 * load management's and manual ones; set one by hand, clear by id (row) or criteria, and the charger's composite
 * schedule as a step chart. Commands need the charger connected: their buttons say why they are disabled.
 */
export default function ChargingProfilesTab({ cpId }: { cpId: number }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const [setOpen, setSetOpen] = useState(false);
  const [criteriaOpen, setCriteriaOpen] = useState(false);
  const [compositeConnector, setCompositeConnector] = useState(1);
  const [compositeDuration, setCompositeDuration] = useState(3600);
  const [compositeUnit, setCompositeUnit] = useState<'A' | 'W'>('A');
  const [composite, setComposite] = useState<Composite>();
  const [busy, setBusy] = useState(false);

  const charger = useRecord(getResource('cps')!, cpId, undefined, true) as UseQueryResult<{ online_flag: number }>;
  const offline = charger.data && charger.data.online_flag !== 1 ? codeText(ERROR_CODES.CP_OFFLINE, t) : undefined;
  const list = useQuery({
    queryKey: ['chargingProfiles', cpId],
    queryFn: () => api.get<{ profiles: Profile[]; lmsStackLevel: number } | Failed>(`/cps/${cpId}/chargingProfiles`),
  });
  if (list.data && failed(list.data)) return <Alert type="error" showIcon title={codeText(list.data.errorCode, t)} />;
  const data = list.data;
  const lmsLevel = data?.lmsStackLevel ?? 1;
  const profiles = data?.profiles ?? [];
  const connectors = [...new Set(profiles.map((p) => p.connectorId))];
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ['chargingProfiles', cpId] });
  const answerOf = (r: ActionResult) => (r.data as { status?: string } | undefined)?.status;

  const clearOne = (p: Profile) =>
    modal.confirm({
      title: p.source === 'lms' ? t('ui.chargingProfiles.clearLmsConfirm', { id: p.chargingProfileId }) : t('ui.chargingProfiles.clearConfirm', { id: p.chargingProfileId }),
      okButtonProps: { danger: true },
      onOk: async () => {
        try {
          const res = await api.post<ActionResult>(`/cps/${cpId}/chargingProfiles/clear`, { id: p.chargingProfileId, ...(p.source === 'lms' ? { includeLoadManagement: true } : {}) });
          const status = answerOf(res);
          if (res.status === 'success') void message.success(t('ui.chargingProfiles.answered', { status }));
          else void message.warning(status ? t('ui.chargingProfiles.answered', { status }) : codeText(res.errorCode, t));
        } catch (err) {
          void message.error(errorText(err, t));
        }
        refresh();
      },
    });

  const getComposite = async () => {
    setBusy(true);
    try {
      const res = await api.post<ActionResult>(`/cps/${cpId}/compositeSchedule`, { connectorId: compositeConnector, duration: compositeDuration, chargingRateUnit: compositeUnit });
      if (res.status === 'success') setComposite(res.data as Composite);
      else {
        setComposite(undefined);
        const status = answerOf(res);
        void message.warning(status ? t('ui.chargingProfiles.answered', { status }) : codeText(res.errorCode, t));
      }
    } catch (err) {
      void message.error(errorText(err, t));
    } finally {
      setBusy(false);
    }
  };

  const summary = (p: Profile) => {
    const unit = p.schedule.chargingRateUnit;
    const steps = p.schedule.chargingSchedulePeriod.map((x) => t('ui.chargingProfiles.fromSecond', { start: x.startPeriod, limit: x.limit, unit })).join(' · ');
    return p.schedule.duration ? `${steps} (${t('ui.chargingProfiles.forSeconds', { duration: p.schedule.duration })})` : steps;
  };
  const withReason = (node: React.ReactElement) => <Tooltip title={offline}>{node}</Tooltip>;

  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }} data-testid="charging-profiles">
      <Typography.Text type="secondary">{t('ui.chargingProfiles.intro', { level: lmsLevel })}</Typography.Text>
      <Space wrap>
        {withReason(<Button type="primary" disabled={!!offline} onClick={() => setSetOpen(true)}>{t('ui.chargingProfiles.set')}</Button>)}
        {withReason(<Button danger disabled={!!offline} onClick={() => setCriteriaOpen(true)}>{t('ui.chargingProfiles.clearByCriteria')}</Button>)}
      </Space>
      {data && !profiles.length && <Empty description={t('ui.chargingProfiles.empty')} />}
      {connectors.map((c) => (
        <Card key={c} size="small" title={c === 0 ? t('ui.chargingProfiles.wholeCharger') : t('ui.chargingProfiles.connector', { id: c })} data-testid={`profiles-connector-${c}`}>
          <Table<Profile>
            rowKey="chargingProfileId"
            size="small"
            pagination={false}
            dataSource={profiles.filter((p) => p.connectorId === c)}
            columns={[
              { title: t('ui.chargingProfiles.id'), dataIndex: 'chargingProfileId' },
              {
                title: t('ui.chargingProfiles.purpose'),
                render: (_, p) => (
                  <span>
                    {t(`ui.chargingProfiles.purposes.${p.purpose}`, { defaultValue: p.purpose })} <Typography.Text type="secondary">({p.purpose})</Typography.Text>
                    {p.transactionId !== null && <Tag style={{ marginLeft: 4 }}>{t('ui.chargingProfiles.transaction', { id: p.transactionId })}</Tag>}
                  </span>
                ),
              },
              { title: t('ui.chargingProfiles.stackLevel'), dataIndex: 'stackLevel' },
              { title: t('ui.chargingProfiles.kind'), render: (_, p) => t(`ui.chargingProfiles.kinds.${p.kind}`, { defaultValue: p.kind }) + (p.recurrency ? ` (${t(`ui.chargingProfiles.recurrencies.${p.recurrency}`)})` : '') },
              { title: t('ui.chargingProfiles.schedule'), render: (_, p) => summary(p) },
              { title: t('ui.chargingProfiles.source'), render: (_, p) => <Tag color={p.source === 'lms' ? 'blue' : 'default'}>{p.source === 'lms' ? t('ui.chargingProfiles.lms') : `${t('ui.chargingProfiles.manual')}${p.setBy ? ` · ${p.setBy}` : ''}`}</Tag> },
              { title: t('ui.chargingProfiles.setAt'), render: (_, p) => when(p.setAt) },
              {
                title: '',
                render: (_, p) => withReason(
                  <Button size="small" danger disabled={!!offline} onClick={() => clearOne(p)} aria-label={`${t('ui.chargingProfiles.clear')} ${p.chargingProfileId}`}>
                    {t('ui.chargingProfiles.clear')}
                  </Button>,
                ),
              },
            ]}
          />
        </Card>
      ))}
      <Card size="small" title={t('ui.chargingProfiles.composite')}>
        <Space wrap>
          <span>{t('ui.chargingProfiles.connectorLabel')}</span>
          <InputNumber min={0} max={100} precision={0} value={compositeConnector} onChange={(v) => setCompositeConnector(v ?? 0)} aria-label={t('ui.chargingProfiles.connectorLabel')} />
          <span>{t('ui.chargingProfiles.compositeDuration')}</span>
          <InputNumber min={1} max={604800} precision={0} value={compositeDuration} onChange={(v) => setCompositeDuration(v ?? 3600)} aria-label={t('ui.chargingProfiles.compositeDuration')} />
          <Segmented<'A' | 'W'> options={['A', 'W']} value={compositeUnit} onChange={setCompositeUnit} />
          {withReason(<Button disabled={!!offline} loading={busy} onClick={() => void getComposite()}>{t('ui.chargingProfiles.getComposite')}</Button>)}
        </Space>
        {composite?.chargingSchedule && (
          <div style={{ marginTop: 12 }}>
            <Typography.Text type="secondary">
              {t('ui.chargingProfiles.compositeStart', { at: composite.scheduleStart ? when(composite.scheduleStart) : '-', unit: composite.chargingSchedule.chargingRateUnit })}
            </Typography.Text>
            <CompositeScheduleChart periods={composite.chargingSchedule.chargingSchedulePeriod} duration={composite.chargingSchedule.duration ?? compositeDuration} unit={composite.chargingSchedule.chargingRateUnit} />
          </div>
        )}
      </Card>
      <ProfileFormModal cpId={cpId} lmsLevel={lmsLevel} nextId={Math.max(0, ...profiles.filter((p) => p.source === 'manual').map((p) => p.chargingProfileId)) + 1} open={setOpen}
        onClose={(changed) => { setSetOpen(false); if (changed) refresh(); }} />
      <ClearCriteriaModal cpId={cpId} lmsLevel={lmsLevel} open={criteriaOpen} onClose={(changed) => { setCriteriaOpen(false); if (changed) refresh(); }} />
    </Space>
  );
}
