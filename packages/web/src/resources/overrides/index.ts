import type { ReactNode } from 'react';
import type { ResourceDef } from '@ev/core';
import type { Permissions } from '../../app/session.tsx';
import type { RecordData } from '../use-record.ts';
import type { ListActionsContext, ResourceOverride, RowActionsContext, ViewTab } from './types.ts';

export type { ListActionsContext, RowActionsContext, ViewTab } from './types.ts';

/** Every overrides/<key>.tsx beside this file, by key: adding the file is all it takes. */
const OVERRIDES = new Map(
  Object.entries(import.meta.glob<ResourceOverride>('./*.tsx', { eager: true })).map(([path, mod]) => [path.slice(2, -'.tsx'.length), mod]),
);

/** Screens beyond the generic view of a resource (DESIGN: overrides beside the engine, never a copy of it). */
export function viewTabs(key: string, record: RecordData, perms: Permissions): ViewTab[] {
  return OVERRIDES.get(key)?.viewTabs?.(record, perms) ?? [];
}

/** What the resource's override shows above a record's view (nothing for most resources). */
export function viewNotice(key: string, record: RecordData, perms: Permissions): ReactNode {
  return OVERRIDES.get(key)?.viewNotice?.(record, perms) ?? null;
}

/** The pop-view body a resource's override provides, undefined for the generic record details. */
export function popView(def: ResourceDef, record: RecordData, perms: Permissions): ReactNode | undefined {
  return OVERRIDES.get(def.key)?.popView?.(record, perms, def);
}

/** The list header buttons a resource's override provides (nothing for most resources). */
export function listActions(ctx: ListActionsContext): ReactNode {
  return OVERRIDES.get(ctx.def.key)?.listActions?.(ctx) ?? null;
}

/** A row's own buttons from the resource's override (nothing for most resources). */
export function rowActions(ctx: RowActionsContext): ReactNode {
  return OVERRIDES.get(ctx.def.key)?.rowActions?.(ctx) ?? null;
}

/** Whether the resource's override adds row buttons (the list then has an actions column). */
export const hasRowActions = (key: string): boolean => Boolean(OVERRIDES.get(key)?.rowActions);
