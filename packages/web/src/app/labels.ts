import { useTranslation } from 'react-i18next';

/** 'cp_no' → 'Cp no': shown until a label is written in the resource catalogs. */
export function humanize(name: string): string {
  const words = name.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[_/]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Names of resources, menu-only pages and fields, with a readable fallback for missing catalog entries. */
export function useLabels() {
  const { t, i18n } = useTranslation();
  const resourceName = (key: string) => {
    if (i18n.exists(`resources.${key}.name`)) return t(`resources.${key}.name`);
    if (i18n.exists(`ui.menu.${key}`)) return t(`ui.menu.${key}`);
    return humanize(key);
  };
  const fieldLabel = (key: string, field: string) => t(`resources.${key}.fields.${field}`, { defaultValue: humanize(field) });
  /**
   * A key inside the JSON value of `field`: the resource's own label of that name, else the label
   * in the resource the field is named after (cps.cp_connectors holds cp_connectors rows), else humanized.
   */
  const jsonKeyLabel = (key: string, field: string, name: string) => {
    for (const owner of [key, field]) if (i18n.exists(`resources.${owner}.fields.${name}`)) return t(`resources.${owner}.fields.${name}`);
    return humanize(name);
  };
  return { resourceName, fieldLabel, jsonKeyLabel };
}
