import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Card, Form, Input, InputNumber, Modal, Select, Space, Spin, Switch, Table, Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { CHARGING_STATUSES, P, staticOptionItems, type ActionResult } from '@ev/core';
import { api } from '../../api/client.ts';
import { reportOutcome } from '../../api/errors.ts';
import { usePermissions } from '../../app/session.tsx';
import { GetLpButton } from '../parking/GetLpButton.tsx';

interface Connector {
  cp_id: number;
  connector_id: number;
  connector_name: string | null;
  status: string | null;
}

/** The messages a charger may be asked to send (OCPP 1.6 TriggerMessage). */
export const TRIGGER_MESSAGES = [
  'StatusNotification',
  'BootNotification',
  'Heartbeat',
  'MeterValues',
  'DiagnosticsStatusNotification',
  'FirmwareStatusNotification',
] as const;

/** Spec part 1 §4: a connector in one of these states counts as charging (stop yes, start no). */
export const isCharging = (status: string | null | undefined): boolean => !!status && CHARGING_STATUSES.includes(status);

interface StartValues {
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
 * Charger view, Remote actions tab (spec part 1 §2, §4, §7, §8): start, stop and unlock per connector, reset,
 * diagnostics, availability and trigger message for the charger; each behind a confirmation and its privilege.
 */
export default function RemoteActionsTab({ cpId }: { cpId: number }) {
  const { t, i18n } = useTranslation();
  const { message, modal } = App.useApp();
  const perms = usePermissions();
  const lang = i18n.language === 'zh-TW' ? 'zh-TW' : 'en';
  const statusLabels = new Map(staticOptionItems('connector_status', lang).map((o) => [String(o.value), o.label]));
  const [starting, setStarting] = useState<number>();
  const [busy, setBusy] = useState(false);
  const [triggerMessage, setTriggerMessage] = useState<string>('StatusNotification');
  const [triggerConnector, setTriggerConnector] = useState<number>(0);
  const [typed, setTyped] = useState(1);
  const [startForm] = Form.useForm<StartValues>();

  const mayStart = perms.has(P.REMOTE_START_CHARGER);
  const mayReset = perms.has(P.REMOTE_RESET_CHARGER);
  const mayDiagnose = perms.has(P.GET_DIAGNOSTICS);
  const mayChangeAvailability = perms.has(P.CHANGE_AVAILABILITY);
  const mayTrigger = perms.has(P.TRIGGER_MESSAGE);

  const connectors = useQuery({
    queryKey: ['cp_connectors', 'actions', cpId],
    enabled: perms.has(P.CP_CONNECTOR),
    // Commands change connector states a moment later (the charger reports them): keep them fresh.
    refetchInterval: 5_000,
    queryFn: () =>
      api
        .get<{ dataset: { content: Connector[] } }>('/cp_connectors', { cp_id: cpId, size: 100, sort_by: 'connector_id', order: 'asc' }, { quiet403: true })
        .then((r) => r.dataset.content.filter((c) => c.cp_id === cpId && c.connector_id > 0)),
  });

  const refresh = () => {
    void connectors.refetch();
    // The charger's StatusNotification follows its answer: look again shortly after.
    for (const ms of [1_000, 2_500]) setTimeout(() => void connectors.refetch(), ms);
  };

  /** Spec §8: success message; error.{errorCode} for a refusal; the generic error for anything else. */
  const run = async (call: () => Promise<ActionResult>) => {
    setBusy(true);
    try {
      await reportOutcome(call(), t('ui.remote.done'), message, t);
    } finally {
      setBusy(false);
      refresh();
    }
  };

  const confirm = (title: string, call: () => Promise<ActionResult>) =>
    modal.confirm({
      title,
      okText: t('ui.common.confirm'),
      cancelText: t('ui.common.cancel'),
      onOk: () => void run(call),
    });

  const target = (connectorId: number) => (connectorId === 0 ? t('ui.remote.wholeCharger') : t('ui.remote.connector', { n: connectorId }));
  const availability = (connectorId: number, type: 'Available' | 'Unavailable') =>
    confirm(t(type === 'Available' ? 'ui.remote.confirmAvailable' : 'ui.remote.confirmUnavailable', { target: target(connectorId) }), () =>
      api.get<ActionResult>(`/cps/change_availability/${cpId}/${connectorId}`, { availabilityType: type }),
    );

  const openStart = (connectorId: number) => {
    startForm.resetFields();
    startForm.setFieldsValue({ connectorId, isFree: false });
    setStarting(connectorId);
  };
  const submitStart = async () => {
    const values = await startForm.validateFields();
    modal.confirm({
      title: t('ui.remote.confirmStart', { n: values.connectorId }),
      okText: t('ui.common.confirm'),
      cancelText: t('ui.common.cancel'),
      onOk: () => {
        setStarting(undefined);
        void run(() => api.post<ActionResult>(`/cps/rsrStartCharger/${cpId}`, startBody(values)));
      },
    });
  };

  const connectorButtons = (c: { connector_id: number; status: string | null }, known: boolean) => {
    const n = c.connector_id;
    const charging = isCharging(c.status);
    return (
      <Space wrap>
        {mayStart && (
          <>
            <Tooltip title={known && charging ? t('ui.remote.alreadyCharging') : undefined}>
              <Button type="primary" disabled={busy || (known && charging)} onClick={() => openStart(n)}>
                {t('ui.remote.start')}
              </Button>
            </Tooltip>
            <Tooltip title={known && !charging ? t('ui.remote.notCharging') : undefined}>
              <Button
                danger
                disabled={busy || (known && !charging)}
                onClick={() =>
                  confirm(t('ui.remote.confirmStop', { n }), () => api.post<ActionResult>(`/cps/rsrStopCharger/${cpId}`, { connectorId: n }))
                }
              >
                {t('ui.remote.stop')}
              </Button>
            </Tooltip>
            <Button
              disabled={busy}
              onClick={() =>
                confirm(t('ui.remote.confirmUnlock', { n }), () => api.post<ActionResult>(`/cps/unlockCharger/${cpId}`, { connectorId: n }))
              }
            >
              {t('ui.remote.unlock')}
            </Button>
          </>
        )}
        {mayChangeAvailability && (
          <>
            <Button disabled={busy} onClick={() => availability(n, 'Available')}>
              {t('ui.remote.available')}
            </Button>
            <Button disabled={busy} onClick={() => availability(n, 'Unavailable')}>
              {t('ui.remote.unavailable')}
            </Button>
          </>
        )}
      </Space>
    );
  };

  const connectorIds = connectors.data?.map((c) => c.connector_id) ?? [];
  const perConnector = mayStart || mayChangeAvailability;

  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }} data-testid="remote-actions">
      <Card size="small" title={t('ui.remote.wholeCharger')}>
        <Space wrap>
          {mayReset && (
            <>
              {(['Hard', 'Soft'] as const).map((type) => (
                <Button
                  key={type}
                  disabled={busy}
                  onClick={() =>
                    confirm(t(type === 'Hard' ? 'ui.remote.confirmResetHard' : 'ui.remote.confirmResetSoft'), () =>
                      api.get<ActionResult>(`/cps/rsrResetCharger/${cpId}`, { type }),
                    )
                  }
                >
                  {t(type === 'Hard' ? 'ui.remote.resetHard' : 'ui.remote.resetSoft')}
                </Button>
              ))}
            </>
          )}
          {mayDiagnose && (
            <Button
              disabled={busy}
              onClick={() => confirm(t('ui.remote.confirmDiagnostics'), () => api.get<ActionResult>(`/cps/getDiagnostics/${cpId}`))}
            >
              {t('ui.remote.diagnostics')}
            </Button>
          )}
          {mayChangeAvailability && (
            <>
              <Button disabled={busy} onClick={() => availability(0, 'Available')}>
                {t('ui.remote.available')}
              </Button>
              <Button disabled={busy} onClick={() => availability(0, 'Unavailable')}>
                {t('ui.remote.unavailable')}
              </Button>
            </>
          )}
        </Space>
        {mayTrigger && (
          <Space wrap style={{ marginTop: 12 }} data-testid="trigger-message">
            <Select
              aria-label={t('ui.remote.requestedMessage')}
              style={{ width: 260 }}
              value={triggerMessage}
              onChange={setTriggerMessage}
              options={TRIGGER_MESSAGES.map((m) => ({ value: m, label: m }))}
            />
            <Select
              aria-label={t('ui.remote.triggerConnector')}
              style={{ width: 160 }}
              value={triggerConnector}
              onChange={setTriggerConnector}
              options={[0, ...connectorIds].map((n) => ({ value: n, label: n === 0 ? t('ui.remote.allConnectors') : t('ui.remote.connector', { n }) }))}
            />
            <Button
              disabled={busy}
              onClick={() =>
                confirm(t('ui.remote.confirmTrigger', { message: triggerMessage, target: triggerConnector ? target(triggerConnector) : t('ui.remote.allConnectors') }), () =>
                  api.get<ActionResult>(
                    `/cps/triggerMessage/${cpId}`,
                    triggerConnector ? { requestedMessage: triggerMessage, connectorId: triggerConnector } : { requestedMessage: triggerMessage },
                  ),
                )
              }
            >
              {t('ui.remote.trigger')}
            </Button>
          </Space>
        )}
      </Card>

      {perConnector && (
        <Card size="small" title={t('ui.remote.connectors')}>
          {!perms.has(P.CP_CONNECTOR) ? (
            // Without the connector privilege the states are unknown: the user types a connector and both buttons are on.
            <Space wrap>
              <InputNumber min={1} max={99} value={typed} onChange={(v) => setTyped(v ?? 1)} prefix={t('ui.remote.connector', { n: '' })} />
              {connectorButtons({ connector_id: typed, status: null }, false)}
            </Space>
          ) : connectors.isPending ? (
            <Spin />
          ) : connectors.isError ? (
            <Alert type="error" showIcon title={t('msg.errorOccurred')} />
          ) : (
            <Table<Connector>
              rowKey="connector_id"
              size="small"
              pagination={false}
              dataSource={connectors.data}
              locale={{ emptyText: t('ui.remote.noConnectors') }}
              columns={[
                {
                  key: 'connector',
                  title: t('ui.remote.connectorColumn'),
                  render: (_, c) => t('ui.remote.connector', { n: c.connector_id }) + (c.connector_name ? ` (${c.connector_name})` : ''),
                },
                {
                  key: 'status',
                  title: t('ui.remote.status'),
                  render: (_, c) => (
                    <Tag color={isCharging(c.status) ? 'green' : c.status === 'Available' ? 'blue' : c.status === 'Faulted' ? 'red' : undefined} data-testid={`connector-status-${c.connector_id}`}>
                      {statusLabels.get(c.status ?? 'N/A') ?? c.status}
                    </Tag>
                  ),
                },
                { key: 'actions', title: '', render: (_, c) => connectorButtons(c, true) },
              ]}
            />
          )}
        </Card>
      )}

      <Modal
        open={starting !== undefined}
        title={t('ui.remote.startTitle', { n: starting ?? '' })}
        okText={t('ui.remote.start')}
        cancelText={t('ui.common.cancel')}
        onOk={() => void submitStart().catch(() => undefined)}
        onCancel={() => setStarting(undefined)}
        forceRender
      >
        <Form<StartValues> form={startForm} layout="vertical" data-testid="start-form">
          <Form.Item name="connectorId" label={t('ui.remote.connectorColumn')} rules={[{ required: true, message: t('msg.form.required') }]}>
            <InputNumber min={1} max={99} style={{ width: '100%' }} />
          </Form.Item>
          <Form.Item name="time" label={t('ui.remote.time')} rules={[{ required: true, message: t('msg.form.required') }]}>
            <InputNumber min={0} max={527_040} style={{ width: '100%' }} />
          </Form.Item>
          <Form.Item name="startCode" label={t('ui.remote.startCode')}>
            <Input maxLength={40} />
          </Form.Item>
          {/* Get LP: the plate and entry time of the car in the connector's bay (screens/parking). */}
          <Form.Item style={{ marginBottom: 8 }}>
            <GetLpButton cpId={cpId} form={startForm} />
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
    </Space>
  );
}
