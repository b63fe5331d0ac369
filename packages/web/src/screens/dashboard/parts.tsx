import type { ReactNode } from 'react';
import { Card, Col, Row, Select, Space, Statistic, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import { dashboardGroup, staticOptionItems, type DashboardGroup } from '@ev/core';
import { currentLanguage } from '../../app/i18n.ts';
import { formatSeconds } from '@ev/core';

/** Spec part 1 §9: dashboards refresh every 60 s. */
export const REFRESH_MS = 60_000;

/** Colour of each status: green free, blue charging, amber paused or in between, red faulted, grey out of service. */
const STATUS_COLORS: Record<string, string> = {
  Available: 'success',
  Charging: 'processing',
  SuspendedEV: 'gold',
  SuspendedEVSE: 'gold',
  Preparing: 'cyan',
  Finishing: 'purple',
  Reserved: 'magenta',
  Faulted: 'error',
  Unavailable: 'default',
  Offline: 'default',
  'N/A': 'default',
};
/** The count colours, matching the statuses they gather (queueing: orange, a car waiting for current). */
export const GROUP_COLORS: Record<DashboardGroup, string> = { available: '#52c41a', charging: '#1677ff', queueing: '#fa8c16', unavailable: '#8c8c8c' };

/**
 * A connector status as a coloured tag, labelled in the reader's language. While load management holds the
 * car in its queue (queueingPos) that is what the car is doing: the tag says Queueing with its position, the
 * status the charger reports (SuspendedEVSE, Preparing…) in its tooltip. One tag, so the card's title keeps its room.
 */
export function StatusTag({ status, queueingPos = null }: { status: string; queueingPos?: number | null }) {
  const { t } = useTranslation();
  const label = staticOptionItems('connector_status', currentLanguage()).find((o) => o.value === status)?.label ?? status;
  if (queueingPos !== null) {
    return (
      <Tooltip title={t('ui.dashboard.queueHint', { pos: queueingPos, status: label })}>
        <Tag color="orange" data-testid="queue-status" data-status={status} data-position={queueingPos} style={{ marginInlineEnd: 0 }}>
          {t('ui.dashboard.queuePosition', { pos: queueingPos })}
        </Tag>
      </Tooltip>
    );
  }
  return (
    <Tag color={STATUS_COLORS[status] ?? 'default'} data-testid="connector-status" data-status={status} style={{ marginInlineEnd: 0 }}>
      {label}
    </Tag>
  );
}

/** The accent of a card's edge by its count group. */
export const groupAccent = (status: string, queueingPos: number | null) => GROUP_COLORS[dashboardGroup(status, queueingPos !== null)];

/** A connector's parking bay: its name and status in the reader's language, '–' without a bay. */
export function bayText(bay: string | null, status: string | null): string {
  if (bay === null) return '–';
  const label = staticOptionItems('bay_status', currentLanguage()).find((o) => o.value === status)?.label ?? status;
  return label ? `${bay} · ${label}` : bay;
}

export const kwhText = (kwh: number | null | undefined) => (kwh == null ? '–' : `${kwh.toFixed(2)} kWh`);
export const whText = (wh: number | null | undefined) => (wh == null ? '–' : `${(wh / 1000).toFixed(2)} kWh`);
export const secondsText = (s: number | null | undefined) => (s == null ? '–' : formatSeconds(s));
export const numberText = (n: number | null | undefined, unit: string, digits = 1) => (n == null ? '–' : `${n.toFixed(digits)} ${unit}`);
export const plain = (v: string | number | null | undefined) => (v == null || v === '' ? '–' : String(v));

/** The counts of Available, Charging, Queueing (held by load management) and Unavailable connectors. */
export function Counts({ available, charging, queueing, unavailable }: Record<DashboardGroup, number>) {
  const { t } = useTranslation();
  const items: [DashboardGroup, number][] = [['available', available], ['charging', charging], ['queueing', queueing], ['unavailable', unavailable]];
  return (
    <Row gutter={[16, 16]}>
      {items.map(([group, n]) => (
        <Col key={group} xs={24} sm={12} lg={6}>
          <Card size="small" style={{ borderInlineStart: `4px solid ${GROUP_COLORS[group]}` }} data-testid={`count-${group}`}>
            <Statistic title={t(`ui.dashboard.${group}`)} value={n} suffix={t('ui.dashboard.connectors', { count: n })} styles={{ content: { color: GROUP_COLORS[group] } }} />
          </Card>
        </Col>
      ))}
    </Row>
  );
}

/** One period of a usage summary: charging time and energy. */
export function UsagePeriod({ title, seconds, kwh, testId }: { title: string; seconds: number; kwh: number; testId: string }) {
  const { t } = useTranslation();
  return (
    <Card size="small" title={title} data-testid={testId}>
      <Row gutter={8}>
        <Col span={12}>
          <Statistic title={t('ui.dashboard.chargingTime')} value={formatSeconds(seconds)} />
        </Col>
        <Col span={12}>
          <Statistic title={t('ui.dashboard.energy')} value={kwh} precision={2} suffix="kWh" />
        </Col>
      </Row>
    </Card>
  );
}

export interface SiteOption {
  id: number;
  address: string;
  addressChi: string | null;
}

/** The site selector: All first, then the user's sites (their Chinese address in zh-TW when entered). */
export function SiteSelect({ sites, value, onChange, label }: { sites: SiteOption[]; value: number | undefined; onChange: (v: number | undefined) => void; label: string }) {
  const { t } = useTranslation();
  const zh = currentLanguage() === 'zh-TW';
  const options = [
    { value: 0, label: t('ui.dashboard.all') },
    ...sites.map((s) => ({ value: s.id, label: (zh && s.addressChi) || s.address })),
  ];
  return (
    <Space>
      <Typography.Text strong>{label}</Typography.Text>
      <Select
        data-testid="site-select"
        style={{ minWidth: 260 }}
        showSearch={{ optionFilterProp: 'label' }}
        value={value ?? 0}
        options={options}
        onChange={(v: number) => onChange(v === 0 ? undefined : v)}
      />
    </Space>
  );
}

/** Title row of a dashboard: the title, the site selector and when the data was last refreshed. */
export function DashboardHeader({ title, selector, updatedAt }: { title: string; selector: ReactNode; updatedAt: number }) {
  const { t } = useTranslation();
  return (
    <Row justify="space-between" align="middle" gutter={[16, 8]}>
      <Col>
        <Space size="large" wrap>
          <Typography.Title level={3} style={{ margin: 0 }}>{title}</Typography.Title>
          {selector}
        </Space>
      </Col>
      <Col>
        <Typography.Text type="secondary" data-testid="dashboard-updated">
          {updatedAt ? t('ui.dashboard.refreshed', { time: dayjs(updatedAt).format('HH:mm:ss') }) : ''}
        </Typography.Text>
      </Col>
    </Row>
  );
}

/** A label/value line of a connector card. */
export function Field({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div style={{ display: 'flex', justifyContent: 'space-between', gap: 8, lineHeight: '22px' }}>
      <Typography.Text type="secondary" style={{ whiteSpace: 'nowrap' }}>{label}</Typography.Text>
      <Typography.Text data-testid={testId} style={{ textAlign: 'end' }} ellipsis>{children}</Typography.Text>
    </div>
  );
}
