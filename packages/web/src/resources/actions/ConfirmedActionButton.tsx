import { useState, type ReactNode } from 'react';
import { App, Button, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { reportOutcome } from '../../api/errors.ts';

type Outcome = { status?: string; errorCode?: number; message?: string };

interface Props {
  /** i18n key of the button's name. */
  label: string;
  icon: ReactNode;
  title: string;
  body: string;
  /** Sends the action; answers {status, errorCode} (spec §8: remote actions). */
  send: () => Promise<Outcome>;
  /** For a refusal that carries more than its code (a gateway's reason): what to show in a dialog instead of the toast. */
  explainRefusal?: (res: Outcome) => { title: string; content: ReactNode } | undefined;
  onDone: () => void;
  danger?: boolean;
  /** The name beside the icon (a lone icon has it as its tooltip). */
  showLabel?: boolean;
}

/**
 * A row action after a confirmation (an RSR's cancel or settle, a payment's retry): status success
 * (any case: the retry answers 'Success') shows success, status error the message of its code,
 * anything else or a network failure the generic error (spec part 2 §8).
 */
export function ConfirmedActionButton({ label, icon, title, body, send, onDone, danger, showLabel, explainRefusal }: Props) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const [busy, setBusy] = useState(false);

  const run = async () => {
    setBusy(true);
    try {
      const sent = send();
      const explained = explainRefusal && (await sent.then(explainRefusal, () => undefined));
      if (explained) modal.error({ ...explained, okText: t('ui.common.confirm') });
      else await reportOutcome(sent, t('msg.success'), message, t);
    } finally {
      setBusy(false);
      onDone();
    }
  };

  const confirm = () =>
    modal.confirm({ title, content: body, okText: t('ui.common.confirm'), cancelText: t('ui.common.cancel'), okButtonProps: { danger }, onOk: run });

  if (showLabel) {
    return (
      <Button type="link" size="small" danger={danger} icon={icon} loading={busy} onClick={confirm}>
        {t(label)}
      </Button>
    );
  }
  return (
    <Tooltip title={t(label)}>
      <Button type="link" size="small" danger={danger} icon={icon} loading={busy} onClick={confirm} aria-label={t(label)} />
    </Tooltip>
  );
}
