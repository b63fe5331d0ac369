import { editPrivilege } from '@ev/core';
import type { Permissions } from '../../app/session.tsx';
import { lazyPart } from '../../app/lazy-part.tsx';
import type { RecordData } from '../use-record.ts';
import type { ViewTab } from './types.ts';

const ZoneEntriesTab = lazyPart(() => import('../../screens/lms-profile/ZoneEntriesTab.tsx').then((m) => m.ZoneEntriesTab));

/** An LMS profile's zone entries (spec part 1 §2: "The LMS profile screen has per-zone entries"). */
export const viewTabs = (record: RecordData, perms: Permissions): ViewTab[] => [
  {
    key: 'zones',
    label: 'ui.lmsProfile.zones',
    children: <ZoneEntriesTab profileId={Number(record.lms_profile_id)} canEdit={perms.has(editPrivilege('lms_profiles'))} />,
  },
];
