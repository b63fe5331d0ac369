import type { ResourceDef } from '../resource.ts';
import { labels } from './labels.ts';
import { sessionBase, sessionColumns, sessionFields } from './cp_sessions.ts';

/**
 * Fleet (KMB) view of the same table: only the sessions of fleet accounts, i.e. those with an
 * account (cp_sessions.account_id not null; the server's resources/hooks/kmb_cp_sessions.ts),
 * account and meter columns shown, newest start first. It has no menu entry of its own (spec part
 * 1 §2); one fleet account is picked with the account_id column filter.
 */
export const kmb_cp_sessions: ResourceDef = {
  ...sessionBase,
  key: 'kmb_cp_sessions',
  labels: labels(['KMB Charging Sessions', '九巴充電記錄'], sessionFields),
  columns: sessionColumns(true),
  defaultSort: { field: 'session_start_time', order: 'desc' },
};
