import { useState } from 'react';
import { App, Button } from 'antd';
import { DeleteOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { editPrivilege } from '@ev/core';
import { api } from '../../api/client.ts';
import { errorText } from '../../api/errors.ts';
import type { ListActionsContext } from './types.ts';

/** "Run now": starts the server's data-rotation job (it also runs nightly at 03:00), confirmed first. */
function RunNowButton({ reload }: { reload(): void }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const [busy, setBusy] = useState(false);
  const run = () =>
    modal.confirm({
      title: t('ui.housekeeping.confirmRun'),
      content: t('ui.housekeeping.confirmRunHint'),
      okText: t('ui.common.confirm'),
      cancelText: t('ui.common.cancel'),
      onOk: async () => {
        setBusy(true);
        try {
          const res = await api.post<{ status: string }>('/data_rotation_setup/run');
          if (res.status === 'success') void message.success(t('ui.housekeeping.started'));
          else void message.warning(t('ui.housekeeping.alreadyRunning'));
          reload();
        } catch (err) {
          void message.error(errorText(err, t));
        } finally {
          setBusy(false);
        }
      },
    });
  return (
    <Button icon={<DeleteOutlined />} loading={busy} onClick={run} data-testid="rotation-run-now">
      {t('ui.housekeeping.runNow')}
    </Button>
  );
}

export const listActions = ({ def, perms, reload }: ListActionsContext) =>
  perms.has(editPrivilege(def.key)) ? <RunNowButton reload={reload} /> : null;
