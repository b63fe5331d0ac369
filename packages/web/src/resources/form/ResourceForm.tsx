import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Form, Result, Space, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { EMAIL_PATTERN, isLockedRecord, isTrue, type ActionResult, type FieldDef, type ResourceDef } from '@ev/core';
import { ApiError, api } from '../../api/client.ts';
import { codeText, errorText } from '../../api/errors.ts';
import { useLabels } from '../../app/labels.ts';
import { usePermissions } from '../../app/session.tsx';
import { useOptions } from '../options.ts';
import { useRecord, type RecordData } from '../use-record.ts';
import { FieldInput } from './FieldInput.tsx';
import { fieldErrorText, isValidationBody } from './server-errors.ts';
import { initialFormValues, sameValue, toPayloadValue, type FormValues } from './values.ts';

interface Props {
  def: ResourceDef;
  mode: 'create' | 'edit';
  id?: string;
  /** Read and write another path than /{key}/{id} (own profile: /user_profile). */
  path?: string;
  /** After a successful save; by default the form goes to the record's view (or the list). */
  onSaved?: (record: RecordData | undefined) => void;
}

/** disabledWhen / disabledUnless: the input is off while another field holds (or does not hold) one of the values. */
function offByOtherField(f: FieldDef, values: FormValues | undefined): boolean {
  const holds = (cond: Record<string, (string | number)[]>) =>
    Object.entries(cond).some(([field, list]) => list.some((v) => String(v) === String(values?.[field])));
  return (!!f.disabledWhen && holds(f.disabledWhen)) || (!!f.disabledUnless && !holds(f.disabledUnless));
}

