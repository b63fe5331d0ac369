import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Form, Modal } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { ResourceDef } from '@ev/core';
import { ApiError, api } from '../../api/client.ts';
import { errorText } from '../../api/errors.ts';
import { useLabels } from '../../app/labels.ts';
import { FieldInput } from '../../resources/form/FieldInput.tsx';
import { fieldErrorText, isValidationBody } from '../../resources/form/server-errors.ts';
import { toPayloadValue, type FormValues } from '../../resources/form/values.ts';
import { useOptions } from '../../resources/options.ts';
import { SecretDialog } from './SecretDialog.tsx';

/**
 * Create for third-party keys: the definition's fields in a dialog, then the secret of the create
 * answer in its own dialog, shown this once (the generic create page would go on to the view and lose it).
 */
export function CreateConfButton({ def, onCreated }: { def: ResourceDef; onCreated: () => void }) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const { resourceName, fieldLabel } = useLabels();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<FormValues>();
  const [open, setOpen] = useState(false);
  const [saving, setSaving] = useState(false);
  const [formError, setFormError] = useState<string>();
  const [created, setCreated] = useState<{ name: string; secret: string }>();
  const options = useOptions(def.fields.map((f) => f.options));

  const submit = async (values: FormValues) => {
    const body: FormValues = {};
    for (const f of def.fields) {
      const value = toPayloadValue(f, values[f.field]);
      if (value !== null) body[f.field] = value;
    }
    setSaving(true);
    setFormError(undefined);
    try {
      const res = await api.post<{ data: { key_name: string; api_key: string } }>(`/${def.key}`, body);
      setOpen(false);
      form.resetFields();
      setCreated({ name: res.data.key_name, secret: res.data.api_key });
      void message.success(t('msg.saved'));
      await queryClient.invalidateQueries({ queryKey: ['list', def.key] });
      onCreated();
    } catch (err) {
      if (err instanceof ApiError && err.status === 400 && isValidationBody(err.body)) {
        const fields = Object.entries(err.body.fields ?? {}).map(([name, code]) => ({ name, errors: [fieldErrorText(String(code), t, (k) => i18n.exists(k))] }));
        form.setFields(fields.filter((f) => def.fields.some((d) => d.field === f.name)));
        setFormError(fields.map((f) => `${fieldLabel(def.key, f.name)}: ${f.errors[0]}`).join('\n') || undefined);
      } else setFormError(errorText(err, t));
    } finally {
      setSaving(false);
    }
  };

  return (
    <>
      <Button type="primary" icon={<PlusOutlined />} onClick={() => setOpen(true)}>
        {t('ui.actions.create')}
      </Button>
      <Modal
        open={open}
        title={t('ui.form.createTitle', { name: resourceName(def.key) })}
        okText={t('ui.common.save')}
        cancelText={t('ui.common.cancel')}
        confirmLoading={saving}
        onOk={() => form.submit()}
        onCancel={() => setOpen(false)}
        width={640}
        destroyOnHidden
      >
        <Form<FormValues> form={form} onFinish={(v) => void submit(v)} labelCol={{ span: 7 }} wrapperCol={{ span: 17 }}>
          {def.fields.map((f) => (
            <Form.Item key={f.field} name={f.field} label={fieldLabel(def.key, f.field)} rules={f.required ? [{ required: true, message: t('msg.form.required') }] : []}>
              <FieldInput field={f} options={options} />
            </Form.Item>
          ))}
        </Form>
        {formError && <Alert type="error" showIcon title={formError} style={{ whiteSpace: 'pre-line' }} data-testid="form-error" />}
      </Modal>
      <SecretDialog name={created?.name ?? ''} secret={created?.secret} onClose={() => setCreated(undefined)} />
    </>
  );
}
