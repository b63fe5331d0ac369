import { MASKED_SECRET, secretForNewConf } from '../../third-party/secret.ts';
import type { ResourceHooks } from './types.ts';

/** Third-party keys: a secret is made at creation and kept hashed; lists and views show it masked. */
export const hooks: ResourceHooks = {
  virtualColumns: {
    api_key: `CASE WHEN t.api_key_hash IS NULL THEN NULL ELSE '${MASKED_SECRET}' END`,
  },

  async beforeWrite({ mode }, data) {
    return mode === 'create' ? { ...data, api_key_hash: await secretForNewConf() } : data;
  },
};
