import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { Menu, type MenuProps } from 'antd';
import { AppstoreOutlined, DashboardOutlined, SettingOutlined, ThunderboltOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { MenuGroup } from '@ev/core';
import { useLabels } from '../labels.ts';
import { usePermissions } from '../session.tsx';
import { visibleMenu } from './menu-items.ts';
import { loadJson, saveJson } from './storage.ts';

const GROUP_ICONS: Record<MenuGroup, ReactNode> = {
  operation: <DashboardOutlined />,
  management: <AppstoreOutlined />,
  setting: <SettingOutlined />,
  lms: <ThunderboltOutlined />,
};
const OPEN_KEY = 'sidebar.open';

/** The menu key the current path belongs to: the longest key the path starts with. */
function selectedKey(pathname: string, keys: string[]): string | undefined {
  return keys
    .filter((k) => pathname === `/${k}` || pathname.startsWith(`/${k}/`))
    .sort((a, b) => b.length - a.length)[0];
}

export function Sidebar({ collapsed }: { collapsed: boolean }) {
  const { t } = useTranslation();
  const { resourceName } = useLabels();
  const perms = usePermissions();
  const { pathname } = useLocation();
  const [openKeys, setOpenKeys] = useState<string[]>(() => loadJson(OPEN_KEY, ['group:management']));

  const groups = useMemo(() => visibleMenu(perms), [perms]);
  const items: MenuProps['items'] = groups.map((g) => ({
    key: `group:${g.group}`,
    icon: GROUP_ICONS[g.group],
    label: t(`ui.menu.groups.${g.group}`),
    children: g.items.map((key) => ({ key, label: <Link to={`/${key}`}>{resourceName(key)}</Link> })),
  }));
  const selected = selectedKey(pathname, groups.flatMap((g) => g.items));
  const selectedGroup = groups.find((g) => g.items.includes(selected!))?.group;

  // Opening a page (a link, a restored URL) opens its group so the current item is visible.
  useEffect(() => {
    if (!selectedGroup) return;
    setOpenKeys((keys) => {
      const key = `group:${selectedGroup}`;
      if (keys.includes(key)) return keys;
      const next = [...keys, key];
      saveJson(OPEN_KEY, next);
      return next;
    });
  }, [selectedGroup]);

  return (
    <Menu
      mode="inline"
      theme="dark"
      items={items}
      selectedKeys={selected ? [selected] : []}
      // antd ignores openKeys while collapsed (popup submenus); the saved set is kept for when it reopens.
      {...(collapsed ? {} : { openKeys })}
      onOpenChange={(keys) => {
        setOpenKeys(keys);
        saveJson(OPEN_KEY, keys);
      }}
    />
  );
}
