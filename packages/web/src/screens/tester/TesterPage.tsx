import { useEffect, useState } from 'react';
import dayjs from 'dayjs';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Descriptions, Form, Input, Select, Space, Spin, Tag, Typography } from 'antd';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { P, readPrivilege, type OcppProtocol, type TesterAnswer, type TesterMessage } from '@ev/core';
import { api } from '../../api/client.ts';
import { codeText, errorText } from '../../api/errors.ts';
import { useLabels } from '../../app/labels.ts';
import { usePermissions } from '../../app/session.tsx';
import { readStoredText } from '../../resources/display.tsx';
import { optionLabel, useOptions } from '../../resources/options.ts';

/** A message of the set with its schema-valid template. */
interface TemplatedMessage extends TesterMessage {
  template: Record<string, unknown>;
}

/** The screen's two message sets (spec part 1 §2): the message tester and the charger simulator for load management. */
export type TesterSet = 'test/cp_request' | 'lms/cp_simulator';

/** Each set is open to its own privilege (READ_TEST_CP_REQUEST, READ_LMS_CP_SIMULATOR, which also show it in the menu) and to cstDebug. */
export const testerPrivileges = (set: TesterSet) => [readPrivilege(set), P.CST_DEBUG];

const pretty = (value: unknown) => JSON.stringify(value, null, 2);

/**
 * /test/cp_request and /lms/cp_simulator: send one OCPP message of the set for a charger and see the
 * answer and the stored request. The server holds each set and its templates, in the OCPP version of the
 * chosen charger (1.6 until one is chosen).
 */
