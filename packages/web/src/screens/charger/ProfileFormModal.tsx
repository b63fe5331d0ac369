import { useState } from 'react';
import { App, Button, DatePicker, Form, InputNumber, Modal, Select, Space, Typography, type ButtonProps } from 'antd';
import { MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { ActionResult } from '@ev/core';
import { api, ApiError } from '../../api/client.ts';
import { codeText, errorText } from '../../api/errors.ts';

interface Values {
  connectorId: number;
  purpose: 'TxDefaultProfile' | 'TxProfile';
  chargingProfileId: number;
  stackLevel: number;
  kind: 'Absolute' | 'Recurring' | 'Relative';
  recurrency?: 'Daily' | 'Weekly';
  unit: 'A' | 'W';
  periods: { startPeriod: number; limit: number; numberPhases?: number }[];
  duration?: number;
  validFrom?: Dayjs;
  validTo?: Dayjs;
}

/** The set form's answer of the server's own refusals (load management's stack level and ids). */
function refusal(err: unknown, t: TFunction, lmsLevel: number): string | undefined {
  const fields = err instanceof ApiError ? (err.body as { fields?: Record<string, string> } | null)?.fields : undefined;
  if (fields?.['profile.stackLevel'] === 'load_management') return t('ui.chargingProfiles.lmsStackLevel', { level: lmsLevel });
  if (fields?.['profile.chargingProfileId'] === 'load_management') return t('ui.chargingProfiles.lmsId');
  return undefined;
}

/**
 * Set a TxDefaultProfile or TxProfile by hand (POST /cps/{id}/chargingProfiles): connector, id, stack level,
 * kind, unit and a schedule editor of rows (start second + limit). Load management's stack level is refused
 * here already; the charger's answer is shown as it gave it.
 */
export function ProfileFormModal({ cpId, lmsLevel, nextId, open, onClose }: { cpId: number; lmsLevel: number; nextId: number; open: boolean; onClose: (changed: boolean) => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const [busy, setBusy] = useState(false);
  const kind = Form.useWatch('kind', form);
  const unit = Form.useWatch('unit', form) ?? 'A';

  const submit = async (v: Values) => {
    setBusy(true);
    try {
      const profile = {
        chargingProfileId: v.chargingProfileId, stackLevel: v.stackLevel, kind: v.kind, unit: v.unit,
        ...(v.kind === 'Recurring' ? { recurrency: v.recurrency } : {}),
        periods: v.periods.map((p) => ({ startPeriod: p.startPeriod, limit: p.limit, ...(p.numberPhases ? { numberPhases: p.numberPhases } : {}) })),
        ...(v.duration ? { duration: v.duration } : {}),
        ...(v.validFrom ? { validFrom: v.validFrom.toISOString() } : {}),
        ...(v.validTo ? { validTo: v.validTo.toISOString() } : {}),
      };
      const res = await api.post<ActionResult>(`/cps/${cpId}/chargingProfiles`, { connectorId: v.connectorId, purpose: v.purpose, profile });
      const status = (res.data as { status?: string } | undefined)?.status;
      if (res.status === 'success') {
        void message.success(t('ui.chargingProfiles.answered', { status }));
        onClose(true);
      } else {
        void message.error(status ? t('ui.chargingProfiles.answered', { status }) : codeText(res.errorCode, t));
      }
    } catch (err) {
      void message.error(refusal(err, t, lmsLevel) ?? errorText(err, t));
    } finally {
      setBusy(false);
    }
  };

  const initial: Partial<Values> = {
    connectorId: 1, purpose: 'TxDefaultProfile', chargingProfileId: nextId, stackLevel: lmsLevel + 1, kind: 'Absolute', unit: 'A',
    periods: [{ startPeriod: 0, limit: 16 }],
  };
  return (
    <Modal open={open} title={t('ui.chargingProfiles.setTitle')} onCancel={() => onClose(false)} destroyOnHidden width={640}
      okText={t('ui.chargingProfiles.send')} okButtonProps={{ loading: busy, 'data-testid': 'profile-send' } as ButtonProps} onOk={() => form.submit()}>
      <Form<Values> form={form} layout="vertical" initialValues={initial} onFinish={(v) => void submit(v)} data-testid="profile-form">
        <Space wrap>
          <Form.Item name="connectorId" label={t('ui.chargingProfiles.connectorLabel')} rules={[{ required: true }]}>
            <InputNumber min={0} max={100} precision={0} />
          </Form.Item>
          <Form.Item name="purpose" label={t('ui.chargingProfiles.purpose')}>
            <Select style={{ width: 220 }} options={(['TxDefaultProfile', 'TxProfile'] as const).map((p) => ({ value: p, label: `${t(`ui.chargingProfiles.purposes.${p}`)} (${p})` }))} />
          </Form.Item>
          <Form.Item name="chargingProfileId" label={t('ui.chargingProfiles.id')} rules={[{ required: true }]}>
            <InputNumber min={1} precision={0} />
          </Form.Item>
          <Form.Item name="stackLevel" label={t('ui.chargingProfiles.stackLevel')} rules={[{ required: true },
            { validator: (_, v) => (v === lmsLevel ? Promise.reject(new Error(t('ui.chargingProfiles.lmsStackLevel', { level: lmsLevel }))) : Promise.resolve()) }]}>
            <InputNumber min={0} max={100} precision={0} />
          </Form.Item>
        </Space>
        <Space wrap>
          <Form.Item name="kind" label={t('ui.chargingProfiles.kind')}>
            <Select style={{ width: 160 }} options={(['Absolute', 'Recurring', 'Relative'] as const).map((k) => ({ value: k, label: t(`ui.chargingProfiles.kinds.${k}`) }))} />
          </Form.Item>
          {kind === 'Recurring' && (
            <Form.Item name="recurrency" label={t('ui.chargingProfiles.recurrency')} rules={[{ required: true }]}>
              <Select style={{ width: 120 }} options={(['Daily', 'Weekly'] as const).map((k) => ({ value: k, label: t(`ui.chargingProfiles.recurrencies.${k}`) }))} />
            </Form.Item>
          )}
          <Form.Item name="unit" label={t('ui.chargingProfiles.unit')}>
            <Select style={{ width: 80 }} options={[{ value: 'A', label: 'A' }, { value: 'W', label: 'W' }]} />
          </Form.Item>
          <Form.Item name="duration" label={t('ui.chargingProfiles.duration')} tooltip={t('ui.chargingProfiles.durationHint')}>
            <InputNumber min={1} precision={0} />
          </Form.Item>
        </Space>
        <Typography.Title level={5}>{t('ui.chargingProfiles.periods')}</Typography.Title>
        <Form.List name="periods">
          {(fields, { add, remove }) => (
            <Space orientation="vertical" size={0} style={{ width: '100%' }}>
              {fields.map((f, i) => (
                <Space key={f.key} align="baseline" data-testid={`period-${i}`}>
                  <Form.Item name={[f.name, 'startPeriod']} label={i === 0 ? t('ui.chargingProfiles.startSecond') : undefined} rules={[{ required: true }]}>
                    <InputNumber min={0} precision={0} disabled={i === 0} aria-label={t('ui.chargingProfiles.startSecond')} />
                  </Form.Item>
                  <Form.Item name={[f.name, 'limit']} label={i === 0 ? `${t('ui.chargingProfiles.limit')} (${unit})` : undefined} rules={[{ required: true }]}>
                    <InputNumber min={0} step={0.1} precision={1} aria-label={t('ui.chargingProfiles.limit')} />
                  </Form.Item>
                  <Form.Item name={[f.name, 'numberPhases']} label={i === 0 ? t('ui.chargingProfiles.phases') : undefined}>
                    <Select allowClear style={{ width: 80 }} options={[1, 2, 3].map((n) => ({ value: n, label: n }))} />
                  </Form.Item>
                  {i > 0 && <MinusCircleOutlined aria-label={t('ui.chargingProfiles.removePeriod')} onClick={() => remove(f.name)} />}
                </Space>
              ))}
              <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({ startPeriod: (form.getFieldValue(['periods', fields.length - 1, 'startPeriod']) ?? 0) + 3600, limit: 16 })}>
                {t('ui.chargingProfiles.addPeriod')}
              </Button>
            </Space>
          )}
        </Form.List>
        <Space wrap style={{ marginTop: 12 }}>
          <Form.Item name="validFrom" label={t('ui.chargingProfiles.validFrom')}><DatePicker showTime /></Form.Item>
          <Form.Item name="validTo" label={t('ui.chargingProfiles.validTo')}><DatePicker showTime /></Form.Item>
        </Space>
      </Form>
    </Modal>
  );
}
