import { useState } from 'react';
import { Alert, App, Checkbox, Form, InputNumber, Modal, Select, type ButtonProps } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ActionResult } from '@ev/core';
import { api } from '../../api/client.ts';
import { codeText, errorText } from '../../api/errors.ts';

interface Criteria {
  connectorId?: number;
  purpose?: 'ChargePointMaxProfile' | 'TxDefaultProfile' | 'TxProfile';
  stackLevel?: number;
  includeLoadManagement?: boolean;
}

/**
 * Clear by criteria (POST /cps/{id}/chargingProfiles/clear), confirmed first. Criteria that could reach
 * load management's profiles (no stack level or its own, a Tx purpose or none) need the box ticked:
 * OCPP cannot say "every stack level but load management's".
 */
export function ClearCriteriaModal({ cpId, lmsLevel, open, onClose }: { cpId: number; lmsLevel: number; open: boolean; onClose: (changed: boolean) => void }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const [form] = Form.useForm<Criteria>();
  const [busy, setBusy] = useState(false);
  const values = Form.useWatch([], form) ?? {};
  const reachesLms = (values.stackLevel === undefined || values.stackLevel === null || values.stackLevel === lmsLevel) && values.purpose !== 'ChargePointMaxProfile';
  const blocked = reachesLms && !values.includeLoadManagement;

  const send = async (c: Criteria) => {
    setBusy(true);
    try {
      const body = Object.fromEntries(Object.entries(c).filter(([, v]) => v !== undefined && v !== null));
      const res = await api.post<ActionResult>(`/cps/${cpId}/chargingProfiles/clear`, body);
      const status = (res.data as { status?: string } | undefined)?.status;
      if (res.status === 'success') {
        void message.success(t('ui.chargingProfiles.answered', { status }));
        onClose(true);
      } else void message.warning(status ? `${t('ui.chargingProfiles.answered', { status })} ${t(`ui.chargingProfiles.answerHint.${status}`, { defaultValue: '' })}` : codeText(res.errorCode, t));
    } catch (err) {
      void message.error(errorText(err, t));
    } finally {
      setBusy(false);
    }
  };

  const confirm = () => modal.confirm({ title: t('ui.chargingProfiles.criteriaConfirm'), onOk: () => send(form.getFieldsValue()) });

  return (
    <Modal open={open} title={t('ui.chargingProfiles.clearCriteriaTitle')} onCancel={() => onClose(false)} destroyOnHidden
      okText={t('ui.chargingProfiles.clear')} okButtonProps={{ danger: true, disabled: blocked, loading: busy, 'data-testid': 'criteria-clear' } as ButtonProps} onOk={confirm}>
      <Form<Criteria> form={form} layout="vertical">
        <Form.Item name="connectorId" label={t('ui.chargingProfiles.connectorLabel')}>
          <InputNumber min={0} max={100} precision={0} placeholder={t('ui.chargingProfiles.anyConnector')} style={{ width: 200 }} />
        </Form.Item>
        <Form.Item name="purpose" label={t('ui.chargingProfiles.purpose')}>
          <Select allowClear placeholder={t('ui.chargingProfiles.anyPurpose')} style={{ width: 280 }}
            options={(['ChargePointMaxProfile', 'TxDefaultProfile', 'TxProfile'] as const).map((p) => ({ value: p, label: `${t(`ui.chargingProfiles.purposes.${p}`)} (${p})` }))} />
        </Form.Item>
        <Form.Item name="stackLevel" label={t('ui.chargingProfiles.stackLevel')}>
          <InputNumber min={0} max={100} precision={0} placeholder={t('ui.chargingProfiles.anyStackLevel')} style={{ width: 200 }} />
        </Form.Item>
        <Form.Item name="includeLoadManagement" valuePropName="checked">
          <Checkbox>{t('ui.chargingProfiles.includeLms')}</Checkbox>
        </Form.Item>
        {blocked && <Alert type="warning" showIcon title={t('ui.chargingProfiles.lmsCriteria', { level: lmsLevel })} />}
      </Form>
    </Modal>
  );
}
