import type { Catalog, Lang } from './types.ts';

/** Screen texts of the portal (owned by the web package's screens). */
export const UI: Record<Lang, Catalog> = {
  en: {},
  'zh-TW': {},
};
