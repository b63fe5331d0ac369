import { useState } from 'react';
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { Alert, App, Button, Card, DatePicker, Form, Input, Modal, Select, Table, Tag, Tooltip } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { createPrivilege, editPrivilege, ERROR_CODES, getResource, OPEN_RESERVATION_STATUSES, P, type ActionResult, type ReservationStatus } from '@ev/core';
import { api, ApiError } from '../../api/client.ts';
import { codeText, errorText } from '../../api/errors.ts';
import { usePermissions } from '../../app/session.tsx';
import { useLabels } from '../../app/labels.ts';
import { useRecord } from '../../resources/use-record.ts';
import { fieldErrorText, isValidationBody } from '../../resources/form/server-errors.ts';

/** A reservation as GET /reservations lists it (dates in the portal's time zone). */
interface Reservation {
  reservation_id: number;
  connector_id: number;
  id_tag: string;
  expiry_dttm: string;
  status: ReservationStatus;
  answer: string | null;
  created_by: string | null;
  session_id: number | null;
}
interface ReserveForm {
  connector_id: number;
  id_tag: string;
  parent_id_tag?: string;
  expiry: Dayjs;
}

const COLOURS: Partial<Record<ReservationStatus, string>> = { Pending: 'processing', Accepted: 'blue', Used: 'green', Cancelled: 'default', Expired: 'default' };
const isOpen = (r: Reservation) => OPEN_RESERVATION_STATUSES.includes(r.status);

/**
 * Charger view, Reservations tab (issue 29): the charger's reservations, newest first; Reserve sends ReserveNow
 * (CREATE_RESERVATIONS) and shows the charger's answer as it gave it; Cancel, after a confirmation, sends
 * CancelReservation (EDIT_RESERVATIONS). Both need the charger connected.
 */
