import type { Catalog, Lang } from './types.ts';
import { RESOURCES } from '../resources/index.ts';
import { UI } from './ui.ts';
import { MESSAGES } from './messages.ts';
import { LOG_TEXTS } from './stored-text.ts';

export * from './types.ts';
export * from './stored-text.ts';
export * from './local-name.ts';

/**
 * The i18next resources of the portal: namespace "translation" holds
 *   ui.*        screen texts (ui.ts)
 *   msg.*       messages, error texts, error.{code} (messages.ts); msg.log.* texts the server stores (stored-text.ts)
 *   resources.<key>.name / resources.<key>.fields.<field>   (each definition's labels)
 */
export function buildCatalogs(): Record<Lang, { translation: Catalog }> {
  const resources = (lang: Lang) =>
    Object.fromEntries(Object.values(RESOURCES).map((d) => [d.key, d.labels[lang]]));
  return {
    en: { translation: { ui: UI.en, msg: { ...MESSAGES.en, log: LOG_TEXTS.en }, resources: resources('en') } as Catalog },
    'zh-TW': { translation: { ui: UI['zh-TW'], msg: { ...MESSAGES['zh-TW'], log: LOG_TEXTS['zh-TW'] }, resources: resources('zh-TW') } as Catalog },
  };
}
