export type Lang = 'en' | 'zh-TW';
export const LANGS: Lang[] = ['en', 'zh-TW'];

/** Labels of one resource: its name and a label per column / field, in both languages. */
export interface ResourceLabels {
  en: { name: string; fields: Record<string, string> };
  'zh-TW': { name: string; fields: Record<string, string> };
}

/** A flat or nested catalog of UI texts; both languages must have the same keys. */
export type Catalog = { [key: string]: string | Catalog };
