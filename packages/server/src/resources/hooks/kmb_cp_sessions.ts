import type { ResourceHooks } from './types.ts';
import { hooks as sessionHooks } from './cp_sessions.ts';

/**
 * The fleet (KMB) view of the sessions: only those of fleet accounts, i.e. sessions started with a
 * card that belongs to an account (cp_sessions.account_id set). Lists, counts, exports and the
 * view of one record all carry this condition.
 */
export const hooks: ResourceHooks = {
  ...sessionHooks,
  visibleTo: () => 't.account_id IS NOT NULL',
};
