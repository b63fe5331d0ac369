import { RedoOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client.ts';
import { ConfirmedActionButton } from '../../resources/actions/ConfirmedActionButton.tsx';

/** Retries a failed automatic payment through the gateway, after a confirmation (spec part 2 §4, §8). */
export function RetryButton({ id, rsrId, amount, onDone }: { id: number; rsrId: number; amount: number; onDone: () => void }) {
  const { t } = useTranslation();
  return (
    <ConfirmedActionButton
      label="ui.payments.retry"
      icon={<RedoOutlined />}
      title={t('ui.payments.confirmRetry', { rsr: rsrId })}
      body={t('ui.payments.confirmRetryBody', { amount: `$${amount.toFixed(2)}` })}
      send={() => api.get(`/payment_result_detail/retry/${id}`)}
      onDone={onDone}
      showLabel
    />
  );
}
