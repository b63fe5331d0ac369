import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Input, Select, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { editPrivilege, P, STATIC_OPTIONS } from '@ev/core';
import { api } from '../../api/client.ts';
import { errorText } from '../../api/errors.ts';
import type { Permissions } from '../../app/session.tsx';
import { useOptions } from '../options.ts';
import type { RecordData } from '../use-record.ts';
import type { ViewTab } from './types.ts';

/**
 * An app_config entry's value with a typed input: a key that names a fixed option list
 * (home_screen: LMS / Dashboard / CpList) is a select of it, any other key free text. Saving asks
 * the spec's restart confirmation; the server reads settings on each use, and the portal re-reads
 * its session (/me) at once, so nothing has to be restarted by hand.
 */
function ValueEditor({ record, perms }: { record: RecordData; perms: Permissions }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const key = String(record.config_key);
  const typed = Object.hasOwn(STATIC_OPTIONS, key);
  const options = useOptions([typed ? key : undefined]);
  const [value, setValue] = useState(String(record.config_value ?? ''));
  const [saving, setSaving] = useState(false);
  const adminOnly = record.authority === 'Admin' && !perms.has(P.APP_CONFIG_ADMIN);
  const canEdit = perms.has(editPrivilege('app_config')) && !adminOnly;

  const save = () =>
    modal.confirm({
      title: t('msg.confirmRestart'),
      okText: t('ui.common.confirm'),
      cancelText: t('ui.common.cancel'),
      onOk: async () => {
        setSaving(true);
        try {
          await api.put(`/app_config/${String(record.id)}`, { config_value: value });
          void message.success(t('msg.saved'));
          await Promise.all([
            queryClient.invalidateQueries({ queryKey: ['record', 'app_config'] }),
            queryClient.invalidateQueries({ queryKey: ['me'] }),
          ]);
        } catch (err) {
          void message.error(errorText(err, t));
        } finally {
          setSaving(false);
        }
      },
    });

  return (
    <Space orientation="vertical" style={{ width: '100%', maxWidth: 480 }}>
      {adminOnly && <Alert type="info" showIcon title={t('ui.housekeeping.adminOnly')} />}
      {!adminOnly && !canEdit && <Alert type="info" showIcon title={t('ui.housekeeping.noEditRight')} />}
      {typed ? (
        <Select data-testid="app-config-value" style={{ width: '100%' }} value={value} onChange={setValue} disabled={!canEdit} options={options[key]} />
      ) : (
        <Input.TextArea data-testid="app-config-value" rows={4} value={value} onChange={(e) => setValue(e.target.value)} disabled={!canEdit} />
      )}
      <Button type="primary" onClick={save} loading={saving} disabled={!canEdit || value === String(record.config_value ?? '') || !value}>
        {t('ui.housekeeping.save')}
      </Button>
    </Space>
  );
}

export const viewTabs = (record: RecordData, perms: Permissions): ViewTab[] => [
  { key: 'value', label: 'ui.housekeeping.valueTab', children: <ValueEditor key={String(record.lupd_dttm)} record={record} perms={perms} /> },
];
