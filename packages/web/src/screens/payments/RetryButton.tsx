import { RedoOutlined } from '@ant-design/icons';
import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client.ts';
import { codeText } from '../../api/errors.ts';
import { ConfirmedActionButton } from '../../resources/actions/ConfirmedActionButton.tsx';

interface Props {
  id: number;
  rsrId: number;
  amount: number;
  /** Why the gateway refused the attempt being retried, when it said. */
  reason?: string | null;
  onDone: () => void;
}

/**
 * Retries a failed automatic payment through the gateway, after a confirmation (spec part 2 §4, §8). The dialog
 * says why the last attempt failed; a retry refused with the gateway's reason shows that reason and what staff
 * can do next, not only the code's "Failed".
 */
export function RetryButton({ id, rsrId, amount, reason, onDone }: Props) {
  const { t } = useTranslation();
  const confirmBody = t('ui.payments.confirmRetryBody', { amount: `$${amount.toFixed(2)}` });
  return (
    <ConfirmedActionButton
      label="ui.payments.retry"
      icon={<RedoOutlined />}
      title={t('ui.payments.confirmRetry', { rsr: rsrId })}
      body={reason ? `${t('ui.payments.lastReason', { reason })} ${confirmBody}` : confirmBody}
      send={() => api.get(`/payment_result_detail/retry/${id}`)}
      explainRefusal={(res) =>
        res.status === 'error' && res.message
          ? {
              title: t('ui.payments.notApproved'),
              content: (
                <>
                  <Typography.Paragraph>
                    {codeText(res.errorCode, t)} · {t('ui.payments.gatewayReason', { reason: res.message })}
                  </Typography.Paragraph>
                  <Typography.Paragraph>{t('ui.payments.nextSteps', { rsr: rsrId })}</Typography.Paragraph>
                </>
              ),
            }
          : undefined
      }
      onDone={onDone}
      showLabel
    />
  );
}
