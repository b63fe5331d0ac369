import type { ReactNode } from 'react';
import { App, ConfigProvider } from 'antd';
import { StyleProvider } from '@ant-design/cssinjs';
import enUS from 'antd/locale/en_US';
import zhTW from 'antd/locale/zh_TW';
import { useTranslation } from 'react-i18next';
import { styleCache } from './style-cache.ts';

const THEME = { token: { colorPrimary: '#0f7b6c', borderRadius: 6 } };

/**
 * antd's locale follows the i18next language; App gives message/modal hooks that see this context; the styles antd
 * generates go to the cache kept between visits (style-cache.ts).
 */
export function AppProviders({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation();
  return (
    <StyleProvider cache={styleCache}>
      <ConfigProvider locale={i18n.language === 'zh-TW' ? zhTW : enUS} theme={THEME}>
        <App>{children}</App>
      </ConfigProvider>
    </StyleProvider>
  );
}
