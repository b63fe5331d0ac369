import { CheckCircleOutlined, CloseCircleOutlined, PoweroffOutlined, UnlockOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client.ts';
import { ConfirmedActionButton } from '../../resources/actions/ConfirmedActionButton.tsx';

/** Calls off a RemoteStarted request (GET /api/cp_rsr/cancel/{rsr_id}). */
export function CancelRsrButton({ id, onDone }: { id: number; onDone: () => void }) {
  const { t } = useTranslation();
  return (
    <ConfirmedActionButton
      label="ui.rsr.cancel"
      icon={<CloseCircleOutlined />}
      title={t('ui.rsr.confirmCancel', { id })}
      body={t('ui.rsr.confirmCancelBody')}
      send={() => api.get(`/cp_rsr/cancel/${id}`)}
      onDone={onDone}
      danger
    />
  );
}

/** Records an Unsettled request as paid outside the gateway (POST /api/cp_rsr/setup_settled/). */
export function SettleRsrButton({ id, amount, onDone }: { id: number; amount: number; onDone: () => void }) {
  const { t } = useTranslation();
  return (
    <ConfirmedActionButton
      label="ui.rsr.markSettled"
      icon={<CheckCircleOutlined />}
      title={t('ui.rsr.confirmSettle', { id })}
      body={t('ui.rsr.confirmSettleBody', { amount: `$${amount.toFixed(2)}` })}
      send={() => api.post('/cp_rsr/setup_settled/', { rsr_id: id })}
      onDone={onDone}
    />
  );
}

/** Where a request charges: its charger (cp_id) and connector, as the row lists them. */
interface Connector {
  id: number;
  cpId: number;
  cpNo: string;
  connectorId: number;
  onDone: () => void;
}

/** Stops the charging of a request at its connector: the charger view's remote stop (POST /api/cp_rsr/rsrStopCharger/{cp_id}). */
export function StopRsrButton({ id, cpId, cpNo, connectorId, onDone }: Connector) {
  const { t } = useTranslation();
  return (
    <ConfirmedActionButton
      label="ui.rsr.stop"
      icon={<PoweroffOutlined />}
      title={t('ui.rsr.confirmStop', { id })}
      body={t('ui.rsr.confirmStopBody', { cp: cpNo, n: connectorId })}
      send={() => api.post(`/cp_rsr/rsrStopCharger/${cpId}`, { connectorId })}
      onDone={onDone}
      danger
    />
  );
}

/** Releases the cable at a request's connector: the charger view's unlock (POST /api/cp_rsr/unlockCharger/{cp_id}). */
export function UnlockRsrButton({ id, cpId, cpNo, connectorId, onDone }: Connector) {
  const { t } = useTranslation();
  return (
    <ConfirmedActionButton
      label="ui.rsr.unlock"
      icon={<UnlockOutlined />}
      title={t('ui.rsr.confirmUnlock', { id })}
      body={t('ui.rsr.confirmUnlockBody', { cp: cpNo, n: connectorId })}
      send={() => api.post(`/cp_rsr/unlockCharger/${cpId}`, { connectorId })}
      onDone={onDone}
    />
  );
}
