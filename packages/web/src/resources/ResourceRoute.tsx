import { useParams } from 'react-router';
import { Card, Result, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { ALL_RESOURCE_KEYS, getResource } from '@ev/core';
import { useLabels } from '../app/labels.ts';
import { permissionsOf, usePermissions } from '../app/session.tsx';
import { queryClient } from '../app/query.ts';
import { meQuery } from '../api/me.ts';
import { listCall, loadState } from './list/list-state.ts';
import NotAvailablePage from '../screens/NotAvailablePage.tsx';
import { lazyPart } from '../app/lazy-part.tsx';
import { ResourceList } from './list/ResourceList.tsx';
import { viewTabs } from './overrides/index.ts';
import { useRecord } from './use-record.ts';

// A list is what most visits open: forms (date pickers, uploads) and the view come when first asked for.
const ResourceForm = lazyPart(() => import('./form/ResourceForm.tsx').then((m) => m.ResourceForm));
const ResourceView = lazyPart(() => import('./view/ResourceView.tsx').then((m) => m.ResourceView));

export type Mode = 'list' | 'search' | 'create' | 'edit' | 'editview' | 'view';

/**
 * Opening the portal on a list: its first page asked for as soon as the user's privileges say it may be read,
 * while the layout is being drawn, rather than once the list has been drawn empty.
 */
export async function prefetchOpeningList(key: string): Promise<void> {
  const def = getResource(key);
  if (!def) return;
  const me = await queryClient.ensureQueryData(meQuery);
  if (permissionsOf(me).canRead(def)) await queryClient.prefetchQuery(listCall(def, loadState(def)));
}

/** The code a mode draws beyond the list's, fetched ahead when the portal opens on such a screen. */
export function preloadMode(mode: Mode): Promise<unknown> {
  if (mode === 'view') return ResourceView.preload();
  if (mode === 'list' || mode === 'search') return Promise.resolve();
  return ResourceForm.preload();
}

/**
 * /{key}, /{key}/{search}/search, /{key}/create, /{key}/{id}/edit, /{key}/{id}/EditView, /{key}/{id}:
 * the generic screens of a definition. A search is the list with the term as a filter the user can remove.
 */
export default function ResourceRoute({ mode }: { mode: Mode }) {
  const { t } = useTranslation();
  const { resourceName } = useLabels();
  const perms = usePermissions();
  const { key = '', id, search = '' } = useParams();
  const def = getResource(key);
  const forbidden = <Result status="403" title="403" subTitle={t('ui.error.noPermission')} />;

  if (!def) {
    const known = (ALL_RESOURCE_KEYS as readonly string[]).includes(key);
    return known ? <NotAvailablePage pageKey={key} /> : <Result status="404" title="404" subTitle={t('msg.notFound')} />;
  }
  if (!perms.canRead(def)) return forbidden;

  switch (mode) {
    case 'list':
      // key: a fresh list (and its saved state) per resource when moving between menu items.
      return <ResourceList key={def.key} def={def} persist />;
    case 'search':
      // Not persisted: a search link is a view of its own, and the plain list keeps the state it had.
      return <ResourceList key={`${def.key}/search/${search}`} def={def} search={search} />;
    case 'create':
      if (!perms.canCreate(def)) return forbidden;
      return (
        <Card title={t('ui.form.createTitle', { name: resourceName(def.key) })}>
          <ResourceForm def={def} mode="create" />
        </Card>
      );
    case 'edit':
      if (!perms.canEdit(def)) return forbidden;
      return (
        <Card title={t('ui.form.editTitle', { name: resourceName(def.key), id })}>
          <ResourceForm def={def} mode="edit" id={id} />
        </Card>
      );
    case 'editview':
      if (!perms.canEdit(def)) return forbidden;
      return <EditView key={`${def.key}/${id}`} defKey={def.key} id={id ?? ''} />;
    case 'view':
      return <ResourceView key={`${def.key}/${id}`} def={def} id={id ?? ''} />;
  }
}

/** Edit-and-view: the edit form stays on the page after saving, with the view's extra tabs beside it. */
function EditView({ defKey, id }: { defKey: string; id: string }) {
  const { t } = useTranslation();
  const { resourceName } = useLabels();
  const perms = usePermissions();
  const def = getResource(defKey)!;
  const record = useRecord(def, id);
  const form = <ResourceForm def={def} mode="edit" id={id} onSaved={() => void record.refetch()} />;
  const tabs = record.data ? viewTabs(def.key, record.data, perms) : [];
  return (
    <Card title={t('ui.form.editTitle', { name: resourceName(def.key), id })}>
      {tabs.length ? (
        <Tabs items={[{ key: 'form', label: t('ui.view.details'), children: form }, ...tabs.map((tab) => ({ ...tab, label: t(tab.label) }))]} />
      ) : (
        form
      )}
    </Card>
  );
}
