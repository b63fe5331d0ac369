import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { mayReadOptionList, optionListGrants, optionListTable } from './option-access.ts';

describe('option list grants', () => {
  it('are written down in docs/option-lists.md as the code has them', () => {
    const doc = readFileSync(new URL('../../../docs/option-lists.md', import.meta.url), 'utf8');
    expect(doc).toContain(optionListTable());
  });

  it('follow the forms: the vehicle form picks accounts and chargers, not contacts', () => {
    const clerk = new Set(['CREATE_ACCOUNT_VEHICLES']);
    const has = (p: string) => clerk.has(p);
    expect(mayReadOptionList('accounts', has)).toBe(true);
    expect(mayReadOptionList('cps', has)).toBe(true);
    expect(mayReadOptionList('contact', has)).toBe(false);
    expect(mayReadOptionList('connector_status', () => false)).toBe(true);
    expect(optionListGrants('no_such_list')).toEqual([]);
  });

  it('need a field privilege where the field has one: the LMS profile of a site form needs READ_LMS_PROFILE', () => {
    expect(mayReadOptionList('lms_profiles', (p) => p === 'EDIT_CP_LOCS')).toBe(false);
    expect(mayReadOptionList('lms_profiles', (p) => ['EDIT_CP_LOCS', 'READ_LMS_PROFILE'].includes(p))).toBe(true);
  });
});
