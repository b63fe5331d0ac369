import { useQuery } from '@tanstack/react-query';
import { Alert, Card, Descriptions, Spin, Table, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { FirmwareJobState } from '@ev/core';
import { api } from '../../api/client.ts';
import { errorText } from '../../api/errors.ts';
import { shownTime, STATE_COLOURS } from './states.ts';

/** GET /cps/{id}/firmware (server firmware/charger.ts). */
export interface ChargerFirmware {
  installedVersion: string | null;
  vendor: string | null;
  model: string | null;
  firmwareStatus: string | null;
  firmwareStatusAt: string | null;
  diagnosticsStatus: string | null;
  diagnosticsStatusAt: string | null;
  history: { jobId: number; version: string; state: FirmwareJobState; stateAt: string; sentAt: string | null; reportedVersion: string | null }[];
}

/** The charger's firmware, read again every few seconds (an update in progress moves on). */
export const useChargerFirmware = (cpId: number) =>
  useQuery({ queryKey: ['cps', 'firmware', cpId], queryFn: () => api.get<ChargerFirmware>(`/cps/${cpId}/firmware`), refetchInterval: 5_000 });

/** Charger view, Firmware tab (issue 29): the version it runs, its last firmware status, and the updates sent to it. */
export default function ChargerFirmwareTab({ cpId }: { cpId: number }) {
  const { t } = useTranslation();
  const fw = useChargerFirmware(cpId);
  if (fw.isPending) return <Spin />;
  if (fw.isError) return <Alert type="error" showIcon title={errorText(fw.error, t)} />;
  const d = fw.data;
  return (
    <div data-testid="charger-firmware">
      <Descriptions size="small" bordered column={1} style={{ marginBottom: 16 }}>
        <Descriptions.Item label={t('ui.firmware.installed')}>
          <span data-testid="firmware-installed">{d.installedVersion ?? t('ui.firmware.notReported')}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('ui.firmware.vendorModel')}>{[d.vendor, d.model].filter(Boolean).join(' / ') || '-'}</Descriptions.Item>
        <Descriptions.Item label={t('ui.firmware.lastStatus')}>
          {d.firmwareStatus ? `${t(`ui.firmware.states.${d.firmwareStatus}`, { defaultValue: d.firmwareStatus })} (${shownTime(d.firmwareStatusAt)})` : t('ui.firmware.notReported')}
        </Descriptions.Item>
      </Descriptions>
      <Card size="small" title={t('ui.firmware.history')}>
        <Table
          rowKey="jobId"
          size="small"
          pagination={false}
          dataSource={d.history}
          locale={{ emptyText: t('ui.firmware.noHistory') }}
          columns={[
            { key: 'job', title: t('ui.firmware.job'), render: (_, h) => <Link to={`/firmware_jobs/${h.jobId}`}>#{h.jobId}</Link> },
            { key: 'version', title: t('ui.firmware.version'), dataIndex: 'version' },
            { key: 'state', title: t('ui.firmware.state'), render: (_, h) => <Tag color={STATE_COLOURS[h.state]}>{t(`ui.firmware.states.${h.state}`)}</Tag> },
            { key: 'since', title: t('ui.firmware.since'), render: (_, h) => shownTime(h.stateAt) },
            { key: 'reported', title: t('ui.firmware.reportedVersion'), render: (_, h) => h.reportedVersion ?? '-' },
          ]}
        />
      </Card>
    </div>
  );
}
