import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Input, Modal, Space, Tag, Tooltip, Typography } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { CHARGER_PASSWORD_LENGTH, ERROR_CODES, P, type ActionResult } from '@ev/core';
import { api } from '../../api/client.ts';
import { codeText, errorText } from '../../api/errors.ts';
import { usePermissions } from '../../app/session.tsx';

/** GET /cps/{id}/password (server charger-credentials/routes.ts): never the password or its hash. */
interface PasswordState {
  set: boolean;
  changedAt: string | null;
  rotating: boolean;
  online: boolean;
}
type SetAnswer = ActionResult & { password?: string; rotating?: boolean };
const failed = (r: object): r is ActionResult & { status: 'error' } => (r as { status?: string }).status === 'error';

/** What a typed password breaks of the rule the server checks (16-40 printable characters, no spaces). */
function ruleBroken(password: string): 'tooShort' | 'tooLong' | 'badCharacters' | null {
  if (password.length < CHARGER_PASSWORD_LENGTH.min) return 'tooShort';
  if (password.length > CHARGER_PASSWORD_LENGTH.max) return 'tooLong';
  return /^[\x21-\x7e]+$/.test(password) ? null : 'badCharacters';
}

/**
 * Charger view, Remote actions tab, "Charger password" (issue 29, OCPP security profile 1): set or generate
 * the password the charger signs in with, sent to it as ChangeConfiguration AuthorizationKey. The charger
 * stays connected; its old sign-in works until it reconnects with the new one. A generated password is shown
 * once. Only while the charger is connected (disabled with the reason otherwise).
 */
export function ChargerPasswordSection({ cpId }: { cpId: number }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const perms = usePermissions();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [typing, setTyping] = useState(false);
  const [typed, setTyped] = useState('');
  const [generated, setGenerated] = useState<string>();
  const allowed = perms.has(P.CHARGER_PASSWORD);
  const state = useQuery({
    queryKey: ['chargerPassword', cpId],
    queryFn: () => api.get<PasswordState | ActionResult>(`/cps/${cpId}/password`),
    enabled: allowed,
    // Connected or not, and the rotation ending when the charger reconnects, as they happen.
    refetchInterval: 5000,
  });
  if (!allowed) return null;
  const data = state.data && !failed(state.data) ? (state.data as PasswordState) : undefined;
  const notConnected = data && !data.online ? codeText(ERROR_CODES.CP_OFFLINE, t) : undefined;
  const limits = { min: CHARGER_PASSWORD_LENGTH.min, max: CHARGER_PASSWORD_LENGTH.max };
  const broken = typed ? ruleBroken(typed) : null;

  const send = async (body: { password: string } | { generate: true }) => {
    setBusy(true);
    try {
      const res = await api.post<SetAnswer>(`/cps/${cpId}/password`, body);
      const answer = (res.data as { status?: string } | undefined)?.status;
      if (res.status === 'success') void message.success(t(answer === 'RebootRequired' ? 'ui.chargerPassword.rebootRequired' : 'ui.chargerPassword.accepted'));
      else if (res.errorCode === ERROR_CODES.CP_REJECTED) void message.error(t('ui.chargerPassword.refused', { answer: answer ?? res.message ?? '' }));
      else if (res.rotating) void message.warning(t('ui.chargerPassword.noAnswer'));
      else void message.error(codeText(res.errorCode, t));
      if (res.password) setGenerated(res.password);
      setTyping(false);
      setTyped('');
    } catch (err) {
      void message.error(errorText(err, t));
    } finally {
      setBusy(false);
      void queryClient.invalidateQueries({ queryKey: ['chargerPassword', cpId] });
    }
  };

  const generate = () =>
    modal.confirm({
      title: t('ui.chargerPassword.confirmTitle'),
      content: t('ui.chargerPassword.confirmBody'),
      okText: t('ui.chargerPassword.send'),
      onOk: () => send({ generate: true }),
    });

  const button = (label: string, onClick: () => void, testId: string) => (
    <Tooltip title={notConnected}>
      <Button disabled={busy || !data || !!notConnected} onClick={onClick} data-testid={testId}>{label}</Button>
    </Tooltip>
  );

  return (
    <Card size="small" title={t('ui.chargerPassword.title')} data-testid="charger-password">
      <Space orientation="vertical" size="small" style={{ width: '100%' }}>
        <Typography.Text type="secondary">{t('ui.chargerPassword.intro')}</Typography.Text>
        {data && (
          <Space wrap data-testid="charger-password-state">
            <Tag color={data.set ? 'green' : 'default'}>
              {!data.set ? t('ui.chargerPassword.none')
                : data.changedAt ? t('ui.chargerPassword.setSince', { at: dayjs(data.changedAt).format('YYYY-MM-DD HH:mm:ss') })
                : t('ui.chargerPassword.setUnknown')}
            </Tag>
            {data.rotating && <Typography.Text type="warning" data-testid="charger-password-rotating">{t('ui.chargerPassword.rotating')}</Typography.Text>}
          </Space>
        )}
        <Space wrap>
          {button(t('ui.chargerPassword.set'), () => setTyping(true), 'charger-password-set')}
          {button(t('ui.chargerPassword.generate'), generate, 'charger-password-generate')}
        </Space>
      </Space>

      <Modal
        open={typing}
        title={t('ui.chargerPassword.setTitle')}
        okText={t('ui.chargerPassword.send')}
        okButtonProps={{ disabled: !typed || !!broken, loading: busy }}
        onOk={() => void send({ password: typed })}
        onCancel={() => { setTyping(false); setTyped(''); }}
        destroyOnHidden
      >
        <Space orientation="vertical" style={{ width: '100%' }}>
          <Typography.Text>{t('ui.chargerPassword.confirmBody')}</Typography.Text>
          <Input.Password
            aria-label={t('ui.chargerPassword.passwordLabel')}
            placeholder={t('ui.chargerPassword.passwordLabel')}
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            status={broken ? 'error' : undefined}
            autoComplete="new-password"
            data-testid="charger-password-input"
          />
          <Typography.Text type={broken ? 'danger' : 'secondary'}>
            {broken ? t(`ui.chargerPassword.${broken}`, limits) : t('ui.chargerPassword.rule', limits)}
          </Typography.Text>
        </Space>
      </Modal>

      <Modal
        open={!!generated}
        title={t('ui.chargerPassword.generatedTitle')}
        onOk={() => setGenerated(undefined)}
        onCancel={() => setGenerated(undefined)}
        cancelButtonProps={{ style: { display: 'none' } }}
        destroyOnHidden
      >
        <Space orientation="vertical" style={{ width: '100%' }}>
          <Alert type="warning" showIcon title={t('ui.chargerPassword.generatedNote')} />
          <Typography.Text
            code
            copyable={{ text: generated, tooltips: [t('ui.chargerPassword.copy'), t('ui.chargerPassword.copied')] }}
            style={{ fontSize: 18 }}
            data-testid="charger-password-generated"
          >
            {generated}
          </Typography.Text>
        </Space>
      </Modal>
    </Card>
  );
}
