import { useEffect, useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Card, Checkbox, Input, Select, Space, Spin, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { editPrivilege, readPrivilege, SUPER_ADMIN_ROLE } from '@ev/core';
import { api } from '../../api/client.ts';
import { codeText, errorText } from '../../api/errors.ts';
import { useLabels } from '../../app/labels.ts';
import { useMe, usePermissions } from '../../app/session.tsx';
import { buildMatrix, columnPrivileges, type MatrixRow } from './matrix.ts';

interface RnpResponse {
  roles: { id: number; role: string; name_chi: string; level: number }[];
  privileges: { id: number; name: string }[];
  rolePrivileges: Record<string, string[]>;
}

type Column = 'read' | 'create' | 'edit' | 'other';

/** /rnp: pick a role, tick its privileges in the resource matrix, save after confirmation. */
export default function RnpPage() {
  const { t, i18n } = useTranslation();
  const { message, modal } = App.useApp();
  const { resourceName } = useLabels();
  const perms = usePermissions();
  const me = useMe();
  const rnp = useQuery({ queryKey: ['rnp'], queryFn: () => api.get<RnpResponse>('/rnp'), enabled: perms.has(readPrivilege('rnp')) });
  const [roleId, setRoleId] = useState<number>();
  const [checked, setChecked] = useState<Set<string>>(new Set());
  const [search, setSearch] = useState('');
  const [saving, setSaving] = useState(false);

  const rows = useMemo(() => buildMatrix((rnp.data?.privileges ?? []).map((p) => p.name)), [rnp.data]);
  const stored = useMemo(() => new Set(roleId === undefined ? [] : (rnp.data?.rolePrivileges[String(roleId)] ?? [])), [rnp.data, roleId]);
  useEffect(() => {
    if (roleId === undefined && rnp.data?.roles.length) setRoleId(rnp.data.roles[0].id);
  }, [rnp.data, roleId]);
  useEffect(() => setChecked(new Set(stored)), [stored]);

  if (!perms.has(readPrivilege('rnp'))) return <Alert type="error" showIcon title={t('ui.error.noPermission')} />;
  if (rnp.isPending) return <Spin style={{ display: 'block', margin: 48 }} />;
  if (rnp.isError) return <Alert type="error" showIcon title={errorText(rnp.error, t)} />;

  // The server refuses (403, which signs out) changes to super_admin, to roles above one's own level, and grants
  // or withdrawals of privileges one does not hold; the matrix does not offer them.
  const role = rnp.data.roles.find((r) => r.id === roleId);
  const canEdit =
    perms.has(editPrivilege('rnp')) && !!role && role.role !== SUPER_ADMIN_ROLE && role.level <= me.max_role_level;
  const changed = [...new Set([...checked, ...stored])].filter((p) => checked.has(p) !== stored.has(p)).length;
  const toggle = (names: string[], on: boolean) => {
    const next = new Set(checked);
    for (const n of names) if (on) next.add(n);
    else next.delete(n);
    setChecked(next);
  };
  const box = (name: string | undefined, label?: string) =>
    name ? (
      <Checkbox key={name} disabled={!canEdit || !perms.has(name)} checked={checked.has(name)} onChange={(e) => toggle([name], e.target.checked)}>
        {label}
      </Checkbox>
    ) : null;
  const rowName = (r: MatrixRow) => (r.key ? resourceName(r.key) : t('ui.rnp.general'));
  const shown = rows.filter((r) => `${rowName(r)} ${r.key}`.toLowerCase().includes(search.toLowerCase()));
  const header = (column: Column, title: string) => {
    const names = columnPrivileges(shown, column).filter((n) => perms.has(n));
    const count = names.filter((n) => checked.has(n)).length;
    return (
      <Checkbox
        disabled={!canEdit || !names.length}
        checked={names.length > 0 && count === names.length}
        indeterminate={count > 0 && count < names.length}
        onChange={(e) => toggle(names, e.target.checked)}
      >
        {title}
      </Checkbox>
    );
  };

  const save = () =>
    modal.confirm({
      title: t('msg.confirmChanges', { x: changed }),
      okText: t('ui.common.confirm'),
      cancelText: t('ui.common.cancel'),
      onOk: async () => {
        setSaving(true);
        try {
          const res = await api.put<{ status: string; errorCode?: number }>(`/rnp/${roleId}`, { privileges: [...checked].sort() });
          if (res.status === 'success') {
            void message.success(t('msg.saved'));
            await rnp.refetch();
          } else void message.error(codeText(res.errorCode, t));
        } catch (err) {
          void message.error(errorText(err, t));
        } finally {
          setSaving(false);
        }
      },
    });

  const roleLabel = (r: RnpResponse['roles'][number]) => (i18n.language === 'zh-TW' ? r.name_chi || r.role : `${r.name_chi} (${r.role})`);
  return (
    <Card
      title={resourceName('rnp')}
      extra={
        perms.has(editPrivilege('rnp')) && (
          <Space>
            <Typography.Text type="secondary">{t('ui.rnp.changed', { count: changed })}</Typography.Text>
            <Button disabled={!changed} onClick={() => setChecked(new Set(stored))}>
              {t('ui.common.reset')}
            </Button>
            <Button type="primary" disabled={!changed || roleId === undefined} loading={saving} onClick={save}>
              {t('ui.common.save')}
            </Button>
          </Space>
        )
      }
    >
      <Space wrap style={{ marginBottom: 16 }}>
        <span>{t('ui.rnp.role')}</span>
        <Select
          style={{ width: 260 }}
          value={roleId}
          onChange={setRoleId}
          options={rnp.data.roles.map((r) => ({ value: r.id, label: roleLabel(r) }))}
          data-testid="rnp-role"
        />
        <Input.Search allowClear placeholder={t('ui.list.search')} onChange={(e) => setSearch(e.target.value)} style={{ width: 240 }} />
      </Space>
      {role && !canEdit && perms.has(editPrivilege('rnp')) && (
        <Alert type="info" showIcon title={t('ui.rnp.readOnlyRole')} style={{ marginBottom: 12 }} />
      )}
      <Table<MatrixRow>
        rowKey={(r) => r.key || '__general'}
        size="small"
        pagination={false}
        dataSource={shown}
        sticky
        columns={[
          { key: 'name', title: t('ui.rnp.resource'), render: (_, r) => <strong>{rowName(r)}</strong>, width: 220 },
          { key: 'read', title: header('read', t('ui.rnp.read')), render: (_, r) => box(r.read), width: 100 },
          { key: 'create', title: header('create', t('ui.rnp.create')), render: (_, r) => box(r.create), width: 100 },
          { key: 'edit', title: header('edit', t('ui.rnp.edit')), render: (_, r) => box(r.edit), width: 100 },
          {
            key: 'other',
            title: header('other', t('ui.rnp.otherColumn')),
            render: (_, r) => (
              <Space wrap size={[12, 4]}>
                {r.other.map((o) => box(o.privilege, i18n.exists(o.label) ? t(o.label) : o.privilege))}
              </Space>
            ),
          },
        ]}
      />
    </Card>
  );
}
