import { describe, expect, it } from 'vitest';
import { buildCatalogs, ERROR_CODES, getResource, MENU, type Catalog } from '@ev/core';

const catalogs = buildCatalogs();
const part = (name: 'ui' | 'msg') => ({
  en: catalogs.en.translation[name] as Catalog,
  'zh-TW': catalogs['zh-TW'].translation[name] as Catalog,
});
const UI = part('ui');
const MESSAGES = part('msg');

function keys(catalog: Catalog, prefix = ''): string[] {
  return Object.entries(catalog).flatMap(([k, v]) => (typeof v === 'string' ? [prefix + k] : keys(v, `${prefix}${k}.`)));
}

describe('portal catalogs', () => {
  it('screen texts and messages have the same keys in English and Traditional Chinese', () => {
    expect(keys(UI['zh-TW']).sort()).toEqual(keys(UI.en).sort());
    expect(keys(MESSAGES['zh-TW']).sort()).toEqual(keys(MESSAGES.en).sort());
  });

  it('every numeric business code has a text in both languages', () => {
    for (const code of Object.values(ERROR_CODES)) {
      expect((MESSAGES.en.error as Catalog)[String(code)], `en ${code}`).toBeTruthy();
      expect((MESSAGES['zh-TW'].error as Catalog)[String(code)], `zh-TW ${code}`).toBeTruthy();
    }
  });

  it('every menu item has a name', () => {
    const menuNames = UI.en.menu as Catalog;
    for (const key of MENU.flatMap((g) => g.items)) {
      expect(getResource(key)?.labels.en.name ?? menuNames[key], key).toBeTruthy();
    }
  });
});
