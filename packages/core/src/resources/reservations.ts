import type { ResourceDef } from '../resource.ts';
import { col, dateCol, fld, idCol, intCol, intFld, selectCol, selectFld, textCol, textFld } from './build.ts';
import { COMMON_LABELS as C, labels } from './labels.ts';

/** What a reservation's status may be: Pending until the charger answers ReserveNow, its answer, then how an Accepted one ended. */
export const RESERVATION_STATUSES = ['Pending', 'Accepted', 'Faulted', 'Occupied', 'Rejected', 'Unavailable', 'Cancelled', 'Used', 'Expired'] as const;
export type ReservationStatus = (typeof RESERVATION_STATUSES)[number];
/** Statuses of a reservation that still holds its connector. */
export const OPEN_RESERVATION_STATUSES: readonly ReservationStatus[] = ['Pending', 'Accepted'];

/**
 * OCPP 1.6 reservations (issue 29): creating one sends ReserveNow (reservationId = the row id) and stores
 * the charger's answer (server reservations/); POST /api/reservations/{id}/cancel sends CancelReservation
 * (EDIT_RESERVATIONS). A StartTransaction with its reservationId marks it Used, its expiry Expired.
 * Records are not edited or deleted: they are the history of what was asked and answered.
 */
export const reservations: ResourceDef = {
  key: 'reservations',
  labels: labels(['Reservations', '充電預留'], {
    reservation_id: ['Reservation ID', '預留編號'],
    cp_id: ['Charger', '充電樁'],
    connector_id: ['Connector (0: any)', '充電槍（0：任一）'],
    id_tag: ['Card (idTag)', '卡號（idTag）'],
    parent_id_tag: ['Parent idTag', '上層 idTag'],
    expiry_dttm: ['Expires At', '到期時間'],
    status: ['Status', '狀態'],
    answer: ['Charger\'s Answer', '充電樁回覆'],
    created_by: ['Created By', '建立者'],
    session_id: C.session_id,
    ended_dttm: ['Ended At', '結束時間'],
    cre_dttm: C.cre_dttm,
    lupd_dttm: C.lupd_dttm,
  }),
  table: 'reservations',
  idField: 'reservation_id',
  titleField: 'id_tag',
  site: { cpColumn: 'cp_id' },
  columns: [
    idCol('reservation_id'),
    selectCol('cp_id', 'cps'),
    intCol('connector_id'),
    textCol('id_tag'),
    textCol('parent_id_tag', { hiddenInList: true }),
    dateCol('expiry_dttm'),
    col('status', 'enum', 'text', { sortable: true, filter: 'select', options: 'reservation_status' }),
    textCol('answer', { viewOnly: true }),
    textCol('created_by'),
    col('session_id', 'link', 'int', { sortable: true, linkTo: 'cp_sessions' }),
    dateCol('ended_dttm', { viewOnly: true }),
    dateCol('cre_dttm'),
    dateCol('lupd_dttm', { viewOnly: true }),
  ],
  fields: [
    selectFld('cp_id', 'cps', { required: true }),
    intFld('connector_id', { required: true, min: 0, max: 99, default: 0 }),
    // The card number a charger reads (OCPP CiString20); it must be a card accepted at the charger.
    textFld('id_tag', { required: true, maxLength: 20 }),
    textFld('parent_id_tag', { maxLength: 20 }),
    fld('expiry_dttm', 'datetime', 'timestamp', { required: true }),
  ],
  defaultSort: { field: 'reservation_id', order: 'desc' },
  actions: ['create', 'view', 'excel'],
};
