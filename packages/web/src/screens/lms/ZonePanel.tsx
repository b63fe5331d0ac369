import { Card, Col, Empty, Progress, Row, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { zoneShares, type ChargerSlot, type ZoneView } from './lms-live.ts';
import { ChargerCard } from './ChargerCard.tsx';

const amps = (value: number) => `${Math.round(value * 10) / 10} A`;
/** The bar's two segments; the figures above wear the same colours, as its legend. */
const MEASURED_COLOR = '#52c41a';
const DISTRIBUTING_COLOR = '#1677ff';

function Figure({ label, value, testId, color }: { label: string; value: string; testId: string; color?: string }) {
  return (
    <Space orientation="vertical" size={0}>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {label}
      </Typography.Text>
      <Typography.Text strong data-testid={testId} style={{ color }}>
        {value}
      </Typography.Text>
    </Space>
  );
}

/**
 * One zone (spec part 1 §2): measured, distributing and maximum available current, a bar of the
 * share of the maximum handed out (blue) and measured (green), then its chargers' cards.
 */
export function ZonePanel({ zone, onOpen }: { zone: ZoneView; onOpen: (slot: ChargerSlot) => void }) {
  const { t } = useTranslation();
  const totals = zone.totals;
  const shares = zoneShares(totals);
  return (
    <Card
      size="small"
      type="inner"
      data-testid={`lms-zone-${zone.zone_id ?? 'none'}`}
      title={zone.zone_id === null ? t('ui.lmsLive.zone.noZone') : zone.name}
    >
      {zone.zone_id !== null &&
        (totals ? (
          <div style={{ marginBottom: 12 }}>
            <Space size="large" wrap>
              <Figure label={t('ui.lmsLive.zone.measured')} value={amps(totals.measured_current)} testId="lms-zone-measured" color={MEASURED_COLOR} />
              <Figure label={t('ui.lmsLive.zone.distributing')} value={amps(totals.distributing_current)} testId="lms-zone-distributing" color={DISTRIBUTING_COLOR} />
              <Figure label={t('ui.lmsLive.zone.maxAvailable')} value={amps(totals.max_available_current)} testId="lms-zone-max" />
            </Space>
            <Progress
              percent={shares.distributing}
              strokeColor={DISTRIBUTING_COLOR}
              success={{ percent: shares.measured, strokeColor: MEASURED_COLOR }}
              // Not "success" at 100%: a fully handed-out zone is normal for load management.
              status="normal"
              format={() => `${Math.round(shares.distributing)}%`}
              aria-label={t('ui.lmsLive.zone.distributing')}
            />
          </div>
        ) : (
          <Typography.Paragraph type="secondary">{t('ui.lmsLive.zone.noTotals')}</Typography.Paragraph>
        ))}
      {zone.chargers.length ? (
        <Row gutter={[12, 12]}>
          {zone.chargers.map((slot) => (
            <Col key={slot.cp_no} xs={24} sm={12} lg={8} xxl={6}>
              <ChargerCard slot={slot} onOpen={onOpen} />
            </Col>
          ))}
        </Row>
      ) : (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('ui.lmsLive.zone.noChargers')} />
      )}
    </Card>
  );
}
