import type { ReactNode } from 'react';
import { App, ConfigProvider } from 'antd';
import enUS from 'antd/locale/en_US';
import zhTW from 'antd/locale/zh_TW';
import { useTranslation } from 'react-i18next';

/** antd's locale follows the i18next language; App gives message/modal hooks that see this context. */
export function AppProviders({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation();
  return (
    <ConfigProvider
      locale={i18n.language === 'zh-TW' ? zhTW : enUS}
      theme={{ token: { colorPrimary: '#0f7b6c', borderRadius: 6 } }}
    >
      <App>{children}</App>
    </ConfigProvider>
  );
}