export default function ReservationsTab({ cpId }: { cpId: number }) {
  const { t, i18n } = useTranslation();
  const { message, modal } = App.useApp();
  const perms = usePermissions();
  const { fieldLabel } = useLabels();
  const [form] = Form.useForm<ReserveForm>();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [formError, setFormError] = useState<string[]>();
  const [initial, setInitial] = useState<Partial<ReserveForm>>();

  const charger = useRecord(getResource('cps')!, cpId, undefined, true) as UseQueryResult<{ online_flag: number }>;
  const notConnected = charger.data && charger.data.online_flag !== 1 ? codeText(ERROR_CODES.CP_OFFLINE, t) : undefined;
  const list = useQuery({
    queryKey: ['list', 'reservations', 'charger', cpId],
    refetchInterval: 5_000,
    queryFn: () =>
      api
        .get<{ dataset: { content: Reservation[] } }>('/reservations', { cp_id: cpId, size: 50, sort_by: 'reservation_id', order: 'desc' })
        .then((r) => r.dataset.content),
  });
  const connectors = useQuery({
    queryKey: ['cp_connectors', 'reservations', cpId],
    enabled: perms.has(P.CP_CONNECTOR),
    queryFn: () =>
      api
        .get<{ dataset: { content: { cp_id: number; connector_id: number }[] } }>('/cp_connectors', { cp_id: cpId, size: 100, sort_by: 'connector_id', order: 'asc' }, { quiet403: true })
        .then((r) => r.dataset.content.filter((c) => c.cp_id === cpId && c.connector_id > 0).map((c) => c.connector_id)),
  });

  const reload = () => {
    void list.refetch();
    // The charger's StatusNotification (Reserved, Available) follows its answer.
    setTimeout(() => void list.refetch(), 1_500);
  };

  const submit = async (v: ReserveForm) => {
    setBusy(true);
    setFormError(undefined);
    try {
      const body = { cp_id: cpId, connector_id: v.connector_id, id_tag: v.id_tag, parent_id_tag: v.parent_id_tag || null, expiry_dttm: v.expiry.format() };
      const res = await api.post<ActionResult & { data?: { answer?: string } }>('/reservations', body);
      if (res.status === 'success') {
        void message.success(t('ui.reservations.accepted'));
        setOpen(false);
      } else if (res.data?.answer) {
        setFormError([t('ui.reservations.answered', { answer: res.data.answer })]);
      } else setFormError([codeText(res.errorCode, t)]);
      reload();
    } catch (err) {
      const body = err instanceof ApiError && err.status === 400 ? err.body : undefined;
      const fields = isValidationBody(body) ? Object.entries(body.fields ?? {}) : [];
      const exists = (k: string) => i18n.exists(k);
      setFormError(fields.length ? fields.map(([f, code]) => `${fieldLabel('reservations', f)}: ${fieldErrorText(String(code), t, exists)}`) : [errorText(err, t)]);
    } finally {
      setBusy(false);
    }
  };

  const cancel = (r: Reservation) =>
    modal.confirm({
      title: t('ui.reservations.confirmCancel', { id: r.reservation_id, idTag: r.id_tag }),
      okText: t('ui.common.confirm'),
      cancelText: t('ui.common.cancel'),
      onOk: async () => {
        try {
          const res = await api.post<ActionResult & { data?: { status?: string } }>(`/reservations/${r.reservation_id}/cancel`);
          if (res.status === 'success') void message.success(t('ui.reservations.cancelled'));
          else void message.error(res.data?.status ? `${codeText(res.errorCode, t)} (${res.data.status})` : codeText(res.errorCode, t));
        } catch (err) {
          void message.error(errorText(err, t));
        }
        reload();
      },
    });

  const openForm = () => {
    setInitial({ connector_id: 0, expiry: dayjs().add(30, 'minute').second(0) });
    setFormError(undefined);
    setOpen(true);
  };

  const reserveButton = perms.has(createPrivilege('reservations')) && (
    <Tooltip title={notConnected}>
      <Button type="primary" disabled={!!notConnected} onClick={openForm} data-testid="reserve-button">
        {t('ui.reservations.reserve')}
      </Button>
    </Tooltip>
  );
  const mayCancel = perms.has(editPrivilege('reservations'));
  const connectorText = (id: number) => (id === 0 ? t('ui.reservations.anyConnector') : String(id));

  return (
    <Card size="small" title={t('ui.reservations.title')} extra={reserveButton} data-testid="charger-reservations">
      <Table<Reservation>
        rowKey="reservation_id"
        size="small"
        loading={list.isPending}
        dataSource={list.data ?? []}
        pagination={false}
        locale={{ emptyText: t('ui.reservations.none') }}
        columns={[
          { title: 'ID', dataIndex: 'reservation_id' },
          { title: t('ui.reservations.connector'), dataIndex: 'connector_id', render: connectorText },
          { title: t('ui.reservations.idTag'), dataIndex: 'id_tag' },
          { title: t('ui.reservations.expiry'), dataIndex: 'expiry_dttm' },
          {
            title: t('ui.reservations.status'),
            dataIndex: 'status',
            render: (s: ReservationStatus) => <Tag color={COLOURS[s] ?? 'red'}>{t(`ui.reservations.statuses.${s}`)}</Tag>,
          },
          { title: t('ui.reservations.answer'), dataIndex: 'answer' },
          { title: t('ui.reservations.createdBy'), dataIndex: 'created_by' },
          { title: t('ui.reservations.session'), dataIndex: 'session_id' },
          {
            title: t('ui.reservations.actions'),
            key: 'actions',
            render: (_: unknown, r: Reservation) =>
              mayCancel && isOpen(r) ? (
                <Tooltip title={notConnected}>
                  <Button size="small" danger disabled={!!notConnected} onClick={() => cancel(r)}>
                    {t('ui.reservations.cancel')}
                  </Button>
                </Tooltip>
              ) : null,
          },
        ]}
      />
      <Modal
        open={open}
        title={t('ui.reservations.reserveTitle')}
        onCancel={() => setOpen(false)}
        okText={t('ui.reservations.send')}
        cancelText={t('ui.reservations.close')}
        okButtonProps={{ loading: busy, disabled: !!notConnected }}
        onOk={() => form.submit()}
        destroyOnHidden
      >
        <Form<ReserveForm> form={form} layout="vertical" initialValues={initial} onFinish={(v) => void submit(v)}>
          <Form.Item name="connector_id" label={t('ui.reservations.connector')} rules={[{ required: true }]}>
            <Select options={[0, ...(connectors.data ?? [1])].map((id) => ({ value: id, label: connectorText(id) }))} />
          </Form.Item>
          <Form.Item name="id_tag" label={t('ui.reservations.idTag')} extra={t('ui.reservations.idTagHint')} rules={[{ required: true, message: t('msg.form.required') }]}>
            <Input maxLength={20} />
          </Form.Item>
          <Form.Item name="parent_id_tag" label={t('ui.reservations.parentIdTag')} extra={t('ui.reservations.parentIdTagHint')}>
            <Input maxLength={20} />
          </Form.Item>
          <Form.Item name="expiry" label={t('ui.reservations.expiry')} rules={[{ required: true, message: t('msg.form.required') }]}>
            <DatePicker showTime format="YYYY-MM-DD HH:mm:ss" style={{ width: '100%' }} />
          </Form.Item>
        </Form>
        {formError && <Alert type="error" showIcon title={formError.join('; ')} data-testid="reserve-error" />}
      </Modal>
    </Card>
  );
}
