import type { Catalog, Lang } from './types.ts';
import { RESOURCES } from '../resources/index.ts';
import { UI } from './ui.ts';
import { MESSAGES } from './messages.ts';
import { LOG_TEXTS } from './stored-text.ts';
import { CHARGER_CREDENTIALS_UI } from './ui-charger-credentials.ts';
import { CHARGING_PROFILES_UI } from './ui-charging-profiles.ts';
import { CONFIG_FLEET_UI } from './ui-config-fleet.ts';
import { LOCAL_LIST_UI } from './ui-local-list.ts';
import { FIRMWARE_UI } from './ui-firmware.ts';
import { DEVICE_MODEL_UI } from './ui-device-model.ts';

export * from './types.ts';
export * from './stored-text.ts';
export * from './local-name.ts';
export * from './sign-in.ts';
export { CHARGER_PASSWORD_LENGTH } from './ui-charger-credentials.ts';

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
    en: { translation: { ui: { ...UI.en, ...CHARGER_CREDENTIALS_UI.en, ...CHARGING_PROFILES_UI.en, ...CONFIG_FLEET_UI.en, ...LOCAL_LIST_UI.en, ...FIRMWARE_UI.en, ...DEVICE_MODEL_UI.en }, msg: { ...MESSAGES.en, log: LOG_TEXTS.en }, resources: resources('en') } as Catalog },
    'zh-TW': { translation: { ui: { ...UI['zh-TW'], ...CHARGER_CREDENTIALS_UI['zh-TW'], ...CHARGING_PROFILES_UI['zh-TW'], ...CONFIG_FLEET_UI['zh-TW'], ...LOCAL_LIST_UI['zh-TW'], ...FIRMWARE_UI['zh-TW'], ...DEVICE_MODEL_UI['zh-TW'] }, msg: { ...MESSAGES['zh-TW'], log: LOG_TEXTS['zh-TW'] }, resources: resources('zh-TW') } as Catalog },
  };
}
