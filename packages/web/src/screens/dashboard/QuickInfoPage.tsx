import { useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { Alert, Card, Col, Empty, Row, Space, Spin, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { P, type CpQuickInfoDTO, type QuickInfoAnswer } from '@ev/core';
import { api } from '../../api/client.ts';
import { errorText } from '../../api/errors.ts';
import { currentLanguage } from '../../app/i18n.ts';
import { usePermissions } from '../../app/session.tsx';
import {
  bayText, Counts, DashboardHeader, Field, groupAccent, kwhText, numberText, plain, REFRESH_MS, secondsText, SiteSelect, StatusTag, UsagePeriod,
} from './parts.tsx';

/** One connector: every field of spec part 1 §2, linking to its charger. */
function ConnectorCard({ c }: { c: CpQuickInfoDTO }) {
  const { t } = useTranslation();
  const name = (currentLanguage() === 'zh-TW' && c.cpNameChi) || c.cpName;
  return (
    <Link to={`/cps/${c.cpId}`} aria-label={t('ui.dashboard.openCharger', { cpNo: c.cpNo })} data-testid="connector-card" data-cp={c.cpNo} data-connector={c.connectorId}>
      <Card
        hoverable
        size="small"
        style={{ height: '100%', borderTop: `3px solid ${groupAccent(c.connectorStatus, c.queueingPos)}` }}
        title={
          <Space orientation="vertical" size={0} style={{ maxWidth: '100%' }}>
            <Typography.Text strong ellipsis>{c.cpNo}</Typography.Text>
            <Typography.Text type="secondary" style={{ fontSize: 12 }} ellipsis>
              {t('ui.dashboard.connector', { n: c.connectorId })}{name !== c.cpNo ? ` · ${name}` : ''}
            </Typography.Text>
          </Space>
        }
        extra={<StatusTag status={c.connectorStatus} queueingPos={c.queueingPos} />}
      >
        <Field label={t('ui.dashboard.lastUpdate')}>{plain(c.lastStatusUpdateDate)}</Field>
        <Field label={t('ui.dashboard.energy')} testId="card-kwh">{kwhText(c.kwh)}</Field>
        <Field label={t('ui.dashboard.chargingTime')}>{secondsText(c.duration)}</Field>
        <Field label={t('ui.dashboard.voltage')}>{numberText(c.voltages, 'V')}</Field>
        <Field label={t('ui.dashboard.current')}>{numberText(c.currents, 'A')}</Field>
        <Field label={t('ui.dashboard.soc')}>{c.soc == null ? '–' : `${Math.round(c.soc)}%`}</Field>
        <Field label={t('ui.dashboard.idTag')} testId="card-id-tag">{plain(c.idTag)}</Field>
        <Field label={t('ui.dashboard.carRegNo')} testId="card-car-reg-no">{plain(c.carRegNo)}</Field>
        <Field label={t('ui.dashboard.start')}>{plain(c.tranStartDate)}</Field>
        <Field label={t('ui.dashboard.end')}>{plain(c.tranStopDate)}</Field>
        <Field label={t('ui.dashboard.bayStatus')} testId="card-bay">{bayText(c.bay, c.bayStatus)}</Field>
      </Card>
    </Link>
  );
}

/**
 * Quick info (/v2/quickinfo, spec part 1 §2): location selector (All first), the counts, the usage summary
 * when the server sent it (READ_DASHBOARD_SUMMARY), a card per connector; refreshed every 60 s.
 */
export default function QuickInfoPage() {
  const { t } = useTranslation();
  const perms = usePermissions();
  const allowed = perms.has(P.V2_DASHBOARD);
  const [locId, setLocId] = useState<number>();
  const info = useQuery({
    queryKey: ['v2/quickInfo', locId ?? 'all'],
    queryFn: () => api.get<QuickInfoAnswer>('/v2/quickInfo', { locId }),
    refetchInterval: REFRESH_MS,
    placeholderData: keepPreviousData,
    // Asked without the privilege the server answers 403, which signs the portal out (spec §8).
    enabled: allowed,
  });
  if (!allowed) return <Alert type="error" showIcon title={t('ui.error.noPermission')} />;
  if (info.isPending) return <Spin style={{ display: 'block', margin: 48 }} />;
  if (info.isError) return <Alert type="error" showIcon title={errorText(info.error, t)} />;
  const d = info.data;
  const summary = d.cpSummaryByDayRangeQuickInfoDTO;
  const sites = d.cpLocQuickInfoDTOS.map((l) => ({ id: l.locId, address: l.address, addressChi: l.addressChi }));
  return (
    <div data-testid="quick-info">
      <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
        <DashboardHeader
          title={t('ui.dashboard.quickInfo')}
          selector={<SiteSelect sites={sites} value={locId} onChange={setLocId} label={t('ui.dashboard.location')} />}
          updatedAt={info.dataUpdatedAt}
        />
        <Counts
          available={d.cpUsage.noOfAvailableConnectors}
          charging={d.cpUsage.noOfChargingConnectors}
          queueing={d.cpUsage.noOfQueueingConnectors}
          unavailable={d.cpUsage.noOfUnAvailableConnectors}
        />
        {summary && (
          <div data-testid="usage-summary">
            <Typography.Title level={5}>{t('ui.dashboard.summary')}</Typography.Title>
            <Row gutter={[16, 16]}>
              <Col xs={24} md={8}><UsagePeriod testId="summary-yesterday" title={t('ui.dashboard.yesterday')} seconds={summary.yesterdaySummary.duration} kwh={summary.yesterdaySummary.kwh} /></Col>
              <Col xs={24} md={8}><UsagePeriod testId="summary-today" title={t('ui.dashboard.today')} seconds={summary.todaySummary.duration} kwh={summary.todaySummary.kwh} /></Col>
              <Col xs={24} md={8}><UsagePeriod testId="summary-7days" title={t('ui.dashboard.last7days')} seconds={summary.last7daysSummary.duration} kwh={summary.last7daysSummary.kwh} /></Col>
            </Row>
          </div>
        )}
        {d.cpQuickInfoDTOS.length ? (
          <Row gutter={[16, 16]}>
            {d.cpQuickInfoDTOS.map((c) => (
              <Col key={`${c.cpId}-${c.connectorId}`} xs={24} sm={12} lg={8} xl={6} xxl={4}>
                <ConnectorCard c={c} />
              </Col>
            ))}
          </Row>
        ) : (
          <Empty description={t('ui.dashboard.noConnectors')} />
        )}
      </Space>
    </div>
  );
}
