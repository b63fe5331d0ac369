import type { Key, ReactNode } from 'react';
import type { ResourceDef } from '@ev/core';
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
/** What the list tells a resource's header actions: its row selection (ids as row keys). */
export interface ListActionsContext {
  def: ResourceDef;
  perms: Permissions;
  selected: Key[];
  clearSelection(): void;
  reload(): void;
}

/** What a row's own buttons know: the row as listed, and how to reload the list after acting on it. */
export interface RowActionsContext {
  def: ResourceDef;
  row: Record<string, unknown>;
  perms: Permissions;
  reload(): void;
}

export interface ResourceOverride {
  /** Tabs after the details in the record's view and edit-and-view pages. */
  viewTabs?(record: RecordData, perms: Permissions): ViewTab[];
  /** Above the record's view, something that needs attention (a charger's unconfirmed sessions). */
  viewNotice?(record: RecordData, perms: Permissions): ReactNode;
  /**
   * The body of the list's pop-view (row action popView) in place of the generic record details;
   * `def` is the list's definition (several lists may share one pop-view by re-exporting it).
   */
  popView?(record: RecordData, perms: Permissions, def: ResourceDef): ReactNode;
  /** Buttons in the list's header, before the generic ones (e.g. acting on the selected rows). */
  listActions?(ctx: ListActionsContext): ReactNode;
  /** Buttons of one list row, after the generic ones (e.g. a payment's Retry). */
  rowActions?(ctx: RowActionsContext): ReactNode;
}
