import { useState } from 'react';
import { App, Button, Form, Input, Modal, Typography } from 'antd';
import { StopOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client.ts';
import { refusalText } from '../../api/errors.ts';

interface Props {
  /** The list it is closed from (cp_sessions or cp_sessions_all): the server checks the right to read it. */
  listKey: string;
  sessionId: number;
  /** Whether the charger showed the session had ended (unconfirmed); else the dialog suggests a remote stop. */
  unconfirmed: boolean;
  onDone: () => void;
}

/**
 * Closes a running session the charger never stopped (EDIT_CLOSE_SESSION), after a dialog that
 * says what closing does and asks why; the reason is required (server ocpp/unconfirmed.ts).
 */
export function CloseSessionButton({ listKey, sessionId, unconfirmed, onDone }: Props) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [touched, setTouched] = useState(false);
  const missing = !reason.trim();

  const close = async () => {
    setTouched(true);
    if (missing) return;
    setBusy(true);
    try {
      await api.post(`/${listKey}/${sessionId}/close`, { reason: reason.trim() });
      void message.success(t('msg.success'));
      setOpen(false);
      onDone();
    } catch (err) {
      void message.error(refusalText(err, t, (key) => i18n.exists(key)));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button type="link" size="small" danger icon={<StopOutlined />} onClick={() => {
          setReason('');
          setTouched(false);
          setOpen(true);
        }} data-testid={`close-session-${sessionId}`}>
        {t('ui.session.close')}
      </Button>
      <Modal
        open={open}
        title={t('ui.session.closeTitle', { id: sessionId })}
        okText={t('ui.common.confirm')}
        cancelText={t('ui.common.cancel')}
        okButtonProps={{ danger: true, loading: busy }}
        onOk={() => void close()}
        onCancel={() => setOpen(false)}
        destroyOnHidden
      >
        <Typography.Paragraph>{t('ui.session.closeBody')}</Typography.Paragraph>
        {!unconfirmed && <Typography.Paragraph type="warning">{t('ui.session.closeNotFlagged')}</Typography.Paragraph>}
        <Form layout="vertical">
          <Form.Item
            label={t('ui.session.closeReason')}
            required
            validateStatus={touched && missing ? 'error' : undefined}
            help={touched && missing ? t('ui.session.closeReasonRequired') : undefined}
          >
            <Input.TextArea data-testid="close-session-reason" rows={3} maxLength={500} value={reason} onChange={(e) => setReason(e.target.value)} />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}
