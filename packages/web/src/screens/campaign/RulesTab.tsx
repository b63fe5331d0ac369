import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Space, Table, Tooltip } from 'antd';
import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { createPrivilege, editPrivilege, P, type ListResponse } from '@ev/core';
import { api } from '../../api/client.ts';
import { errorText, refusalText } from '../../api/errors.ts';
import { useLabels } from '../../app/labels.ts';
import type { Permissions } from '../../app/session.tsx';
import { useOptions } from '../../resources/options.ts';
import { configSummary } from './RuleConfigEditor.tsx';
import { RuleModal, type RuleRow } from './RuleModal.tsx';

interface Props {
  campaignId: number;
  /** A voucher campaign: its rules are as fixed as the campaign. */
  locked: boolean;
  perms: Permissions;
}

/** The campaign's rules (spec part 2 §2: the nested campaign_rule list filtered by the campaign), added and edited in a popup. */
export function RulesTab({ campaignId, locked, perms }: Props) {
  const { t, i18n } = useTranslation();
  const { modal, message } = App.useApp();
  const { fieldLabel } = useLabels();
  const types = useOptions(['campaign_rule_type']).campaign_rule_type ?? [];
  const [editing, setEditing] = useState<RuleRow | 'new'>();
  const list = useQuery({
    queryKey: ['list', 'campaign_rule', { campaignId }],
    queryFn: () => api.get<ListResponse<RuleRow>>('/campaign_rule', { campaignId, size: 99999, page: 0, trash: 0 }),
  });
  const canCreate = !locked && perms.has(createPrivilege('campaign_rule'));
  const canEdit = !locked && perms.has(editPrivilege('campaign_rule'));
  const canDelete = canEdit && perms.has(P.DELETE);
  const label = (f: string) => fieldLabel('campaign_rule', f);

  const remove = (rule: RuleRow) =>
    modal.confirm({
      title: t('ui.campaignRules.confirmDelete', { id: rule.id }),
      okText: t('ui.common.confirm'),
      okButtonProps: { danger: true },
      cancelText: t('ui.common.cancel'),
      onOk: async () => {
        try {
          await api.del(`/campaign_rule/${rule.id}`);
          void message.success(t('msg.deleted'));
          await list.refetch();
        } catch (err) {
          void message.error(refusalText(err, t, (k) => i18n.exists(k)));
        }
      },
    });

  if (list.isError) return <Alert type="error" showIcon title={errorText(list.error, t)} />;
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      {locked && <Alert type="info" showIcon title={t('ui.campaignRules.locked')} />}
      {canCreate && (
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
          {t('ui.campaignRules.add')}
        </Button>
      )}
      <Table<RuleRow>
        rowKey="id"
        size="middle"
        loading={list.isFetching}
        dataSource={list.data?.dataset.content ?? []}
        pagination={false}
        locale={{ emptyText: t('ui.campaignRules.none') }}
        data-testid="campaign-rules"
        columns={[
          { key: 'id', dataIndex: 'id', title: label('id'), width: 70 },
          {
            key: 'type', dataIndex: 'campaignRuleTypeCode', title: label('campaignRuleTypeCode'),
            render: (v: string) => types.find((o) => o.value === v)?.label ?? v,
          },
          { key: 'name', dataIndex: 'ruleName', title: label('ruleName') },
          {
            key: 'config', dataIndex: 'campaignRuleConfig', title: label('campaignRuleConfig'),
            render: (v: string, r) => configSummary(r.campaignRuleTypeCode, v, (key) => t(key)),
          },
          {
            key: 'description', title: label('description'),
            render: (_: unknown, r) => (i18n.language === 'zh-TW' && r.descriptionCht) || r.description,
          },
          ...(canEdit || canDelete
            ? [{
                key: 'actions', title: t('ui.list.actions'), width: 110,
                render: (_: unknown, r: RuleRow) => (
                  <Space size={0}>
                    {canEdit && (
                      <Tooltip title={t('ui.campaignRules.edit')}>
                        <Button type="link" size="small" icon={<EditOutlined />} aria-label={t('ui.campaignRules.edit')} onClick={() => setEditing(r)} />
                      </Tooltip>
                    )}
                    {canDelete && (
                      <Tooltip title={t('ui.actions.delete')}>
                        <Button type="link" size="small" danger icon={<DeleteOutlined />} aria-label={t('ui.actions.delete')} onClick={() => remove(r)} />
                      </Tooltip>
                    )}
                  </Space>
                ),
              }]
            : []),
        ]}
      />
      {editing && (
        <RuleModal
          campaignId={campaignId}
          rule={editing === 'new' ? undefined : editing}
          onClose={(saved) => {
            setEditing(undefined);
            if (saved) void list.refetch();
          }}
        />
      )}
    </Space>
  );
}
