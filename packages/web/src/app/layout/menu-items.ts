import { getResource, MENU, readPrivilege, SCREEN_PRIVILEGES, type MenuGroup } from '@ev/core';
import type { Permissions } from '../session.tsx';
import { hasScreen } from '../screens.ts';

/** Spec part 1 §2: an item needs READ_{KEY}; a resource limited to some roles, one of them too. */
function visible(key: string, perms: Pick<Permissions, 'canRead' | 'has'>): boolean {
  if (Object.hasOwn(SCREEN_PRIVILEGES, key)) return SCREEN_PRIVILEGES[key].every((p) => perms.has(p));
  const def = getResource(key);
  return def ? perms.canRead(def) : perms.has(readPrivilege(key));
}

/**
 * The sidebar's groups and items for a user, in the order of MENU: an item shows when its screen
 * exists (a resource key or a custom screen the router serves) and the user may read it; groups
 * left empty are dropped. Keys without a screen yet stay in MENU and appear once it is built.
 */
export function visibleMenu(perms: Pick<Permissions, 'canRead' | 'has'>): { group: MenuGroup; items: string[] }[] {
  return MENU.map((g) => ({ group: g.group, items: g.items.filter((key) => hasScreen(key) && visible(key, perms)) })).filter(
    (g) => g.items.length,
  );
}
