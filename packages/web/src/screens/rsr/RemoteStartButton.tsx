import { useState } from 'react';
import { App, Button, Form, InputNumber, Modal } from 'antd';
import { PlayCircleOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { ActionResult } from '@ev/core';
import { api } from '../../api/client.ts';
import { reportOutcome } from '../../api/errors.ts';
import { OptionSelect } from '../../resources/form/OptionSelect.tsx';
import { useOptions } from '../../resources/options.ts';
import { StartModal, startBody } from '../charger/StartModal.tsx';

interface Target {
  cpId: number;
  connectorId: number;
}

/**
 * The RSR list's remote start (spec part 2 §6, §7: POST /{resource}/rsrStartCharger/{id}): pick the charger
 * and connector, then the charger view's own start form, route and checks. On a charger with a charging
 * rate it becomes a new request in this list.
 */
export function RemoteStartButton({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [picking, setPicking] = useState(false);
  const [target, setTarget] = useState<Target>();
  const [form] = Form.useForm<Target>();
  const chargers = useOptions(['cps']).cps ?? [];
  const required = [{ required: true, message: t('msg.form.required') }];

  return (
    <>
      <Button
        icon={<PlayCircleOutlined />}
        data-testid="rsr-remote-start"
        onClick={() => {
          form.resetFields();
          setPicking(true);
        }}
      >
        {t('ui.rsr.start')}
      </Button>
      <Modal
        open={picking}
        title={t('ui.rsr.startTitle')}
        okText={t('ui.common.next')}
        cancelText={t('ui.common.cancel')}
        onOk={() =>
          void form.validateFields().then((picked) => {
            setPicking(false);
            setTarget(picked);
          }, () => undefined)
        }
        onCancel={() => setPicking(false)}
        destroyOnHidden
      >
        <Form form={form} layout="vertical" initialValues={{ connectorId: 1 }} data-testid="rsr-start-form">
          <Form.Item name="cpId" label={t('ui.rsr.charger')} rules={required}>
            <OptionSelect options={chargers} />
          </Form.Item>
          <Form.Item name="connectorId" label={t('ui.rsr.connector')} rules={required}>
            <InputNumber min={1} max={99} precision={0} />
          </Form.Item>
        </Form>
      </Modal>
      {target && (
        <StartModal
          cpId={target.cpId}
          connectorId={target.connectorId}
          onClose={() => setTarget(undefined)}
          onStart={(values) => {
            const cpId = target.cpId;
            setTarget(undefined);
            void reportOutcome(api.post<ActionResult>(`/cp_rsr/rsrStartCharger/${cpId}`, startBody(values)), t('msg.success'), message, t).then(onDone);
          }}
        />
      )}
    </>
  );
}
