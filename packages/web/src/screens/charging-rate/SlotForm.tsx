import { useMemo, useState } from 'react';
import { App, Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { RESOURCES, type OptionItem } from '@ev/core';
import { ApiError, api } from '../../api/client.ts';
import { errorText } from '../../api/errors.ts';
import { useLabels } from '../../app/labels.ts';
import { FieldInput } from '../../resources/form/FieldInput.tsx';
import { OptionSelect } from '../../resources/form/OptionSelect.tsx';
import { fieldErrorText, isValidationBody } from '../../resources/form/server-errors.ts';
import { initialFormValues, toPayloadValue, type FormValues } from '../../resources/form/values.ts';
import { useOptions } from '../../resources/options.ts';
import type { RecordData } from '../../resources/use-record.ts';

const DEF = RESOURCES.charging_rate_detail;
/** The rate is the one being viewed; the older time-slot columns (fee, point) stay out of the editor. */
const FIELDS = DEF.fields.filter((f) => !['chargingRateId', 'fee', 'point'].includes(f.field));
const TIMES = new Set(['startTime', 'endTime']);

interface Props {
  rateId: number;
  /** The slot being edited; undefined: a new one. */
  slot?: RecordData;
  /** The price schemes of the rate's site only (spec part 2 §5). */
  schemes: OptionItem[];
  onClose(saved: boolean): void;
}

/** The popup of one time slot: the slot fields, with the scheme select limited to the site's schemes; server refusals shown on the field. */
export function SlotForm({ rateId, slot, schemes, onClose }: Props) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const { fieldLabel } = useLabels();
  const [form] = Form.useForm<FormValues>();
  const [saving, setSaving] = useState(false);
  const options = useOptions(FIELDS.map((f) => f.options));
  const initial = useMemo(() => initialFormValues(FIELDS, slot), [slot]);

  const text = (code: string) => fieldErrorText(code, t, (k) => i18n.exists(k));

  const submit = async (values: FormValues) => {
    const body: FormValues = {};
    for (const f of FIELDS) {
      const v = toPayloadValue(f, values[f.field]);
      if (v !== null || slot) body[f.field] = f.field === 'weekday' && v === null ? [] : v;
    }
    if (!slot) body.chargingRateId = rateId;
    setSaving(true);
    try {
      await (slot ? api.put(`/charging_rate_detail/${String(slot.id)}`, body) : api.post('/charging_rate_detail', body));
      void message.success(t('msg.saved'));
      onClose(true);
    } catch (err) {
      const onFields = err instanceof ApiError && err.status === 400 && isValidationBody(err.body)
        ? Object.entries(err.body.fields ?? {}).filter(([name]) => FIELDS.some((f) => f.field === name))
        : [];
      // A refusal shown on its field says it all; anything else is a message.
      if (onFields.length) form.setFields(onFields.map(([name, code]) => ({ name, errors: [text(String(code))] })));
      else void message.error(errorText(err, t));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open
      title={slot ? t('ui.rates.editSlot', { id: slot.id }) : t('ui.rates.newSlot')}
      okText={t('ui.common.save')}
      cancelText={t('ui.common.cancel')}
      confirmLoading={saving}
      onOk={() => form.submit()}
      onCancel={() => onClose(false)}
      width={640}
      destroyOnHidden
    >
      <Form<FormValues> form={form} initialValues={initial} onFinish={(v) => void submit(v)} labelCol={{ span: 9 }} wrapperCol={{ span: 15 }} data-testid="slot-form">
        {FIELDS.map((f) => (
          <Form.Item
            key={f.field}
            name={f.field}
            label={fieldLabel(DEF.key, f.field)}
            rules={f.required ? [{ required: true, message: t('msg.form.required') }] : []}
            extra={TIMES.has(f.field) ? t('ui.rates.timeFormat') : f.field === 'weekday' ? t('ui.rates.weekdayHint') : undefined}
          >
            {TIMES.has(f.field) ? (
              <Input maxLength={5} placeholder="HH:mm" style={{ width: 120 }} />
            ) : f.field === 'priceSchemeId' ? (
              <OptionSelect options={schemes} style={{ width: '100%' }} />
            ) : (
              <FieldInput field={f} options={options} />
            )}
          </Form.Item>
        ))}
      </Form>
    </Modal>
  );
}
