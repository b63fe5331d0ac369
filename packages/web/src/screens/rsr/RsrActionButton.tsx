import { useState, type ReactNode } from 'react';
import { App, Button, Tooltip } from 'antd';
import { CheckCircleOutlined, CloseCircleOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client.ts';
import { codeText } from '../../api/errors.ts';

interface Props {
  /** i18n key of the button's name. */
  label: string;
  icon: ReactNode;
  title: string;
  body: string;
  /** Sends the action; answers {status, errorCode} (spec §8: remote actions). */
  send: () => Promise<{ status?: string; errorCode?: number }>;
  onDone: () => void;
  danger?: boolean;
}

/**
 * An RSR row action after a confirmation: status success shows success, status error the message
 * of its code, anything else or a network failure the generic error (spec part 2 §8).
 */
export function RsrActionButton({ label, icon, title, body, send, onDone, danger }: Props) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const [busy, setBusy] = useState(false);

  const run = async () => {
    setBusy(true);
    try {
      const res = await send();
      if (res.status === 'success') void message.success(t('msg.success'));
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
    modal.confirm({ title, content: body, okText: t('ui.common.confirm'), cancelText: t('ui.common.cancel'), okButtonProps: { danger }, onOk: run });

  return (
    <Tooltip title={t(label)}>
      <Button type="link" size="small" danger={danger} icon={icon} loading={busy} onClick={confirm} aria-label={t(label)} />
    </Tooltip>
  );
}

/** Calls off a RemoteStarted request (GET /api/cp_rsr/cancel/{rsr_id}). */
export function CancelRsrButton({ id, onDone }: { id: number; onDone: () => void }) {
  const { t } = useTranslation();
  return (
    <RsrActionButton
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
    <RsrActionButton
      label="ui.rsr.markSettled"
      icon={<CheckCircleOutlined />}
      title={t('ui.rsr.confirmSettle', { id })}
      body={t('ui.rsr.confirmSettleBody', { amount: `$${amount.toFixed(2)}` })}
      send={() => api.post('/cp_rsr/setup_settled/', { rsr_id: id })}
      onDone={onDone}
    />
  );
}
