import { getResource } from '@ev/core';
import type { Permissions } from '../../app/session.tsx';
import { lazyPart } from '../../app/lazy-part.tsx';
import { TeslaLock } from '../../screens/parking/TeslaLock.tsx';
import type { RecordData } from '../use-record.ts';
import type { RowActionsContext, ViewTab } from './types.ts';

const BayEventsTab = lazyPart(() => import('../../screens/parking/BayEventsTab.tsx').then((m) => m.BayEventsTab));

/** Parking bays (spec part 2 §4): a bay's events, and a lock on Tesla bays (not edited here; the server refuses too). */
export const viewTabs = (record: RecordData, perms: Permissions): ViewTab[] => {
  const log = getResource('bay_log');
  if (!log || !perms.canRead(log)) return [];
  return [{ key: 'events', label: 'ui.parking.events', children: <BayEventsTab bayId={Number(record.id)} /> }];
};

export const rowActions = ({ row }: RowActionsContext) => (row.type === 'Tesla' ? <TeslaLock /> : null);
