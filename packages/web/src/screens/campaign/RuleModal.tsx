import { useState } from 'react';
import { Alert, App, Form, Input, Modal, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { ApiError, api } from '../../api/client.ts';
import { errorText } from '../../api/errors.ts';
import { useLabels } from '../../app/labels.ts';
import { fieldErrorText, isValidationBody } from '../../resources/form/server-errors.ts';
import { useOptions } from '../../resources/options.ts';
import { RuleConfigEditor } from './RuleConfigEditor.tsx';

export interface RuleRow {
  id: number;
  campaignRuleTypeCode: string;
  ruleName: string | null;
  campaignRuleConfig: string;
  description: string | null;
  descriptionCht: string | null;
  descriptionChs: string | null;
}

interface Props {
  campaignId: number;
  /** The rule edited; undefined: a new one. */
  rule?: RuleRow;
  onClose(saved: boolean): void;
}

/** The popup of one campaign rule: its type, name, the per-type config editor and the descriptions. */
export function RuleModal({ campaignId, rule, onClose }: Props) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const { fieldLabel } = useLabels();
  const [form] = Form.useForm();
  const type = Form.useWatch('campaignRuleTypeCode', form) as string | undefined;
  const options = useOptions(['campaign_rule_type']);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string>();
  const label = (f: string) => fieldLabel('campaign_rule', f);

  const save = async () => {
    const values = await form.validateFields();
    setSaving(true);
    setError(undefined);
    try {
      const body = { ...values, ruleName: values.ruleName || null, description: values.description || null, descriptionCht: values.descriptionCht || null, descriptionChs: values.descriptionChs || null };
      if (rule) await api.put(`/campaign_rule/${rule.id}`, body);
      else await api.post('/campaign_rule', { ...body, campaignId });
      void message.success(t('msg.saved'));
      onClose(true);
    } catch (err) {
      if (err instanceof ApiError && err.status === 400 && isValidationBody(err.body)) {
        const lines = Object.entries(err.body.fields ?? {}).map(([f, code]) => `${label(f)}: ${fieldErrorText(String(code), t, (k) => i18n.exists(k))}`);
        setError(lines.join('\n') || errorText(err, t));
      } else setError(errorText(err, t));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open
      title={rule ? t('ui.campaignRules.editTitle', { id: rule.id }) : t('ui.campaignRules.addTitle')}
      okText={t('ui.common.save')}
      cancelText={t('ui.common.cancel')}
      confirmLoading={saving}
      onOk={() => void save()}
      onCancel={() => onClose(false)}
      width={720}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        initialValues={rule ?? { campaignRuleTypeCode: 'DayInclude', campaignRuleConfig: '[]' }}
        onValuesChange={(changed) => {
          // Another type reads the config differently: start it empty.
          if ('campaignRuleTypeCode' in changed) form.setFieldValue('campaignRuleConfig', '[]');
        }}
      >
        <Form.Item name="campaignRuleTypeCode" label={label('campaignRuleTypeCode')} rules={[{ required: true, message: t('msg.form.required') }]}>
          <Select options={options.campaign_rule_type} data-testid="rule-type" />
        </Form.Item>
        <Form.Item name="ruleName" label={label('ruleName')}>
          <Input maxLength={255} />
        </Form.Item>
        <Form.Item name="campaignRuleConfig" label={label('campaignRuleConfig')}>
          <RuleConfigEditor type={type} />
        </Form.Item>
        {(['description', 'descriptionCht', 'descriptionChs'] as const).map((f) => (
          <Form.Item key={f} name={f} label={label(f)}>
            <Input maxLength={1000} />
          </Form.Item>
        ))}
      </Form>
      {error && <Alert type="error" showIcon title={error} style={{ whiteSpace: 'pre-line' }} data-testid="rule-error" />}
    </Modal>
  );
}
