import { Card, Descriptions, Tabs } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { getResource } from '@ev/core';
import { useMe, usePermissions } from '../app/session.tsx';
import { ResourceForm } from '../resources/form/ResourceForm.tsx';
import { userLogTab } from '../resources/overrides/users.tsx';

/** Own profile: name, email and password through /api/user_profile, and one's own user log. */
export default function ProfilePage() {
  const { t } = useTranslation();
  const me = useMe();
  const perms = usePermissions();
  const queryClient = useQueryClient();
  const def = getResource('user_profile')!;
  const profile = (
    <>
      <Descriptions
        size="small"
        column={{ xs: 1, md: 2 }}
        style={{ marginBottom: 24, maxWidth: 960 }}
        items={[
          { key: 'username', label: t('ui.profile.username'), children: me.username },
          { key: 'role', label: t('ui.profile.role'), children: me.role },
        ]}
      />
      <ResourceForm def={def} mode="edit" path="/user_profile" onSaved={() => void queryClient.invalidateQueries({ queryKey: ['me'] })} />
    </>
  );
  const tabs = userLogTab(me.id, perms);
  return (
    <Card title={t('ui.user.profile')}>
      <Tabs
        items={[
          { key: 'profile', label: t('ui.profile.tab'), children: profile },
          ...tabs.map((tab) => ({ ...tab, label: t(tab.label) })),
        ]}
      />
    </Card>
  );
}
