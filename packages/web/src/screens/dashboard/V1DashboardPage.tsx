import { useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { Alert, Button, Card, Col, Empty, Row, Space, Spin, Tooltip, Typography } from 'antd';
import { SwapOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { P, type V1ChargingStatus, type V1ConnectorStatus, type V1ConnectorUsage, type V1Cp, type V1Info, type V1QuickInfoAnswer } from '@ev/core';
import { api } from '../../api/client.ts';
import { errorText } from '../../api/errors.ts';
import { currentLanguage } from '../../app/i18n.ts';
import { usePermissions } from '../../app/session.tsx';
import {
  bayText, Counts, DashboardHeader, Field, groupAccent, numberText, plain, REFRESH_MS, secondsText, SiteSelect, StatusTag, UsagePeriod, whText,
} from './parts.tsx';

interface Tile {
  cp: V1Cp;
  connector: V1ConnectorStatus;
  session?: V1ChargingStatus;
  usage?: V1ConnectorUsage;
}

/** The answer's parts joined per connector, in the server's order (charger number, connector). */
function tiles(info: V1Info): Tile[] {
  const key = (cpId: number, connectorId: number) => `${cpId}/${connectorId}`;
  const cps = new Map(info.refs.cps.map((c) => [c.cp_id, c]));
  const sessions = new Map(info.acc_charging_status.map((s) => [key(s.cp_id, s.connector_id), s]));
  const usage = new Map((info.connector_usage ?? []).map((u) => [key(u.cp_id, u.connector_id), u]));
  return info.cp_status.flatMap((s) =>
    s.connector_status.map((connector) => ({
      cp: cps.get(s.cp_id)!,
      connector,
      session: sessions.get(key(s.cp_id, connector.connector_id)),
      usage: usage.get(key(s.cp_id, connector.connector_id)),
    })),
  );
}

/** A connector tile: live values, or (flipped) its usage today and over the last 7 days. */
function ConnectorTile({ tile, mayFlip }: { tile: Tile; mayFlip: boolean }) {
  const { t } = useTranslation();
  const [flipped, setFlipped] = useState(false);
  const { cp, connector: c, session: s } = tile;
  const name = (currentLanguage() === 'zh-TW' && cp.name_chi) || cp.name;
  const zero = { energy: 0, charging_time: 0 };
  const flip = mayFlip && (
    <Tooltip title={t(flipped ? 'ui.dashboard.flipToLive' : 'ui.dashboard.flipToUsage')}>
      <Button
        size="small"
        type={flipped ? 'primary' : 'text'}
        icon={<SwapOutlined />}
        aria-label={t(flipped ? 'ui.dashboard.flipToLive' : 'ui.dashboard.flipToUsage')}
        data-testid="tile-flip"
        onClick={() => setFlipped(!flipped)}
      />
    </Tooltip>
  );
  return (
    <Card
      size="small"
      data-testid="connector-tile"
      data-cp={cp.cp_no}
      data-connector={c.connector_id}
      style={{ height: '100%', background: flipped ? '#f6f9ff' : undefined, borderInlineStart: `4px solid ${groupAccent(c.status, c.queueing_pos)}` }}
      title={
        <Link to={`/cps/${cp.cp_id}`} aria-label={t('ui.dashboard.openCharger', { cpNo: cp.cp_no })}>
          <Space orientation="vertical" size={0} style={{ maxWidth: '100%' }}>
            <Typography.Text strong ellipsis>{name}</Typography.Text>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {cp.cp_no} · {t('ui.dashboard.connector', { n: c.connector_id })}
            </Typography.Text>
          </Space>
        </Link>
      }
      extra={<Space size={4}><StatusTag status={c.status} queueingPos={c.queueing_pos} />{flip}</Space>}
    >
      {flipped ? (
        <Space orientation="vertical" style={{ width: '100%' }}>
          <UsagePeriod testId="tile-usage-today" title={t('ui.dashboard.today')} seconds={(tile.usage?.today ?? zero).charging_time} kwh={(tile.usage?.today ?? zero).energy / 1000} />
          <UsagePeriod testId="tile-usage-weekly" title={t('ui.dashboard.weekly')} seconds={(tile.usage?.weekly ?? zero).charging_time} kwh={(tile.usage?.weekly ?? zero).energy / 1000} />
        </Space>
      ) : (
        <>
          <Field label={t('ui.dashboard.lastUpdate')}>{plain(c.connector_status_last_updated_dt)}</Field>
          <Field label={t('ui.dashboard.user')}>{s?.account_id != null ? t('ui.dashboard.account', { id: s.account_id }) : '–'}</Field>
          <Field label={t('ui.dashboard.consumption')} testId="tile-energy">{whText(s?.energy_consumed)}</Field>
          <Field label={t('ui.dashboard.chargingTime')}>{secondsText(s?.charging_time)}</Field>
          <Field label={t('ui.dashboard.voltage')}>{numberText(s?.voltage, 'V')}</Field>
          <Field label={t('ui.dashboard.current')}>{numberText(s?.current, 'A')}</Field>
          <Field label={t('ui.dashboard.soc')}>{s?.soc == null ? '–' : `${Math.round(s.soc)}%`}</Field>
          <Field label={t('ui.dashboard.idTag')} testId="tile-id-tag">{plain(s?.id_tag)}</Field>
          <Field label={t('ui.dashboard.carRegNo')} testId="tile-car-reg-no">{plain(s?.car_reg_no)}</Field>
          <Field label={t('ui.dashboard.start')}>{plain(s?.tran_start)}</Field>
          <Field label={t('ui.dashboard.end')}>{plain(s?.tran_end)}</Field>
          <Field label={t('ui.dashboard.bayStatus')} testId="tile-bay">{bayText(c.bay, c.bayStatus)}</Field>
          {c.bay !== null && <Field label={t('ui.dashboard.bayUpdated')}>{plain(c.bayLupdDttm)}</Field>}
        </>
      )}
    </Card>
  );
}

/**
 * The V1 dashboard (spec part 1 §2): site selector (All first), counts, the usage summary and each tile's
 * flip to its usage when the server sent them (READ_DASHBOARD_SUMMARY); refreshed every 60 s.
 */
export default function V1DashboardPage() {
  const { t } = useTranslation();
  const perms = usePermissions();
  const allowed = perms.has(P.V1_DASHBOARD);
  const [locId, setLocId] = useState<number>();
  const answer = useQuery({
    queryKey: ['quick_info', locId ?? 'all'],
    queryFn: () => api.get<V1QuickInfoAnswer>('/quick_info', { loc_id: locId }),
    refetchInterval: REFRESH_MS,
    placeholderData: keepPreviousData,
    // Asked without the privilege the server answers 403, which signs the portal out (spec §8).
    enabled: allowed,
  });
  if (!allowed) return <Alert type="error" showIcon title={t('ui.error.noPermission')} />;
  if (answer.isPending) return <Spin style={{ display: 'block', margin: 48 }} />;
  if (answer.isError) return <Alert type="error" showIcon title={errorText(answer.error, t)} />;
  const info = answer.data.response.info;
  const sites = info.refs.cp_locs.map((l) => ({ id: l.loc_id, address: l.address, addressChi: l.address_chi }));
  const all = tiles(info);
  return (
    <div data-testid="v1-dashboard">
      <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
        <DashboardHeader
          title={t('ui.dashboard.v1')}
          selector={<SiteSelect sites={sites} value={locId} onChange={setLocId} label={t('ui.dashboard.site')} />}
          updatedAt={answer.dataUpdatedAt}
        />
        <Counts {...info.site_usage} />
        {info.summary && (
          <div data-testid="usage-summary">
            <Typography.Title level={5}>{t('ui.dashboard.summary')}</Typography.Title>
            <Row gutter={[16, 16]}>
              <Col xs={24} md={12}><UsagePeriod testId="summary-today" title={t('ui.dashboard.today')} seconds={info.summary.today.charging_time} kwh={info.summary.today.energy / 1000} /></Col>
              <Col xs={24} md={12}><UsagePeriod testId="summary-7days" title={t('ui.dashboard.weekly')} seconds={info.summary.weekly.charging_time} kwh={info.summary.weekly.energy / 1000} /></Col>
            </Row>
          </div>
        )}
        {all.length ? (
          <Row gutter={[16, 16]}>
            {all.map((tile) => (
              <Col key={`${tile.cp.cp_id}-${tile.connector.connector_id}`} xs={24} sm={12} lg={8} xl={6} xxl={4}>
                <ConnectorTile tile={tile} mayFlip={info.connector_usage !== null} />
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
