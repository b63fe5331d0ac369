import type { ResourceHooks } from './types.ts';

/** The bay log: the engine's cre_dttm shown under the spec's creDttm. */
export const hooks: ResourceHooks = {
  virtualColumns: { creDttm: 't.cre_dttm' },
};
