import { Suspense, useState } from 'react';
import { Link, Outlet } from 'react-router';
import { Button, Layout, Spin, theme } from 'antd';
import { MenuFoldOutlined, MenuUnfoldOutlined, ThunderboltFilled } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Sidebar } from './Sidebar.tsx';
import { UserMenu } from './UserMenu.tsx';
import { loadJson, saveJson } from './storage.ts';

const COLLAPSED_KEY = 'sidebar.collapsed';

export default function MainLayout() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const [collapsed, setCollapsed] = useState<boolean>(() => loadJson(COLLAPSED_KEY, false));
  const toggle = () => {
    setCollapsed(!collapsed);
    saveJson(COLLAPSED_KEY, !collapsed);
  };

  return (
    <Layout style={{ minHeight: '100vh' }}>
      <Layout.Sider
        collapsible
        collapsed={collapsed}
        trigger={null}
        width={232}
        style={{ overflow: 'auto', height: '100vh', position: 'sticky', top: 0 }}
      >
        <Link to="/" style={{ display: 'flex', alignItems: 'center', gap: 8, height: 56, padding: '0 24px', color: '#fff' }}>
          <ThunderboltFilled style={{ fontSize: 20, color: '#3fd0b8' }} />
          {!collapsed && <strong style={{ whiteSpace: 'nowrap' }}>{t('ui.app.shortTitle')}</strong>}
        </Link>
        <Sidebar collapsed={collapsed} />
      </Layout.Sider>
      <Layout>
        <Layout.Header
          style={{
            background: token.colorBgContainer,
            padding: '0 16px',
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'space-between',
            borderBottom: `1px solid ${token.colorBorderSecondary}`,
          }}
        >
          <Button
            type="text"
            aria-label={t('ui.layout.toggleMenu')}
            icon={collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
            onClick={toggle}
          />
          <UserMenu />
        </Layout.Header>
        <Layout.Content style={{ padding: 16 }}>
          <Suspense fallback={<Spin style={{ display: 'block', margin: 48 }} />}>
            <Outlet />
          </Suspense>
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
