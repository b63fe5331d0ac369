import { editPrivilege } from '@ev/core';
import type { Permissions } from '../../app/session.tsx';
import { lazyPart } from '../../app/lazy-part.tsx';
import type { RecordData } from '../use-record.ts';
import type { ViewTab } from './types.ts';

const SessionsTab = lazyPart(() => import('../../screens/price-scheme/SessionsTab.tsx').then((m) => m.SessionsTab));

/** A price scheme's sessions (spec part 2 §4: Fixed computes sessions 2..n, read-only). */
export const viewTabs = (record: RecordData, perms: Permissions): ViewTab[] => [
  {
    key: 'sessions',
    label: 'ui.priceScheme.sessions',
    children: <SessionsTab schemeId={Number(record.id)} type={String(record.type)} canEdit={perms.has(editPrivilege('price_scheme'))} />,
  },
];
