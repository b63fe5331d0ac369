import type { ResourceHooks } from './types.ts';

/** An audit row's record before and after, with the resource it concerns: the view shows what changed (display 'changes'). */
export const hooks: ResourceHooks = {
  virtualColumns: {
    changes: `jsonb_build_object('target', t.target, 'old', t.old_data, 'new', t.new_data)`,
  },
};
