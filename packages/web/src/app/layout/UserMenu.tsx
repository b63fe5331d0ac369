import { useNavigate } from 'react-router';
import { App, Avatar, Dropdown, Space, type MenuProps } from 'antd';
import { GlobalOutlined, LogoutOutlined, UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { LANGS, type Lang } from '@ev/core';
import { useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import { clearToken } from '../../api/token.ts';
import { currentLanguage, setLanguage } from '../i18n.ts';
import { useMe } from '../session.tsx';

export function UserMenu() {
  const { t } = useTranslation();
  const me = useMe();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { modal } = App.useApp();

  const logout = () =>
    modal.confirm({
      title: t('msg.confirmLogout'),
      okText: t('ui.common.confirm'),
      cancelText: t('ui.common.cancel'),
      onOk: async () => {
        // Leave even when the server cannot be reached: the token is dropped locally either way.
        await api.post('/logout').catch(() => undefined);
        clearToken();
        queryClient.clear();
        void navigate('/login', { replace: true });
      },
    });

  const lang = currentLanguage();
  const items: MenuProps['items'] = [
    { key: 'profile', icon: <UserOutlined />, label: t('ui.user.profile'), onClick: () => void navigate('/user/profile') },
    {
      key: 'lang',
      icon: <GlobalOutlined />,
      label: t('ui.user.language'),
      children: LANGS.map((l: Lang) => ({
        key: `lang:${l}`,
        label: t(`ui.languages.${l}`),
        disabled: l === lang,
        onClick: () => setLanguage(l),
      })),
    },
    { type: 'divider' },
    { key: 'logout', icon: <LogoutOutlined />, danger: true, label: t('ui.user.logout'), onClick: logout },
  ];

  return (
    <Dropdown menu={{ items }} trigger={['click']} placement="bottomRight">
      <Space style={{ cursor: 'pointer' }} data-testid="user-menu">
        <Avatar size="small" icon={<UserOutlined />} style={{ backgroundColor: '#0f7b6c' }} />
        <span>{me.name || me.username}</span>
      </Space>
    </Dropdown>
  );
}