export default function TesterPage({ set = 'test/cp_request' }: { set?: TesterSet }) {
  const { t, i18n } = useTranslation();
  const { fieldLabel, resourceName } = useLabels();
  const perms = usePermissions();
  const allowed = testerPrivileges(set).some((p) => perms.has(p));
  const options = useOptions(['cps', 'request_types']);
  const [cpId, setCpId] = useState<number>();
  const templates = useQuery({
    queryKey: ['tester-templates', set, cpId ?? null],
    queryFn: () => api.get<{ protocol: OcppProtocol; messages: TemplatedMessage[] }>(`/${set}/templates`, cpId === undefined ? undefined : { cpId }),
    enabled: allowed,
    staleTime: Infinity,
    // The list stays while the chosen charger's is read.
    placeholderData: keepPreviousData,
  });
  const [name, setName] = useState<string>();
  const [payload, setPayload] = useState('');
  /** The version whose template the editor was filled from. */
  const [payloadProtocol, setPayloadProtocol] = useState<OcppProtocol>();
  const [jsonError, setJsonError] = useState(false);
  const send = useMutation({
    mutationFn: (body: { cpId: number; action: string; payload: unknown }) => api.post<TesterAnswer>(`/${set}`, body),
  });
  const loaded = templates.isPlaceholderData ? undefined : templates.data;
  // A charger of the other version: the same message in its version's template, or none when that version has no such message.
  useEffect(() => {
    if (!loaded || !name || loaded.protocol === payloadProtocol) return;
    const same = loaded.messages.find((m) => m.name === name);
    setName(same?.name);
    setPayload(same ? pretty(same.template) : '');
    setPayloadProtocol(loaded.protocol);
    setJsonError(false);
    send.reset();
  }, [loaded]);

  if (!allowed) return <Alert type="error" showIcon title={t('ui.error.noPermission')} />;
  if (templates.isPending) return <Spin style={{ display: 'block', margin: 48 }} />;
  if (templates.isError) return <Alert type="error" showIcon title={errorText(templates.error, t)} />;

  const { messages, protocol } = templates.data;
  const action = messages.find((m) => m.name === name)?.action;
  const pick = (picked: string) => {
    setName(picked);
    setPayload(pretty(messages.find((m) => m.name === picked)?.template ?? {}));
    setPayloadProtocol(protocol);
    setJsonError(false);
    send.reset();
  };
  const submit = () => {
    if (cpId === undefined || !action || !loaded) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(payload);
    } catch {
      setJsonError(true);
      return;
    }
    setJsonError(false);
    send.mutate({ cpId, action, payload: parsed });
  };

  const answer = send.data;
  const stored = answer?.data.request;
  // A 400 carries the schema problem: show it, it is what the tester is for.
  const sendError = send.error
    ? [errorText(send.error, t), ...(((send.error as { body?: { errors?: unknown[] } }).body?.errors ?? []) as unknown[]).map((e) => readStoredText(e, t, i18n.language))].join(' ')
    : null;

  return (
    <Card title={resourceName(set)}>
      <Typography.Paragraph type="secondary">{t(set === 'test/cp_request' ? 'ui.tester.hint' : 'ui.tester.simulatorHint')}</Typography.Paragraph>
      <Form layout="vertical" style={{ maxWidth: 720 }} onFinish={submit}>
        <Form.Item
          label={t('ui.tester.charger')}
          required
          extra={cpId !== undefined && loaded && <span data-testid="tester-version">{t('ui.tester.version', { version: protocol === 'ocpp2.0.1' ? '2.0.1' : '1.6' })}</span>}
        >
          <Select
            data-testid="tester-charger"
            showSearch={{ optionFilterProp: 'label' }}
            placeholder={t('ui.tester.pickCharger')}
            value={cpId}
            onChange={(v) => setCpId(Number(v))}
            options={options.cps.map((o) => ({ label: o.label, value: Number(o.value) }))}
          />
        </Form.Item>
        <Form.Item label={t('ui.tester.message')} required>
          <Select
            data-testid="tester-message"
            showSearch={{ optionFilterProp: 'search' }}
            value={name}
            onChange={pick}
            options={messages.map((m) => ({
              value: m.name,
              search: m.name,
              label: (
                <Space>
                  {m.name}
                  <Typography.Text type="secondary">{t(m.direction === 'in' ? 'ui.tester.asCharger' : 'ui.tester.toCharger')}</Typography.Text>
                </Space>
              ),
            }))}
          />
        </Form.Item>
        <Form.Item
          label={t('ui.tester.payload')}
          validateStatus={jsonError ? 'error' : undefined}
          help={jsonError ? t('ui.tester.invalidJson') : undefined}
        >
          <Input.TextArea
            data-testid="tester-payload"
            value={payload}
            onChange={(e) => setPayload(e.target.value)}
            autoSize={{ minRows: 6, maxRows: 24 }}
            spellCheck={false}
            style={{ fontFamily: 'monospace' }}
          />
        </Form.Item>
        <Space>
          <Button type="primary" htmlType="submit" disabled={cpId === undefined || !action || !loaded} loading={send.isPending}>
            {t('ui.tester.send')}
          </Button>
          <Button disabled={!name} onClick={() => name && pick(name)}>
            {t('ui.tester.template')}
          </Button>
        </Space>
      </Form>

      {sendError && <Alert style={{ marginTop: 24 }} type="error" showIcon title={sendError} />}
      {answer && (
        <div data-testid="tester-answer" style={{ marginTop: 24 }}>
          <Typography.Title level={5}>{t('ui.tester.answer')}</Typography.Title>
          <Space orientation="vertical" style={{ width: '100%' }}>
            <Space wrap>
              <Tag color={answer.status === 'success' ? 'success' : 'error'}>
                {t(answer.status === 'success' ? 'ui.tester.success' : 'ui.tester.failed')}
              </Tag>
              {answer.errorCode !== undefined && <Typography.Text>{`${answer.errorCode} ${codeText(answer.errorCode, t)}`}</Typography.Text>}
              {answer.message && <Typography.Text type="secondary">{answer.message}</Typography.Text>}
            </Space>
            <Typography.Text strong>{t('ui.tester.response')}</Typography.Text>
            <pre data-testid="tester-response" style={{ margin: 0, padding: 12, background: 'rgba(0,0,0,0.04)', borderRadius: 6, overflow: 'auto' }}>
              {pretty(answer.data.response)}
            </pre>
            <Typography.Text strong>{t('ui.tester.stored')}</Typography.Text>
            {stored ? (
              <Descriptions bordered size="small" column={1} data-testid="tester-stored">
                <Descriptions.Item label={fieldLabel('cp_requests', 'req_id')}>
                  {perms.has(readPrivilege('cp_requests')) ? (
                    <Link to={`/cp_requests/${stored.req_id}`}>{t('ui.tester.openRequest', { id: stored.req_id })}</Link>
                  ) : (
                    stored.req_id
                  )}
                </Descriptions.Item>
                <Descriptions.Item label={fieldLabel('cp_requests', 'request_type')}>
                  {optionLabel(options.request_types, stored.request_type)}
                </Descriptions.Item>
                <Descriptions.Item label={fieldLabel('cp_requests', 'cp_no')}>{stored.cp_no}</Descriptions.Item>
                <Descriptions.Item label={fieldLabel('cp_requests', 'connector_id')}>{stored.connector_id ?? ''}</Descriptions.Item>
                <Descriptions.Item label={fieldLabel('cp_requests', 'connector_status')}>{stored.connector_status ?? ''}</Descriptions.Item>
                <Descriptions.Item label={fieldLabel('cp_requests', 'cre_dttm')}>{dayjs(stored.cre_dttm).format('YYYY-MM-DD HH:mm:ss')}</Descriptions.Item>
                <Descriptions.Item label={fieldLabel('cp_requests', 'uuid')}>{stored.uuid ?? ''}</Descriptions.Item>
              </Descriptions>
            ) : (
              <Typography.Text type="secondary">{t('ui.tester.notStored')}</Typography.Text>
            )}
          </Space>
        </div>
      )}
    </Card>
  );
}
