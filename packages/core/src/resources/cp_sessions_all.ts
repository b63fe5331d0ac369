import type { ResourceDef } from '../resource.ts';
import { labels } from './labels.ts';
import { sessionBase, sessionColumns, sessionFields } from './cp_sessions.ts';

/**
 * Every column, sorted by when the session started rather than when it was recorded: sessions a
 * charger queued offline arrive late and belong where they happened in time (audits, exports).
 */
export const cp_sessions_all: ResourceDef = {
  ...sessionBase,
  key: 'cp_sessions_all',
  labels: labels(['All Charging Sessions', '所有充電記錄'], sessionFields),
  columns: sessionColumns(true),
  defaultSort: { field: 'session_start_time', order: 'desc' },
};
