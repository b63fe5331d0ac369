import { describe, expect, it } from 'vitest';
import { allPrivilegeNames } from '@ev/core';
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
