import { useState, type ReactNode } from 'react';
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { Alert, App, Button, Card, Input, InputNumber, Select, Space, Spin, Table, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { BOOT_PENDING, BOOT_REJECTED, canStartIn, CHARGING_STATUSES, ERROR_CODES, getResource, P, staticOptionItems, type ActionResult } from '@ev/core';
import { api } from '../../api/client.ts';
import { codeText, reportOutcome } from '../../api/errors.ts';
import { usePermissions } from '../../app/session.tsx';
import { useRecord } from '../../resources/use-record.ts';
import { StartModal, startBody } from './StartModal.tsx';
import { DiagnosticsStatus } from '../firmware/DiagnosticsStatus.tsx';
import { ChargerPasswordSection } from './ChargerPasswordSection.tsx';
import { EvseConnectorInput, ResetTarget } from './EvseTargets.tsx';
import { ChargerStateNotice, type ChargerState } from './ChargerStateNotice.tsx';

interface Connector {
  cp_id: number;
  connector_id: number;
  connector_name: string | null;
  /** As shown: Offline while the charger is not connected (server hooks/cp_connectors.ts). */
  status: string | null;
  /** What it reported before the charger went away, at last_status_dttm. */
  last_known_status?: string | null;
  last_status_dttm?: string | null;
  /** The running session a stop ends; null when none runs. */
  session_id?: number | null;
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

/** Spec part 1 §4: a connector in one of these states counts as charging (a session runs: no start). */
export const isCharging = (status: string | null | undefined): boolean => !!status && CHARGING_STATUSES.includes(status);

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
  /** OCPP 2.0.1: the EVSE a reset is for (0: the whole station). */
  const [resetEvse, setResetEvse] = useState(0);

  const mayStart = perms.has(P.REMOTE_START_CHARGER);
  const mayReset = perms.has(P.REMOTE_RESET_CHARGER);
  const mayDiagnose = perms.has(P.GET_DIAGNOSTICS);
  const mayChangeAvailability = perms.has(P.CHANGE_AVAILABILITY);
  const mayTrigger = perms.has(P.TRIGGER_MESSAGE);
  const mayClearCache = perms.has(P.CLEAR_CACHE);

  // Every action needs the charger connected: the record the view page reads every few seconds (cps liveView).
  const charger = useRecord(getResource('cps')!, cpId, undefined, true) as UseQueryResult<ChargerState>;
  const connected = charger.data?.online_flag === 1;
  const is201 = charger.data?.ocpp_protocol === 'ocpp2.0.1';
  // A rejected boot takes no command at all, a pending one no remote start or stop (the server refuses them too).
  const bootState = charger.data?.charging_status;
  const notConnected = charger.data && !connected ? codeText(ERROR_CODES.CP_OFFLINE, t)
    : bootState === BOOT_REJECTED ? codeText(ERROR_CODES.CP_NOT_ACCEPTED, t) : undefined;
  const startStopBlocked = notConnected ?? (bootState === BOOT_PENDING ? codeText(ERROR_CODES.CP_NOT_ACCEPTED, t) : undefined);
  const statusText = (status: string | null | undefined) => statusLabels.get(status ?? 'N/A') ?? status;

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
    const again = () => Promise.all([connectors.refetch(), charger.refetch()]);
    void again();
    // The charger's StatusNotification follows its answer: look again shortly after.
    for (const ms of [1_000, 2_500]) setTimeout(() => void again(), ms);
  };

  /** Spec §8: success message (Scheduled said as such); error.{errorCode} for a refusal; the generic error for anything else. */
  const run = async (call: () => Promise<ActionResult>, doneText = t('ui.remote.done')) => {
    setBusy(true);
    try {
      const answered = call();
      const scheduled = await answered.then((r) => (r?.data as { status?: string } | undefined)?.status === 'Scheduled', () => false);
      await reportOutcome(answered, scheduled ? t('ui.remote.scheduled') : doneText, message, t);
    } finally {
      setBusy(false);
      refresh();
    }
  };

  const confirm = (title: string, call: () => Promise<ActionResult>, doneText?: string, content?: ReactNode) =>
    modal.confirm({
      title,
      content,
      okText: t('ui.common.confirm'),
      cancelText: t('ui.common.cancel'),
      onOk: () => void run(call, doneText),
    });

  /** Stop and unlock (spec §7): the confirmation takes the remark the command is audited with. */
  const confirmWithRemark = (title: string, call: (remark: string | undefined) => Promise<ActionResult>) => {
    let remark = '';
    modal.confirm({
      title,
      content: (
        <Input.TextArea
          aria-label={t('ui.remote.remark')}
          placeholder={t('ui.remote.remark')}
          rows={2}
          maxLength={2000}
          onChange={(e) => (remark = e.target.value)}
          style={{ marginTop: 8 }}
        />
      ),
      okText: t('ui.common.confirm'),
      cancelText: t('ui.common.cancel'),
      onOk: () => void run(() => call(remark.trim() || undefined)),
    });
  };

  const target = (connectorId: number) => (connectorId === 0 ? t('ui.remote.wholeCharger') : t('ui.remote.connector', { n: connectorId }));
  const availability = (connectorId: number, type: 'Available' | 'Unavailable') => {
    // OCPP 2.0.1: one connector within the EVSE may be named (empty: the whole EVSE).
    let within: number | null = null;
    const content = is201 && connectorId > 0 ? <EvseConnectorInput onChange={(n) => (within = n)} /> : undefined;
    confirm(
      t(type === 'Available' ? 'ui.remote.confirmAvailable' : 'ui.remote.confirmUnavailable', { target: target(connectorId) }),
      () => api.get<ActionResult>(`/cps/change_availability/${cpId}/${connectorId}`, { availabilityType: type, ...(within ? { evseConnectorId: within } : {}) }),
      undefined,
      content,
    );
  };

  /** Why a start cannot work on this connector (the server refuses the same: core's startRefusal), or undefined. */
  const startBlocked = (c: Connector): string | undefined => {
    if (isCharging(c.status)) return t('ui.remote.alreadyCharging');
    if (!canStartIn(c.status)) return t('ui.remote.cannotStart', { status: statusText(c.status) });
    const otherCharging = connectors.data?.some((o) => o.connector_id !== c.connector_id && isCharging(o.status));
    if (otherCharging && charger.data?.double_use_flag !== 1) return codeText(ERROR_CODES.ONE_CONNECTOR_AT_A_TIME, t);
    return undefined;
  };

  /** A button with the reason it is off as its tooltip (every action needs the charger connected). */
  const action = (label: string, blocked: string | undefined, onClick: () => void, props: { type?: 'primary'; danger?: boolean } = {}) => (
    <Tooltip title={blocked}>
      <Button {...props} disabled={busy || !!blocked} onClick={onClick}>
        {label}
      </Button>
    </Tooltip>
  );

  /** known: the connector's state is known (without READ_CP_CONNECTOR the user types a connector and the server judges). */
  const connectorButtons = (c: Connector, known: boolean) => {
    const n = c.connector_id;
    const running = known && c.session_id != null;
    const unlockTitle = t(running ? 'ui.remote.confirmUnlockSession' : 'ui.remote.confirmUnlock', { n });
    return (
      <Space wrap>
        {mayStart && (
          <>
            {action(t('ui.remote.start'), startStopBlocked ?? (known ? startBlocked(c) : undefined), () => setStarting(n), { type: 'primary' })}
            {action(
              t('ui.remote.stop'),
              startStopBlocked ?? (known && !running ? t('ui.remote.notCharging') : undefined),
              () => confirmWithRemark(t('ui.remote.confirmStop', { n }), (remark) => api.post<ActionResult>(`/cps/rsrStopCharger/${cpId}`, { connectorId: n, remark })),
              { danger: true },
            )}
            {action(t('ui.remote.unlock'), notConnected, () =>
              confirmWithRemark(unlockTitle, (remark) => api.post<ActionResult>(`/cps/unlockCharger/${cpId}`, { connectorId: n, remark })),
            )}
          </>
        )}
        {mayChangeAvailability && (
          <>
            {action(t('ui.remote.available'), notConnected, () => availability(n, 'Available'))}
            {action(t('ui.remote.unavailable'), notConnected, () => availability(n, 'Unavailable'))}
          </>
        )}
      </Space>
    );
  };

  const connectorIds = connectors.data?.map((c) => c.connector_id) ?? [];
  const perConnector = mayStart || mayChangeAvailability;

  const state = charger.data;
  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }} data-testid="remote-actions">
      {state && <ChargerStateNotice state={state} statusText={statusText} />}
      <Card size="small" title={t('ui.remote.wholeCharger')}>
        <Space wrap>
          {mayReset && is201 && <ResetTarget value={resetEvse} onChange={setResetEvse} evseIds={connectorIds} />}
          {mayReset &&
            (['Hard', 'Soft'] as const).map((type) => (
              <span key={type}>
                {action(t(type === 'Hard' ? 'ui.remote.resetHard' : 'ui.remote.resetSoft'), notConnected, () => {
                  const evseId = is201 && connectorIds.includes(resetEvse) ? resetEvse : 0;
                  const title = evseId
                    ? t(type === 'Hard' ? 'ui.remote.confirmResetEvseHard' : 'ui.remote.confirmResetEvseSoft', { n: evseId })
                    : t(type === 'Hard' ? 'ui.remote.confirmResetHard' : 'ui.remote.confirmResetSoft');
                  confirm(title, () => api.get<ActionResult>(`/cps/rsrResetCharger/${cpId}`, evseId ? { type, evseId } : { type }));
                })}
              </span>
            ))}
          {mayDiagnose &&
            action(t('ui.remote.diagnostics'), notConnected, () =>
              confirm(t('ui.remote.confirmDiagnostics'), () => api.get<ActionResult>(`/cps/getDiagnostics/${cpId}`)),
            )}
          {mayDiagnose && <DiagnosticsStatus cpId={cpId} />}
          {mayClearCache &&
            action(t('ui.remote.clearCache'), notConnected, () =>
              confirm(t('ui.remote.confirmClearCache'), () => api.get<ActionResult>(`/cps/clearCache/${cpId}`), t('ui.remote.clearCacheAccepted')),
            )}
          {mayChangeAvailability && (
            <>
              {action(t('ui.remote.available'), notConnected, () => availability(0, 'Available'))}
              {action(t('ui.remote.unavailable'), notConnected, () => availability(0, 'Unavailable'))}
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
            {action(t('ui.remote.trigger'), notConnected, () =>
              confirm(t('ui.remote.confirmTrigger', { message: triggerMessage, target: triggerConnector ? target(triggerConnector) : t('ui.remote.allConnectors') }), () =>
                api.get<ActionResult>(
                  `/cps/triggerMessage/${cpId}`,
                  triggerConnector ? { requestedMessage: triggerMessage, connectorId: triggerConnector } : { requestedMessage: triggerMessage },
                ),
              ),
            )}
          </Space>
        )}
      </Card>

      {perConnector && (
        <Card size="small" title={t('ui.remote.connectors')}>
          {!perms.has(P.CP_CONNECTOR) ? (
            // Without the connector privilege the states are unknown: the user types a connector and both buttons are on.
            <Space wrap>
              <InputNumber min={1} max={99} value={typed} onChange={(v) => setTyped(v ?? 1)} prefix={t('ui.remote.connector', { n: '' })} />
              {connectorButtons({ cp_id: cpId, connector_id: typed, connector_name: null, status: null }, false)}
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
                    <Space size={4} wrap>
                      <Tag color={isCharging(c.status) ? 'green' : c.status === 'Available' ? 'blue' : c.status === 'Faulted' ? 'red' : undefined} data-testid={`connector-status-${c.connector_id}`}>
                        {statusText(c.status)}
                      </Tag>
                      {c.last_known_status && (
                        <Typography.Text type="secondary" data-testid={`connector-last-known-${c.connector_id}`}>
                          {t('ui.remote.lastKnown', { status: statusText(c.last_known_status), at: c.last_status_dttm ?? '-' })}
                        </Typography.Text>
                      )}
                    </Space>
                  ),
                },
                { key: 'actions', title: '', render: (_, c) => connectorButtons(c, true) },
              ]}
            />
          )}
        </Card>
      )}

      <ChargerPasswordSection cpId={cpId} />

      <StartModal
        cpId={cpId}
        connectorId={starting}
        onClose={() => setStarting(undefined)}
        onStart={(values) => {
          setStarting(undefined);
          void run(() => api.post<ActionResult>(`/cps/rsrStartCharger/${cpId}`, startBody(values)));
        }}
      />
    </Space>
  );
}
