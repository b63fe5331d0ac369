import { lazy, Suspense } from 'react';
import { Spin } from 'antd';
import type { ResourceDef } from '@ev/core';
import type { Permissions } from '../../app/session.tsx';
import type { RecordData } from '../use-record.ts';

/** Lazily: ECharts comes with the pop-view's chunk, only when a session's pop-view is opened. */
const SessionPopView = lazy(() => import('../../screens/session/SessionPopView.tsx'));

/** Session pop-view (spec part 1 §2): summary, chart and table of the session's meter readings. */
export const popView = (record: RecordData, _perms: Permissions, def: ResourceDef) => (
  <Suspense fallback={<Spin />}>
    <SessionPopView def={def} record={record} />
  </Suspense>
);
