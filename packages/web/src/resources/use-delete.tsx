import { useCallback } from 'react';
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import type { ResourceDef } from '@ev/core';
import { api } from '../api/client.ts';
import { errorText, refusalText } from '../api/errors.ts';

const enc = (id: string | number) => encodeURIComponent(String(id));

/** msgCode from checkDelete is a numeric code (error.{code}) or a message key; unknown text shows as is. */
function msgCodeText(code: string | number, t: ReturnType<typeof useTranslation>['t'], exists: (k: string) => boolean) {
  if (exists(`msg.error.${code}`)) return t(`msg.error.${code}`);
  if (exists(`msg.${code}`)) return t(`msg.${code}`);
  return String(code);
}

/** Delete with confirmation naming the id and what checkDelete warns about; the server answers the text 'Deleted'. */
export function useDeleteRecord(def: ResourceDef) {
  const { t, i18n } = useTranslation();
  const { modal, message } = App.useApp();
  const queryClient = useQueryClient();

  // One function while its inputs are the same: a list hands it to every row's buttons.
  return useCallback(async (id: string | number, onDeleted: () => void) => {
    let msgCode: string | number | undefined;
    try {
      msgCode = (await api.get<{ msgCode?: string | number } | null>(`/${def.key}/checkDelete/${enc(id)}`))?.msgCode;
    } catch (err) {
      void message.error(errorText(err, t));
      return;
    }
    modal.confirm({
      title: t('msg.confirmDelete', { id }),
      content: msgCode !== undefined && msgCode !== null && msgCode !== '' ? msgCodeText(msgCode, t, (k) => i18n.exists(k)) : undefined,
      okText: t('ui.common.confirm'),
      okButtonProps: { danger: true },
      cancelText: t('ui.common.cancel'),
      onOk: async () => {
        try {
          const answer = await api.del<unknown>(`/${def.key}/${enc(id)}`);
          if (answer !== 'Deleted') {
            void message.error(t('msg.deleteError'));
            return;
          }
          void message.success(t('msg.deleted'));
          await queryClient.invalidateQueries({ queryKey: ['options'] });
          onDeleted();
        } catch (err) {
          void message.error(refusalText(err, t, (k) => i18n.exists(k)));
        }
      },
    });
  }, [def.key, t, i18n, modal, message, queryClient]);
}
