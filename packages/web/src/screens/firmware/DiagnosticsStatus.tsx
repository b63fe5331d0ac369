import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { shownTime } from './states.ts';
import { useChargerFirmware } from './ChargerFirmwareTab.tsx';

/** Beside Get diagnostics (issue 29): the charger's last DiagnosticsStatusNotification and when it came. */
export function DiagnosticsStatus({ cpId }: { cpId: number }) {
  const { t } = useTranslation();
  const fw = useChargerFirmware(cpId);
  if (!fw.data) return null;
  const { diagnosticsStatus: status, diagnosticsStatusAt: at } = fw.data;
  return (
    <Typography.Text type="secondary" data-testid="diagnostics-status">
      {status ? t('ui.firmware.lastDiagnostics', { status, at: shownTime(at) }) : t('ui.firmware.noDiagnostics')}
    </Typography.Text>
  );
}
