import { readPrivilege } from '@ev/core';
import type { Permissions } from '../../app/session.tsx';
import { lazyPart } from '../../app/lazy-part.tsx';
import type { RecordData } from '../use-record.ts';
import type { ViewTab } from './types.ts';

const ChargersTab = lazyPart(() => import('../../screens/opening-hours/ChargersTab.tsx').then((m) => m.ChargersTab));
const DaysTab = lazyPart(() => import('../../screens/opening-hours/DaysTab.tsx').then((m) => m.DaysTab));

/** Opening hour view: its weekdays and dates, and the chargers it applies to (those the user may read). */
export const viewTabs = (record: RecordData, perms: Permissions): ViewTab[] => [
  { key: 'days', label: 'ui.openingHours.daysTab', children: <DaysTab record={record} /> },
  ...(perms.has(readPrivilege('cps')) ? [{ key: 'chargers', label: 'ui.openingHours.chargersTab', children: <ChargersTab record={record} /> }] : []),
];
