import type { Catalog, Lang } from './types.ts';

/** Messages and error texts, including error.{code} for the numeric business codes. */
export const MESSAGES: Record<Lang, Catalog> = {
  en: {},
  'zh-TW': {},
};
