import { useState } from 'react';
import { App, Button, Tooltip, type FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ActionResult } from '@ev/core';
import { api } from '../../api/client.ts';
import { codeText } from '../../api/errors.ts';

interface LpData {
  ResCode: number;
  LPN: string;
  EntryTime: string;
  ResMsg: string;
}

/**
 * The remote-start form's Get LP step (spec §7 getLp, §8): the plate and entry time of the car in
 * the bay of the chosen connector, filled into the form's lp and entryTime. A non-zero ResCode
 * shows the server's ResMsg (in the reader's language when the portal knows the code).
 */
export function GetLpButton({ cpId, form }: { cpId: number; form: FormInstance }) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);

  const getLp = async () => {
    const connectorId = form.getFieldValue('connectorId') as number | undefined;
    if (!connectorId) {
      void form.validateFields(['connectorId']).catch(() => undefined);
      return;
    }
    setBusy(true);
    try {
      const res = await api.get<ActionResult & { data?: string }>(`/cps/getLp/${cpId}`, { connectorId });
      if (res?.status === 'success' && typeof res.data === 'string') {
        const lp = JSON.parse(res.data) as LpData;
        if (lp.ResCode === 0) {
          form.setFieldsValue({ lp: lp.LPN, entryTime: lp.EntryTime });
          void message.success(t('ui.parking.lpFound', { lp: lp.LPN, time: lp.EntryTime }));
        } else {
          const key = `ui.parking.lpRes.${lp.ResCode}`;
          void message.error(i18n.exists(key) ? t(key) : lp.ResMsg);
        }
      } else if (res?.status === 'error') void message.error(codeText(res.errorCode, t));
      else void message.error(t('msg.errorOccurred'));
    } catch {
      void message.error(t('msg.errorOccurred'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Tooltip title={t('ui.parking.getLpHint')}>
      <Button loading={busy} onClick={() => void getLp()} data-testid="get-lp">
        {t('ui.parking.getLp')}
      </Button>
    </Tooltip>
  );
}
