import type { ResourceHooks } from './types.ts';
import { hooks as sessionHooks } from './cp_sessions.ts';

/** Every session, every column: the same table and filters as cp_sessions. */
export const hooks: ResourceHooks = { ...sessionHooks };
