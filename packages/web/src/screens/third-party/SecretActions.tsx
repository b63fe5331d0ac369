import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Space, Typography } from 'antd';
import { DeleteOutlined, KeyOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { editPrivilege } from '@ev/core';
import { api } from '../../api/client.ts';
import { errorText } from '../../api/errors.ts';
import type { Permissions } from '../../app/session.tsx';
import type { RecordData } from '../../resources/use-record.ts';
import { SecretDialog } from './SecretDialog.tsx';

const KEY = 'third_party_conf';

/** A conf's secret: whether it has one, and (with EDIT_THIRD_PARTY_CONF) remove it or make a new one. */
export function SecretActions({ record, perms, onChanged }: { record: RecordData; perms: Permissions; onChanged?: () => void }) {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const queryClient = useQueryClient();
  const [secret, setSecret] = useState<string>();
  const id = Number(record.id);
  const name = String(record.key_name ?? '');
  const hasSecret = record.api_key != null && record.api_key !== '';

  const refresh = async () => {
    await Promise.all([['list', KEY], ['record', KEY]].map((queryKey) => queryClient.invalidateQueries({ queryKey })));
    onChanged?.();
  };

  const confirm = (title: string, content: string, action: () => Promise<void>) =>
    modal.confirm({
      title,
      content,
      okText: t('ui.common.confirm'),
      okButtonProps: { danger: true },
      cancelText: t('ui.common.cancel'),
      onOk: async () => {
        try {
          await action();
        } catch (err) {
          void message.error(errorText(err, t));
        }
      },
    });

  const remove = () =>
    confirm(t('ui.thirdParty.confirmRemove', { id, name }), t('ui.thirdParty.confirmRemoveHint'), async () => {
      await api.post(`/${KEY}/${id}/removeSecret`);
      void message.success(t('ui.thirdParty.removed'));
      await refresh();
    });

  const renew = () =>
    confirm(t('ui.thirdParty.confirmNew', { id, name }), t('ui.thirdParty.confirmNewHint'), async () => {
      const res = await api.post<{ data: { api_key: string } }>(`/${KEY}/${id}/newSecret`);
      setSecret(res.data.api_key);
    });

  return (
    <Space orientation="vertical">
      <Typography.Text type={hasSecret ? undefined : 'danger'} data-testid="secret-state">
        {t(hasSecret ? 'ui.thirdParty.hasSecret' : 'ui.thirdParty.noSecret')}
      </Typography.Text>
      {perms.has(editPrivilege(KEY)) && (
        <Space>
          <Button danger icon={<DeleteOutlined />} disabled={!hasSecret} onClick={remove}>
            {t('ui.thirdParty.removeSecret')}
          </Button>
          <Button icon={<KeyOutlined />} onClick={renew}>
            {t('ui.thirdParty.newSecret')}
          </Button>
        </Space>
      )}
      <SecretDialog
        name={name}
        secret={secret}
        onClose={() => {
          setSecret(undefined);
          void refresh();
        }}
      />
    </Space>
  );
}
