import { readPrivilege } from '@ev/core';
import type { Permissions } from '../../app/session.tsx';
import { lazyPart } from '../../app/lazy-part.tsx';
import type { RecordData } from '../use-record.ts';
import type { ViewTab } from './types.ts';

const ChargersTab = lazyPart(() => import('../../screens/charging-rate/ChargersTab.tsx').then((m) => m.ChargersTab));
const SlotsTab = lazyPart(() => import('../../screens/charging-rate/SlotsTab.tsx').then((m) => m.SlotsTab));

/** Charging rate view (spec part 2 §2): the price-detail editor (its time slots) and the charger grouping panel (the site's chargers). */
export const viewTabs = (record: RecordData, perms: Permissions): ViewTab[] => [
  ...(perms.has(readPrivilege('charging_rate_detail')) ? [{ key: 'slots', label: 'ui.rates.slotsTab', children: <SlotsTab rate={record} /> }] : []),
  ...(perms.has(readPrivilege('cps')) ? [{ key: 'chargers', label: 'ui.rates.chargersTab', children: <ChargersTab rate={record} /> }] : []),
];
