import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Alert, Card, Empty, Space, Spin, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import { readPrivilege, type LmsInfoAnswer } from '@ev/core';
import { api } from '../../api/client.ts';
import { useLabels } from '../../app/labels.ts';
import { usePermissions } from '../../app/session.tsx';
import { optionLabel, useOptions } from '../../resources/options.ts';
import { buildLayout, type ChargerSlot, type SiteMode } from './lms-live.ts';
import { useLmsSocket } from './use-lms-socket.ts';
import { DisconnectedBanner, SocketStateTag } from './SocketBanner.tsx';
import { ZonePanel } from './ZonePanel.tsx';
import { ChargerTools } from './ChargerTools.tsx';

const MODE_COLORS: Record<SiteMode, string> = { UNKNOWN: 'default', QUEUEING: 'orange', DISTRIBUTION: 'blue', MIXED: 'purple' };

function LmsDashboard() {
  const { t, i18n } = useTranslation();
  const { resourceName } = useLabels();
  const lang = i18n.language === 'zh-TW' ? 'zh-TW' : 'en';
  const socket = useLmsSocket({ statuses: true });
  // The layout (sites, their mode, zones, chargers); failures are ignored (spec §8) and the socket's data carries the screen.
  const info = useQuery({
    queryKey: ['lms_info'],
    queryFn: () => api.get<LmsInfoAnswer>('/lms_info', undefined, { quiet403: true }),
    refetchInterval: 60_000,
    retry: false,
  });
  const lmsInfo = info.isError ? undefined : info.data?.lms_info;
  // Names of what lms_info does not describe (or all of it while it does not answer).
  const options = useOptions(lmsInfo ? [] : ['cp_locs', 'cp_zones']);
  const layout = useMemo(
    () =>
      buildLayout(
        socket.live,
        lmsInfo,
        { site: (id) => optionLabel(options.cp_locs, id), zone: (id) => optionLabel(options.cp_zones, id) },
        lang,
      ),
    [socket.live, lmsInfo, options, lang],
  );
  const [openCpNo, setOpenCpNo] = useState<string | null>(null);
  const open = useMemo(() => {
    for (const loc of layout) for (const z of loc.zones) for (const slot of z.chargers) if (slot.cp_no === openCpNo) return slot;
    return null;
  }, [layout, openCpNo]);

  const waiting = socket.state === 'unknown' || (info.isPending && !layout.length);
  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }} data-testid="lms-dashboard">
      <Space wrap align="center">
        <Typography.Title level={4} style={{ margin: 0 }}>
          {resourceName('lms/dashboard')}
        </Typography.Title>
        <SocketStateTag state={socket.state} />
        {socket.updatedAt !== null && (
          <Typography.Text type="secondary" data-testid="lms-updated">
            {t('ui.lmsLive.dashboard.updated', { time: dayjs(socket.updatedAt).format('HH:mm:ss'), seconds: Math.round(socket.intervalMs / 1000) })}
          </Typography.Text>
        )}
      </Space>
      <DisconnectedBanner state={socket.state} retryAt={socket.retryAt} onReconnect={socket.reconnect} />
      {!layout.length &&
        (waiting ? <Spin style={{ display: 'block', margin: 48 }} /> : <Empty description={t('ui.lmsLive.dashboard.noSites')} />)}
      {layout.map((loc) => (
        <Card
          key={loc.loc_id}
          data-testid={`lms-loc-${loc.loc_id}`}
          title={loc.name}
          extra={
            <Tag color={MODE_COLORS[loc.mode]} data-testid="lms-mode">
              {t(`ui.lmsLive.mode.${loc.mode}`)}
            </Tag>
          }
        >
          <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
            {loc.zones.map((zone) => (
              <ZonePanel key={zone.zone_id ?? 'none'} zone={zone} onOpen={(slot: ChargerSlot) => setOpenCpNo(slot.cp_no)} />
            ))}
          </Space>
        </Card>
      ))}
      <ChargerTools slot={open} onClose={() => setOpenCpNo(null)} stop={socket.stop} />
    </Space>
  );
}

/** /lms/dashboard (spec part 1 §2, §4, §7, §8, §9): live load management of the user's sites. */
export default function LmsDashboardPage() {
  const { t } = useTranslation();
  const perms = usePermissions();
  if (!perms.has(readPrivilege('lms/dashboard'))) return <Alert type="error" showIcon title={t('ui.error.noPermission')} />;
  return <LmsDashboard />;
}
