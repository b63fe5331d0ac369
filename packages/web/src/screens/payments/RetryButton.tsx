import { useState } from 'react';
import { App, Button } from 'antd';
import { RedoOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client.ts';
import { codeText } from '../../api/errors.ts';

/**
 * Retries a failed automatic payment through the gateway, after a confirmation (spec part 2 §4,
 * §8): 'Success' shows success, status error the message of its code, anything else the generic error.
 */
export function RetryButton({ id, rsrId, amount, onDone }: { id: number; rsrId: number; amount: number; onDone: () => void }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const [busy, setBusy] = useState(false);

  const retry = async () => {
    setBusy(true);
    try {
      const res = await api.get<{ status?: string; errorCode?: number }>(`/payment_result_detail/retry/${id}`);
      if (res.status === 'Success') void message.success(t('msg.success'));
      else if (res.status === 'error' && res.errorCode !== undefined) void message.error(codeText(res.errorCode, t));
      else void message.error(t('msg.errorOccurred'));
    } catch {
      void message.error(t('msg.errorOccurred'));
    } finally {
      setBusy(false);
      onDone();
    }
  };

  const confirm = () =>
    modal.confirm({
      title: t('ui.payments.confirmRetry', { rsr: rsrId }),
      content: t('ui.payments.confirmRetryBody', { amount: `$${amount.toFixed(2)}` }),
      okText: t('ui.common.confirm'),
      cancelText: t('ui.common.cancel'),
      onOk: retry,
    });

  return (
    <Button type="link" size="small" icon={<RedoOutlined />} loading={busy} onClick={confirm}>
      {t('ui.payments.retry')}
    </Button>
  );
}
