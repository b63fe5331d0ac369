import { buildCatalogs, LANGS } from '@ev/core';
import { i18n } from './i18n.ts';

// Every text of the portal, added once this module (part of the signed-in shell's code) is loaded:
// the sign-in page starts with its own texts only (i18n.ts).
const catalogs = buildCatalogs();
for (const lang of LANGS) i18n.addResourceBundle(lang, 'translation', catalogs[lang].translation, true, true);
