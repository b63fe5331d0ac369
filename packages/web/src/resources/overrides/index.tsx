import type { ReactNode } from 'react';
import { getResource, readPrivilege } from '@ev/core';
import type { Permissions } from '../../app/session.tsx';
import { ResourceList } from '../list/ResourceList.tsx';
import type { RecordData } from '../use-record.ts';
import { ZoneAssignment } from './ZoneAssignment.tsx';

export interface ViewTab {
  key: string;
  /** i18n key of the tab title. */
  label: string;
  children: ReactNode;
}

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

/** Screens beyond the generic view, per resource key (DESIGN: overrides beside the engine, never a copy of it). */
export function viewTabs(key: string, record: RecordData, perms: Permissions): ViewTab[] {
  switch (key) {
    case 'users':
      return userLogTab(String(record.username ?? ''), perms);
    case 'cp_zones':
      return perms.has(readPrivilege('cps'))
        ? [{ key: 'assignment', label: 'ui.zone.assignment', children: <ZoneAssignment zone={record} /> }]
        : [];
    default:
      return [];
  }
}
