import { useMemo, type ReactNode } from 'react';
import { Card, Tag, Tooltip, Typography } from 'antd';
import { WarningFilled } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { staticOptionItems, type LmsChargerState } from '@ev/core';
import { kwh, timeText, type ChargerSlot } from './lms-live.ts';

/** Colour per LMS charger state (spec part 1 §4), for the tag and the card's edge. */
export const STATE_COLORS: Record<LmsChargerState, { tag: string; edge: string }> = {
  available: { tag: 'success', edge: '#52c41a' },
  charging: { tag: 'processing', edge: '#1677ff' },
  queueing: { tag: 'warning', edge: '#fa8c16' },
  disconnected: { tag: 'default', edge: '#8c8c8c' },
};

const num = (value: number | null | undefined, unit: string) => (typeof value === 'number' ? `${Math.round(value * 10) / 10} ${unit}` : '');

function Row({ label, value, testId }: { label: string; value: ReactNode; testId: string }) {
  return (
    <div style={{ display: 'flex', justifyContent: 'space-between', gap: 8, lineHeight: '22px' }} data-testid={testId}>
      <Typography.Text type="secondary">{label}</Typography.Text>
      <span style={{ textAlign: 'right' }}>{value === '' || value === null ? '-' : value}</span>
    </div>
  );
}

/** The LMS state of a charger as a coloured tag; "No status" while the socket has said nothing about it. */
export function LmsStateTag({ state }: { state: LmsChargerState | undefined }) {
  const { t } = useTranslation();
  return <Tag color={state ? STATE_COLORS[state].tag : 'default'}>{t(`ui.lmsLive.status.${state ?? 'none'}`)}</Tag>;
}

/**
 * One charger of the LMS dashboard (spec part 1 §2): state, and what matters in it: the queue while
 * queueing, currents, energy, voltage and times while charging. Clicking opens the tool panel.
 */
export function ChargerCard({ slot, onOpen }: { slot: ChargerSlot; onOpen: (slot: ChargerSlot) => void }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'zh-TW' ? 'zh-TW' : 'en';
  const connectorStatus = useMemo(() => new Map(staticOptionItems('connector_status', lang).map((o) => [String(o.value), o.label])), [lang]);
  const s = slot.status;
  const rows: { key: string; label: string; value: ReactNode }[] = [];
  if (s?.status === 'queueing') {
    rows.push(
      { key: 'queue-pos', label: t('ui.lmsLive.card.queuePos'), value: s.queueing_pos ?? '' },
      { key: 'queue-start', label: t('ui.lmsLive.card.queueStart'), value: timeText(s.start_queueing_at) },
    );
  }
  if (s?.status === 'charging') {
    rows.push(
      { key: 'distributed', label: t('ui.lmsLive.card.distributed'), value: num(s.distributed_current, 'A') },
      { key: 'live', label: t('ui.lmsLive.card.live'), value: num(s.curr_data.current, 'A') },
      { key: 'energy', label: t('ui.lmsLive.card.energy'), value: kwh(s.curr_data.meter) },
      { key: 'voltage', label: t('ui.lmsLive.card.voltage'), value: num(s.curr_data.voltage, 'V') },
      { key: 'start', label: t('ui.lmsLive.card.start'), value: timeText(s.start_tran_at) },
      { key: 'select-time', label: t('ui.lmsLive.card.selectTime'), value: s.select_time === null ? '' : t('ui.lmsLive.card.minutes', { n: s.select_time }) },
      { key: 'expected-end', label: t('ui.lmsLive.card.expectedEnd'), value: timeText(s.expected_end_at) },
    );
  }
  return (
    <Card
      size="small"
      hoverable
      role="button"
      tabIndex={0}
      aria-label={t('ui.lmsLive.card.open', { cp_no: slot.cp_no })}
      data-testid={`lms-cp-${slot.cp_no}`}
      data-status={s?.status ?? 'none'}
      onClick={() => onOpen(slot)}
      onKeyDown={(e) => {
        if (e.key === 'Enter' || e.key === ' ') onOpen(slot);
      }}
      style={{ borderLeft: `4px solid ${s ? STATE_COLORS[s.status].edge : '#d9d9d9'}`, height: '100%' }}
      title={
        <span style={{ display: 'flex', alignItems: 'center', gap: 6 }}>
          <span>{slot.cp_no}</span>
          {s?.uncontrolled && (
            <Tooltip title={t('ui.lmsLive.card.uncontrolled')}>
              <WarningFilled style={{ color: '#faad14' }} data-testid="lms-uncontrolled" aria-label={t('ui.lmsLive.card.uncontrolled')} />
            </Tooltip>
          )}
        </span>
      }
      extra={<LmsStateTag state={s?.status} />}
    >
      {s && (
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {connectorStatus.get(s.cp_status) ?? s.cp_status}
        </Typography.Text>
      )}
      {rows.map((r) => (
        <Row key={r.key} label={r.label} value={r.value} testId={`lms-cp-${r.key}`} />
      ))}
    </Card>
  );
}
