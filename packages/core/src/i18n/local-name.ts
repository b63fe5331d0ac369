import type { Lang } from './types.ts';

/**
 * A name people wrote in both languages (a zone's name and name_chi, a charger's, a site's address) in the
 * reader's language; where that one is blank, the other one, as option lists label records on the server.
 */
export function localName(lang: Lang, en: string | null | undefined, zh: string | null | undefined): string {
  const [first, other] = lang === 'zh-TW' ? [zh, en] : [en, zh];
  return first?.trim() ? first : (other ?? '');
}
