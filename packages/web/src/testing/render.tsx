import type { ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { App } from 'antd';
import { allPrivilegeNames, buildCatalogs, type MeResponse } from '@ev/core';
import { MeContext } from '../app/session.tsx';

/**
 * A screen rendered to HTML as the signed-in portal would show it (tests only): the catalogues
 * built from the definitions registered now, a user holding `privileges` (all by default).
 * Nothing is fetched: lists show their columns, forms their fields; a test puts answers in `queries` beforehand.
 */
export async function renderScreen(
  lang: 'en' | 'zh-TW', screen: ReactNode, privileges: string[] = allPrivilegeNames(), queries = new QueryClient(),
): Promise<string> {
  const i18n = i18next.createInstance();
  await i18n.use(initReactI18next).init({
    resources: buildCatalogs(), lng: lang, fallbackLng: 'en', interpolation: { escapeValue: false }, showSupportNotice: false,
  });
  const me: MeResponse = { id: 1, name: 'Admin', username: 'admin', max_role_level: 100, role: 'super_admin', roles: ['super_admin'], home_screen: 'CpList', privileges };
  return renderToString(
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queries}>
        <MemoryRouter>
          <MeContext.Provider value={me}>
            <App>{screen}</App>
          </MeContext.Provider>
        </MemoryRouter>
      </QueryClientProvider>
    </I18nextProvider>,
  );
}
