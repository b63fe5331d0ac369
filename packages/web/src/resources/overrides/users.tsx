import { getResource } from '@ev/core';
import type { Permissions } from '../../app/session.tsx';
import { ResourceList } from '../list/ResourceList.tsx';
import type { RecordData } from '../use-record.ts';
import type { ViewTab } from './types.ts';

/** A user's log: the generic user_log list filtered by username (users view, own profile). */
export function userLogTab(username: string, perms: Permissions): ViewTab[] {
  const def = getResource('user_log');
  if (!def || !perms.canRead(def) || !username) return [];
  return [
    {
      key: 'user_log',
      label: 'ui.view.userLog',
      children: <ResourceList def={def} fixedFilters={{ username }} embedded />,
    },
  ];
}

export const viewTabs = (record: RecordData, perms: Permissions): ViewTab[] => userLogTab(String(record.username ?? ''), perms);
