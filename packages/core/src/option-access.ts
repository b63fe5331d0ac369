/**
 * Who may read which option list (GET /api/options?opts=key). A list of records is a read of that
 * resource: it needs the resource's own read privilege, or the privilege of a form, list or screen
 * that picks from it ("pick" grants, derived from the definitions so that a new field picking from a
 * list grants it by itself). Fixed lists (STATIC_OPTIONS) are code, shipped in the portal: open to all.
 */
import { STATIC_OPTIONS } from './options.ts';
import { createPrivilege, editPrivilege, P, readPrivilege } from './privileges.ts';
import type { ResourceDef } from './resource.ts';
import { getResource, RESOURCES } from './resources/index.ts';

/** One way to be granted a list: every privilege of it is needed. */
export type OptionGrant = readonly string[];

/** Screens outside the definitions that pick records: the privilege that opens the screen → its lists. */
const SCREEN_LISTS: { privilege: string; lists: string[] }[] = [
  // The message testers pick a charger; the tester is also open to cstDebug.
  { privilege: readPrivilege('test/cp_request'), lists: ['cps'] },
  { privilege: readPrivilege('lms/cp_simulator'), lists: ['cps'] },
  { privilege: P.CST_DEBUG, lists: ['cps'] },
  { privilege: readPrivilege('lms/dashboard'), lists: ['cp_locs', 'cp_zones'] },
  { privilege: readPrivilege('realtime/log'), lists: ['cp_locs'] },
];

const stem = (def: ResourceDef) => def.privilegeKey ?? def.key;

function computeGrants(): Map<string, OptionGrant[]> {
  const grants = new Map<string, OptionGrant[]>();
  const add = (list: string, grant: OptionGrant) => {
    const known = grants.get(list) ?? [];
    if (!known.some((g) => g.length === grant.length && g.every((p) => grant.includes(p)))) known.push(grant);
    grants.set(list, known);
  };
  for (const def of Object.values(RESOURCES).filter((d) => d.asOption)) add(def.key, [readPrivilege(stem(def))]);
  for (const def of Object.values(RESOURCES)) {
    // A list's filters and labels pick from what its columns name; a form from what its fields name.
    for (const c of def.columns) {
      if (c.options && getResource(c.options)?.asOption) add(c.options, [readPrivilege(stem(def)), ...(c.privileges ?? [])]);
    }
    if (def.readOnly) continue;
    for (const f of def.fields) {
      if (!f.options || !getResource(f.options)?.asOption) continue;
      if (def.actions.includes('create')) add(f.options, [createPrivilege(stem(def)), ...(f.privileges ?? [])]);
      if (def.actions.includes('edit') || def.actions.includes('editview')) add(f.options, [editPrivilege(stem(def)), ...(f.privileges ?? [])]);
    }
  }
  for (const s of SCREEN_LISTS) for (const list of s.lists) add(list, [s.privilege]);
  return grants;
}

let cached: Map<string, OptionGrant[]> | undefined;

/** The ways to be granted the option list of a resource (empty for a key that is no record list). */
export function optionListGrants(key: string): OptionGrant[] {
  cached ??= computeGrants();
  return cached.get(key) ?? [];
}

/** Every record option list with its grants, for the reference page and its drift test. */
export function allOptionListGrants(): [string, OptionGrant[]][] {
  cached ??= computeGrants();
  return [...cached.entries()].sort(([a], [b]) => a.localeCompare(b));
}

/** Whether a holder of these privileges may read option list `key`. */
export function mayReadOptionList(key: string, has: (privilege: string) => boolean): boolean {
  if (Object.hasOwn(STATIC_OPTIONS, key)) return true;
  return optionListGrants(key).some((grant) => grant.every(has));
}

/** The grants as the Markdown table of docs/option-lists.md (its drift test compares the two). */
export function optionListTable(): string {
  const rows = allOptionListGrants().map(([key, grants]) => `| \`${key}\` | ${grants.map((g) => g.map((p) => `\`${p}\``).join(' + ')).join(', ')} |`);
  return ['| option list | granted by any of |', '|---|---|', ...rows].join('\n');
}
