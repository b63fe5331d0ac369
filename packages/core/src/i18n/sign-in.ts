import type { Catalog, Lang } from './types.ts';
import { MESSAGES } from './messages.ts';
import { SIGN_IN_UI } from './ui-sign-in.ts';

/**
 * The i18next resources the sign-in page needs (its texts and the messages), a small part of
 * buildCatalogs(): the portal starts with these and adds the whole catalogs with the signed-in shell.
 */
export function signInCatalogs(): Record<Lang, { translation: Catalog }> {
  return {
    en: { translation: { ui: SIGN_IN_UI.en, msg: MESSAGES.en } },
    'zh-TW': { translation: { ui: SIGN_IN_UI['zh-TW'], msg: MESSAGES['zh-TW'] } },
  };
}
