import { useState } from 'react';
import { App, DatePicker, Form, InputNumber, Modal, Radio, Select, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { FIRMWARE_TARGET_KINDS, type FirmwareTargetKind } from '@ev/core';
import { api, ApiError } from '../../api/client.ts';
import { errorText } from '../../api/errors.ts';
import { optionLabel, useOptions } from '../../resources/options.ts';

interface Values {
  firmwareId: number;
  targetKind: FirmwareTargetKind;
  targetIds: number[];
  retrieveDate?: Dayjs | null;
  retries?: number | null;
  retryInterval?: number | null;
  maxFailurePct: number;
  waveSize: number;
}

/** Where each kind of target is picked from (option lists of the resources). */
const TARGET_OPTIONS: Record<FirmwareTargetKind, string> = { site: 'cp_locs', zone: 'cp_zones', chargers: 'cps' };

/**
 * A new firmware update job (issue 29): the image, its targets (sites, zones or chargers), when the chargers
 * download it, their retries, and how the job goes (chargers at a time, failure share that stops it). Started
 * after a confirmation; the job's page then follows it.
 */
export default function NewJobModal({ onClose }: { onClose(): void }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const navigate = useNavigate();
  const [form] = Form.useForm<Values>();
  const [busy, setBusy] = useState(false);
  const kind = Form.useWatch('targetKind', form) ?? 'site';
  const options = useOptions(['firmware', ...Object.values(TARGET_OPTIONS)]);

  const start = async (v: Values) => {
    setBusy(true);
    try {
      const res = await api.post<{ jobId: number; total: number }>('/firmware_jobs/start', {
        firmwareId: v.firmwareId,
        targetKind: v.targetKind,
        targetIds: v.targetIds,
        ...(v.retrieveDate ? { retrieveDate: v.retrieveDate.toISOString() } : {}),
        ...(v.retries != null ? { retries: v.retries } : {}),
        ...(v.retryInterval != null ? { retryInterval: v.retryInterval } : {}),
        maxFailurePct: v.maxFailurePct,
        waveSize: v.waveSize,
      });
      message.success(t('ui.firmware.started', { count: res.total }));
      onClose();
      navigate(`/firmware_jobs/${res.jobId}`);
    } catch (err) {
      const field = err instanceof ApiError ? (err.body as { fields?: Record<string, string> } | null)?.fields?.targetIds : undefined;
      message.error(field === 'not_fitting' ? t('ui.firmware.notFitting') : field === 'no_chargers' ? t('ui.firmware.noChargers') : errorText(err, t));
    } finally {
      setBusy(false);
    }
  };

  const confirm = (v: Values) =>
    modal.confirm({
      title: t('ui.firmware.confirmStart', { version: optionLabel(options.firmware, v.firmwareId), kind: t(`ui.firmware.targetKinds.${v.targetKind}`) }),
      okText: t('ui.common.confirm'),
      cancelText: t('ui.common.cancel'),
      onOk: () => start(v),
    });

  return (
    <Modal open title={t('ui.firmware.newJob')} okText={t('ui.firmware.start')} cancelText={t('ui.common.cancel')} confirmLoading={busy} onOk={() => form.submit()} onCancel={onClose} destroyOnHidden>
      <Form<Values> form={form} layout="vertical" initialValues={{ targetKind: 'site', maxFailurePct: 100, waveSize: 5 }} onFinish={confirm} data-testid="firmware-job-form">
        <Form.Item name="firmwareId" label={t('ui.firmware.image')} rules={[{ required: true, message: t('msg.form.required') }]}>
          <Select showSearch optionFilterProp="label" options={options.firmware} aria-label={t('ui.firmware.image')} />
        </Form.Item>
        <Form.Item name="targetKind" label={t('ui.firmware.targetKind')}>
          <Radio.Group onChange={() => form.setFieldValue('targetIds', [])}>
            {FIRMWARE_TARGET_KINDS.map((k) => (
              <Radio.Button key={k} value={k}>
                {t(`ui.firmware.targetKinds.${k}`)}
              </Radio.Button>
            ))}
          </Radio.Group>
        </Form.Item>
        <Form.Item name="targetIds" label={t('ui.firmware.targets')} rules={[{ required: true, message: t('msg.form.required') }]}>
          <Select mode="multiple" showSearch optionFilterProp="label" options={options[TARGET_OPTIONS[kind]]} aria-label={t('ui.firmware.targets')} />
        </Form.Item>
        <Form.Item name="retrieveDate" label={t('ui.firmware.retrieveDate')} extra={t('ui.firmware.retrieveNow')}>
          <DatePicker showTime style={{ width: '100%' }} />
        </Form.Item>
        <Typography.Paragraph style={{ display: 'flex', gap: 12, marginBottom: 0 }}>
          <Form.Item name="retries" label={t('ui.firmware.retries')}>
            <InputNumber min={0} max={100} />
          </Form.Item>
          <Form.Item name="retryInterval" label={t('ui.firmware.retryInterval')}>
            <InputNumber min={0} max={86400} />
          </Form.Item>
          <Form.Item name="waveSize" label={t('ui.firmware.waveSize')} rules={[{ required: true, message: t('msg.form.required') }]}>
            <InputNumber min={1} max={100} />
          </Form.Item>
        </Typography.Paragraph>
        <Form.Item name="maxFailurePct" label={t('ui.firmware.maxFailurePct')} extra={t('ui.firmware.maxFailureHint')} rules={[{ required: true, message: t('msg.form.required') }]}>
          <InputNumber min={0} max={100} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
