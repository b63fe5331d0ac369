import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-tw';
import { LANGS, signInCatalogs, type Lang } from '@ev/core';

const KEY = 'lang';

function storedLanguage(): Lang {
  const stored = localStorage.getItem(KEY);
  return LANGS.includes(stored as Lang) ? (stored as Lang) : 'en';
}

function applyLanguage(lang: Lang) {
  document.documentElement.lang = lang;
  dayjs.locale(lang === 'zh-TW' ? 'zh-tw' : 'en');
}

const initial = storedLanguage();
// The sign-in page's texts only: the signed-in shell adds the rest (all-texts.ts), so sign-in loads little.
void i18n.use(initReactI18next).init({
  resources: signInCatalogs(),
  lng: initial,
  fallbackLng: 'en',
  interpolation: { escapeValue: false },
  showSupportNotice: false, // i18next's advertisement in the operator's browser console
});
applyLanguage(initial);

export function setLanguage(lang: Lang) {
  localStorage.setItem(KEY, lang);
  applyLanguage(lang);
  void i18n.changeLanguage(lang);
}

export function currentLanguage(): Lang {
  return LANGS.includes(i18n.language as Lang) ? (i18n.language as Lang) : 'en';
}

export { i18n };