export function ResourceForm({ def, mode, id, path, onSaved }: Props) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { message, modal } = App.useApp();
  const { fieldLabel } = useLabels();
  const perms = usePermissions();
  const [form] = Form.useForm<FormValues>();
  const watched = Form.useWatch([], form);
  const [saving, setSaving] = useState(false);
  const [formError, setFormError] = useState<string[]>();

  const fields = useMemo(() => def.fields.filter((f) => perms.hasAll(f.privileges)), [def, perms]);
  const options = useOptions(fields.map((f) => f.options));
  const record = useRecord(def, mode === 'edit' ? id : undefined, mode === 'edit' ? path : undefined);
  const initial = useMemo(
    () => initialFormValues(fields, mode === 'edit' ? record.data : undefined),
    [fields, mode, record.data],
  );

  if (mode === 'edit' && record.isPending) return <Spin style={{ display: 'block', margin: 48 }} />;
  if (mode === 'edit' && record.isError) return <Result status="error" title={errorText(record.error, t)} />;
  // Opened by URL, a record the definition locks (a Tesla bay, a redeemed voucher) is not offered for editing either.
  if (mode === 'edit' && isLockedRecord(def, record.data)) {
    const view = def.actions.includes('view') ? `/${def.key}/${encodeURIComponent(id ?? '')}` : `/${def.key}`;
    return (
      <Result
        status="warning"
        title={t('ui.form.locked')}
        extra={<Button onClick={() => void navigate(view)}>{t('ui.form.backToRecord')}</Button>}
      />
    );
  }

  const payloadOf = (values: FormValues) => {
    const body: FormValues = {};
    for (const f of fields) {
      if ((mode === 'edit' && f.lockedAfterCreate) || f.fixed) continue;
      const value = toPayloadValue(f, values[f.field]);
      // An empty password on edit means "keep it"; on create, empty fields take the server's defaults.
      if (value === null && (f.writeOnly || mode === 'create')) continue;
      body[f.field] = value;
    }
    return body;
  };

  /** Puts a 400's errors on the form (under the fields and above the buttons); false when the body has none to show. */
  const showServerErrors = (body: unknown): boolean => {
    if (!isValidationBody(body)) return false;
    const exists = (k: string) => i18n.exists(k);
    const lines: string[] = [];
    const onForm: { name: string; errors: string[] }[] = [];
    for (const [field, code] of Object.entries(body.fields ?? {})) {
      const text = fieldErrorText(String(code), t, exists);
      lines.push(`${fieldLabel(def.key, field)}: ${text}`);
      if (fields.some((f) => f.field === field)) onForm.push({ name: field, errors: [text] });
    }
    // The overall errors only say what the field list already says, unless no field was named.
    if (!lines.length) lines.push(...(body.errors ?? []).map((e) => fieldErrorText(String(e), t, exists)));
    form.setFields(onForm);
    setFormError(lines.length ? lines : undefined);
    return lines.length > 0;
  };

  const confirmChanges = (count: number) =>
    new Promise<boolean>((resolve) =>
      modal.confirm({
        title: t('msg.confirmChanges', { x: count }),
        okText: t('ui.common.confirm'),
        cancelText: t('ui.common.cancel'),
        onOk: () => resolve(true),
        onCancel: () => resolve(false),
      }),
    );

  const submit = async (values: FormValues) => {
    setFormError(undefined);
    const body = payloadOf(values);
    if (mode === 'edit') {
      const before = payloadOf(initial);
      const changed = Object.keys(body).filter((k) => !sameValue(body[k], before[k])).length;
      if (!changed) {
        void message.info(t('msg.noChanges'));
        return;
      }
      if (def.editConfirm && !(await confirmChanges(changed))) return;
    }
    setSaving(true);
    try {
      const target = path ?? (mode === 'create' ? `/${def.key}` : `/${def.key}/${encodeURIComponent(id ?? '')}`);
      const res = await (mode === 'create' ? api.post<ActionResult>(target, body) : api.put<ActionResult>(target, body));
      if (res?.status === 'error') {
        setFormError([codeText(res.errorCode, t)]);
        return;
      }
      void message.success(t('msg.saved'));
      await Promise.all(
        [['list', def.key], ['record', def.key], ['options']].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
      );
      const saved = res?.data as RecordData | undefined;
      if (onSaved) return onSaved(saved);
      const newId = saved?.[def.idField] ?? id;
      void navigate(def.actions.includes('view') && newId !== undefined ? `/${def.key}/${String(newId)}` : `/${def.key}`);
    } catch (err) {
      // The precise errors on the form say it all: a generic "Request error" beside them would only add noise.
      if (!(err instanceof ApiError && err.status === 400 && showServerErrors(err.body))) void message.error(errorText(err, t));
    } finally {
      setSaving(false);
    }
  };

  const rules = (f: FieldDef) => {
    const out: object[] = [];
    if (f.required || (f.requiredOnCreateOnly && mode === 'create'))
      out.push({ required: true, message: t(`msg.form.${f.missingMessage ?? 'required'}`) });
    if (f.input === 'email') out.push({ pattern: EMAIL_PATTERN, message: t('msg.form.format_error') });
    if (f.input === 'json')
      out.push({
        validator: async (_: unknown, v: unknown) => {
          if (v) JSON.parse(String(v));
        },
        message: t('msg.form.invalid'),
      });
    return out;
  };

  return (
    <Form<FormValues>
      // Remount when the record is read again (after a save that stays here) so the form shows what is stored.
      key={record.dataUpdatedAt}
      form={form}
      initialValues={initial}
      onFinish={(v) => void submit(v)}
      labelCol={{ xs: { span: 24 }, md: { span: 7 } }}
      wrapperCol={{ xs: { span: 24 }, md: { span: 14 } }}
      style={{ maxWidth: 960 }}
      scrollToFirstError
      // The rules above say what is wrong in the reader's language; the browser's own bubbles would not (type="email").
      noValidate
    >
      {fields.map((f) => (
        <Form.Item key={f.field} name={f.field} label={fieldLabel(def.key, f.field)} rules={rules(f)}>
          <FieldInput
            field={f}
            options={options}
            disabled={(mode === 'edit' && f.lockedAfterCreate) || !!f.fixed || (!!f.disabledWhenSet && isTrue(watched?.[f.disabledWhenSet])) || offByOtherField(f, watched ?? initial)}
          />
        </Form.Item>
      ))}
      {formError && (
        <Form.Item wrapperCol={{ md: { offset: 7, span: 14 } }}>
          <Alert type="error" showIcon title={formError.join('\n')} style={{ whiteSpace: 'pre-line' }} data-testid="form-error" />
        </Form.Item>
      )}
      <Form.Item wrapperCol={{ md: { offset: 7, span: 14 } }}>
        <Space>
          <Button type="primary" htmlType="submit" loading={saving}>
            {t('ui.common.save')}
          </Button>
          <Button onClick={() => void navigate(-1)}>{t('ui.common.cancel')}</Button>
        </Space>
      </Form.Item>
    </Form>
  );
}
