import type { TFunction } from 'i18next';

/**
 * A configuration setting's name and a Selection choice as the portal shows them (core i18n ui-cp-config.ts).
 * config_json keeps the spec's English; a vendor's own name or choice, not in the catalogue, shows as stored.
 */
export const settingName = (t: TFunction, name: string): string => t(`ui.configSetting.${name}`, { defaultValue: name });
export const optionLabel = (t: TFunction, choice: string | number): string => t(`ui.configOption.${choice}`, { defaultValue: String(choice) });
