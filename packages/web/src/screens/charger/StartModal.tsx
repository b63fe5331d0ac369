import { useEffect } from 'react';
import { App, Form, Input, InputNumber, Modal, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { GetLpButton } from '../parking/GetLpButton.tsx';

export interface StartValues {
  connectorId: number;
  time: number;
  startCode?: string;
  lp?: string;
  entryTime?: string;
  isFree?: boolean;
  remark?: string;
  memberId?: string;
}

/** The body of POST /{resource}/rsrStartCharger/{id} (spec part 1 §7), empty fields left out. */
export function startBody(v: StartValues): Record<string, unknown> {
  const body: Record<string, unknown> = { connectorId: v.connectorId, time: v.time, isFree: v.isFree ? 1 : 0 };
  for (const k of ['startCode', 'lp', 'entryTime', 'remark', 'memberId'] as const) {
    const value = v[k]?.trim();
    if (value) body[k] = value;
  }
  return body;
}

/**
 * The remote start form of spec part 1 §2 / §7 for one connector (open while connectorId is set), then its
 * confirmation; onStart gets the confirmed values.
 */
export function StartModal({ cpId, connectorId, onClose, onStart }: {
  cpId: number;
  connectorId: number | undefined;
  onClose(): void;
  onStart(values: StartValues): void;
}) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const [form] = Form.useForm<StartValues>();

  // Each opening starts from an empty form for the connector it was opened on.
  useEffect(() => {
    if (connectorId === undefined) return;
    form.resetFields();
    form.setFieldsValue({ connectorId, isFree: false });
  }, [connectorId, form]);

  const submit = async () => {
    const values = await form.validateFields();
    modal.confirm({
      title: t('ui.remote.confirmStart', { n: values.connectorId }),
      okText: t('ui.common.confirm'),
      cancelText: t('ui.common.cancel'),
      onOk: () => onStart(values),
    });
  };

  return (
    <Modal
      open={connectorId !== undefined}
      title={t('ui.remote.startTitle', { n: connectorId ?? '' })}
      okText={t('ui.remote.start')}
      cancelText={t('ui.common.cancel')}
      onOk={() => void submit().catch(() => undefined)}
      onCancel={onClose}
      forceRender
    >
      <Form<StartValues> form={form} layout="vertical" data-testid="start-form">
        <Form.Item name="connectorId" label={t('ui.remote.connectorColumn')} rules={[{ required: true, message: t('msg.form.required') }]}>
          <InputNumber min={1} max={99} style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name="time" label={t('ui.remote.time')} rules={[{ required: true, message: t('msg.form.required') }]}>
          <InputNumber min={1} max={527_040} precision={0} style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name="startCode" label={t('ui.remote.startCode')}>
          <Input maxLength={40} />
        </Form.Item>
        {/* Get LP: the plate and entry time of the car in the connector's bay (screens/parking). */}
        <Form.Item style={{ marginBottom: 8 }}>
          <GetLpButton cpId={cpId} form={form} />
        </Form.Item>
        <Form.Item name="lp" label={t('ui.remote.lp')}>
          <Input maxLength={20} />
        </Form.Item>
        <Form.Item name="entryTime" label={t('ui.remote.entryTime')}>
          <Input placeholder="YYYY-MM-DD HH:mm:ss" maxLength={40} />
        </Form.Item>
        <Form.Item name="memberId" label={t('ui.remote.memberId')}>
          <Input maxLength={40} />
        </Form.Item>
        <Form.Item name="isFree" label={t('ui.remote.isFree')} valuePropName="checked">
          <Switch />
        </Form.Item>
        <Form.Item name="remark" label={t('ui.remote.remark')}>
          <Input.TextArea rows={3} maxLength={2000} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
