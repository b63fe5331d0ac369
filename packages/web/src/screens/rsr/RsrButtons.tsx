import { CheckCircleOutlined, CloseCircleOutlined } from '@ant-design/icons';
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
