import { getResource } from '@ev/core';
import type { Permissions } from '../../app/session.tsx';
import { ResourceList } from '../list/ResourceList.tsx';
import type { RecordData } from '../use-record.ts';
import type { ViewTab } from './types.ts';

/**
 * A user's log: the generic user_log list of that user's id (users view, own profile); a username
 * filter would match a part of it (op1 would list op11's sign-ins).
 */
export function userLogTab(userId: number, perms: Permissions): ViewTab[] {
  const def = getResource('user_log');
  if (!def || !perms.canRead(def) || !(userId > 0)) return [];
  return [
    {
      key: 'user_log',
      label: 'ui.view.userLog',
      children: <ResourceList def={def} fixedFilters={{ user_id: userId }} embedded />,
    },
  ];
}

export const viewTabs = (record: RecordData, perms: Permissions): ViewTab[] => userLogTab(Number(record.id), perms);
