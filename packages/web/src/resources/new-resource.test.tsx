import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReactNode } from 'react';
import {
  createPrivilege, editPrivilege, idCol, intCol, intFld, labels, P, readPrivilege, RESOURCES, textCol, textFld,
  type ResourceDef,
} from '@ev/core';
import { renderScreen } from '../testing/render.tsx';
import { ResourceForm } from './form/ResourceForm.tsx';
import { ResourceList } from './list/ResourceList.tsx';

/**
 * The portal side of a resource nobody wrote screens for: registered like a module of
 * core/src/resources, its list and form are the generic ones, with its labels in both languages.
 */
const test_widgets: ResourceDef = {
  key: 'test_widgets',
  table: 'test_widgets',
  idField: 'id',
  labels: labels(['Widgets', '小部件'], { id: ['Widget ID', '小部件編號'], name: ['Widget Name', '小部件名稱'], size: ['Widget Size', '小部件尺寸'] }),
  columns: [idCol('id'), textCol('name'), intCol('size')],
  fields: [textFld('name', { required: true }), intFld('size', { min: 1 })],
  actions: ['create', 'edit', 'view', 'delete', 'excel'],
};

const privileges = [readPrivilege('test_widgets'), createPrivilege('test_widgets'), editPrivilege('test_widgets'), P.DELETE];
const render = (lang: 'en' | 'zh-TW', screen: ReactNode) => renderScreen(lang, screen, privileges);

describe('a new resource in the portal', () => {
  beforeAll(() => {
    RESOURCES[test_widgets.key] = test_widgets;
  });
  afterAll(() => {
    delete RESOURCES[test_widgets.key];
  });

  it('gets the generic list with its columns, filters and actions, in both languages', async () => {
    const en = await render('en', <ResourceList def={test_widgets} />);
    for (const text of ['Widget ID', 'Widget Name', 'Widget Size']) expect(en).toContain(text);
    const zh = await render('zh-TW', <ResourceList def={test_widgets} />);
    for (const text of ['小部件編號', '小部件名稱', '小部件尺寸']) expect(zh).toContain(text);
  });

  it('gets the generic create form with its fields', async () => {
    const form = await render('en', <ResourceForm def={test_widgets} mode="create" />);
    expect(form).toContain('Widget Name');
    expect(form).toContain('Widget Size');
    expect(form).not.toContain('Widget ID'); // the id is no form field
  });
});
