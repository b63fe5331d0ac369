import type { ReactNode } from 'react';
import type { Permissions } from '../../app/session.tsx';
import type { RecordData } from '../use-record.ts';

export interface ViewTab {
  key: string;
  /** i18n key of the tab title. */
  label: string;
  children: ReactNode;
}

/**
 * What a resource's override file (overrides/<key>.tsx, found by its name) adds to the generic
 * screens. Every member is optional; a resource without a file has the generic screens only.
 */
export interface ResourceOverride {
  /** Tabs after the details in the record's view and edit-and-view pages. */
  viewTabs?(record: RecordData, perms: Permissions): ViewTab[];
}
