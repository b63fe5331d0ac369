import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import { BOOT_PENDING, BOOT_REJECTED } from '@ev/core';

/** The charger as its view answers it: whether it is connected, and what it last said. */
export interface ChargerState {
  online_flag: number;
  double_use_flag: number;
  last_known_status: string | null;
  last_status_dttm: string | null;
  /** When its last connection ended (null while connected, or never connected). */
  offline_since: string | null;
  /** As shown: BootPending / BootRejected while its boot is not accepted (server ocpp/boot-policy.ts). */
  charging_status?: string | null;
  /** The OCPP version it last connected with: 2.0.1 adds an EVSE's reset and a connector within an EVSE. */
  ocpp_protocol?: string | null;
}

/**
 * Why the Remote actions tab's buttons are off, when they are: the charger is not connected (since when, and what it
 * last said), or it is connected but its boot was not accepted (ocpp/boot-policy.ts on the server).
 */
export function ChargerStateNotice({ state, statusText }: { state: ChargerState; statusText: (status: string | null | undefined) => string | null | undefined }) {
  const { t } = useTranslation();
  const bootState = state.charging_status;
  if (state.online_flag !== 1)
    return (
      <Alert
        type="warning"
        showIcon
        data-testid="charger-offline"
        title={
          state.last_known_status
            ? t('ui.remote.offline', { since: state.offline_since ?? '-', status: statusText(state.last_known_status), at: state.last_status_dttm ?? '-' })
            : t('ui.remote.offlineNoStatus', { since: state.offline_since ?? '-' })
        }
        description={t('ui.remote.offlineHint')}
      />
    );
  if (bootState !== BOOT_REJECTED && bootState !== BOOT_PENDING) return null;
  return (
    <Alert
      type="warning"
      showIcon
      data-testid="charger-boot-not-accepted"
      title={statusText(bootState)}
      description={t(bootState === BOOT_REJECTED ? 'ui.remote.bootRejectedHint' : 'ui.remote.bootPendingHint')}
    />
  );
}
