import { lazy, Suspense } from 'react';
import { Spin } from 'antd';
import { P, type ResourceDef } from '@ev/core';
import type { Permissions } from '../../app/session.tsx';
import { CloseSessionButton } from '../../screens/session/CloseSessionButton.tsx';
import type { RecordData } from '../use-record.ts';
import type { RowActionsContext } from './types.ts';

/** Lazily: ECharts comes with the pop-view's chunk, only when a session's pop-view is opened. */
const SessionPopView = lazy(() => import('../../screens/session/SessionPopView.tsx'));

/** Session pop-view (spec part 1 §2): summary, chart and table of the session's meter readings. */
export const popView = (record: RecordData, _perms: Permissions, def: ResourceDef) => (
  <Suspense fallback={<Spin />}>
    <SessionPopView def={def} record={record} />
  </Suspense>
);

/** A running session may be closed by hand (EDIT_CLOSE_SESSION): one the charger never stopped. */
export const rowActions = ({ def, row, perms, reload }: RowActionsContext) =>
  perms.has(P.CLOSE_SESSION) && !row.session_end_time ? (
    <CloseSessionButton listKey={def.key} sessionId={Number(row.session_id)} unconfirmed={Boolean(row.unconfirmed)} onDone={reload} />
  ) : null;
