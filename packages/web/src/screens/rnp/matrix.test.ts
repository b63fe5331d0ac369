import { describe, expect, it } from 'vitest';
import { allPrivilegeNames, buildCatalogs, P } from '@ev/core';
import { buildMatrix, columnPrivileges } from './matrix.ts';

describe('role settings matrix', () => {
  it('offers every existing privilege exactly once', () => {
    const existing = [...allPrivilegeNames(), 'SOMETHING_NEW'];
    const rows = buildMatrix(existing);
    const cells = (['read', 'create', 'edit', 'other'] as const).flatMap((c) => columnPrivileges(rows, c));
    expect(cells.sort()).toEqual([...existing].sort());
  });

  it('shows only privileges the server knows', () => {
    const rows = buildMatrix(['READ_CPS', 'READ_DELETE']);
    expect(rows.map((r) => r.key)).toEqual(['', 'cps']);
    expect(rows[1]).toMatchObject({ read: 'READ_CPS', create: undefined, edit: undefined });
  });
});

describe('role settings matrix: one box per privilege, every box named in both languages', () => {
  const rows = buildMatrix(allPrivilegeNames());
  const catalogs = buildCatalogs();
  const lookup = (lang: 'en' | 'zh-TW', path: string) =>
    path.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], catalogs[lang].translation);

  it('has one Connectors box, the privilege the connector gates and the connectors resource both need', () => {
    const cells = (['read', 'create', 'edit', 'other'] as const).flatMap((c) => columnPrivileges(rows, c));
    expect(cells).toContain(P.CP_CONNECTOR);
    expect(cells).not.toContain('READ_CP_CONNECTORS');
    expect(rows.find((r) => r.key === 'cp_connectors')).toBeUndefined();
    // Read-only logs have nothing to create or edit.
    expect(rows.find((r) => r.key === 'cp_requests')).toMatchObject({ read: 'READ_CP_REQUESTS', create: undefined, edit: undefined });
  });

  it('names every row and every Other box in English and Traditional Chinese', () => {
    const unnamed: string[] = [];
    for (const lang of ['en', 'zh-TW'] as const) {
      for (const row of rows.filter((r) => r.key)) {
        if (typeof (lookup(lang, `resources.${row.key}.name`) ?? lookup(lang, `ui.menu.${row.key}`)) !== 'string') unnamed.push(`${lang} row ${row.key}`);
      }
      for (const cell of rows.flatMap((r) => r.other)) if (typeof lookup(lang, cell.label) !== 'string') unnamed.push(`${lang} ${cell.privilege}`);
    }
    expect(unnamed).toEqual([]);
  });
});
