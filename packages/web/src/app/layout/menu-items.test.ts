import { describe, expect, it } from 'vitest';
import { allPrivilegeNames, MENU, RESOURCES, type MeResponse } from '@ev/core';
import { permissionsOf } from '../session.tsx';
import { CUSTOM_SCREENS } from '../screens.ts';
import { visibleMenu } from './menu-items.ts';

const me = (privileges: string[], role = 'super_admin'): MeResponse => ({
  id: 1, name: 'Admin', username: 'admin', max_role_level: 100, role, roles: [role], home_screen: 'CpList', privileges,
});

describe('sidebar items', () => {
  it('offer only keys with a screen, even to a user holding every privilege', () => {
    const items = visibleMenu(permissionsOf(me(allPrivilegeNames()))).flatMap((g) => g.items);
    const expected = MENU.flatMap((g) => g.items).filter((k) => k in RESOURCES || (CUSTOM_SCREENS as readonly string[]).includes(k));
    expect(items).toEqual(expected);
    expect(items).toContain('cps');
    expect(items).toContain('rnp');
    // Every key of the spec's menu has its screen now (money and parking were the last).
    expect(items).toEqual(MENU.flatMap((g) => g.items));
    // The plans an account's service plan form needs are managed beside it.
    expect(items.slice(items.indexOf('account_service_plans'), items.indexOf('account_service_plans') + 2)).toEqual(['account_service_plans', 'service_plans']);
  });

  it('keep the privilege rule: READ_{KEY} per item, groups left empty are dropped', () => {
    const groups = visibleMenu(permissionsOf(me(['READ_CP_LOCS', 'READ_USER_LOG', 'READ_VOUCHER', 'READ_RNP'], 'site_operator')));
    expect(groups).toEqual([
      { group: 'operation', items: ['user_log'] },
      { group: 'management', items: ['cp_locs', 'voucher'] },
      { group: 'setting', items: ['rnp'] },
    ]);
    expect(visibleMenu(permissionsOf(me(['READ_DASHBOARD_SUMMARY'], 'site_operator')))).toEqual([]);
  });

  it('show a resource limited to some roles only to them', () => {
    const privileged = ['READ_PRIVILEGES', 'READ_ROLES'];
    const operator = visibleMenu(permissionsOf(me(privileged, 'site_operator'))).flatMap((g) => g.items);
    const superAdmin = visibleMenu(permissionsOf(me(privileged))).flatMap((g) => g.items);
    expect(operator).toEqual(['roles']);
    expect(superAdmin).toEqual(['roles', 'privileges']);
  });
});
