import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PAGE_SIZES } from '../resource.ts';
import { RESOURCES } from './index.ts';

/** Modules of this folder that are not a resource definition. */
const NOT_DEFINITIONS = new Set(['index.ts', 'build.ts', 'labels.ts']);

describe('resource definitions', () => {
  it('has one module per key, named after it, and every module is served', async () => {
    const dir = fileURLToPath(new URL('.', import.meta.url));
    const modules = readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !NOT_DEFINITIONS.has(f));
    for (const file of modules) {
      const key = file.slice(0, -3);
      const mod = await import(`./${file}`);
      expect(mod[key]?.key, `${file} must export the definition of "${key}" as ${key}`).toBe(key);
      expect(RESOURCES[key], `${file} is not listed in resources/index.ts`).toBe(mod[key]);
    }
    expect(Object.keys(RESOURCES).sort()).toEqual(modules.map((f) => f.slice(0, -3)).sort());
  });

  it('pages the lists of spec part 2 by 10, 20, 50, 100 (10 first) and the platform lists by 20, 50, 100, 200', () => {
    // Spec part 2 §2, "Resource keys in scope".
    const part2 = ['accounts', 'account_vehicles', 'account_service_plans', 'service_plans', 'auth_card', 'opening_hour', 'contact',
      'contact_group', 'alert', 'cp_rsr', 'cp_rsr_request', 'cp_rsr_api_log', 'payment_result_detail', 'charging_rate', 'charging_rate_detail',
      'price_scheme', 'campaign', 'campaign_rule', 'voucher', 'bay', 'bay_log', 'cpRsrPointRedeem', 'third_party_conf', 'third_party_error_log',
      'portal_action_log', 'user_profile', 'data_rotation_setup', 'app_config'];
    for (const def of Object.values(RESOURCES)) {
      const sizes = def.pageSizes ?? DEFAULT_PAGE_SIZES;
      if (part2.includes(def.key)) expect([def.key, sizes, def.defaultPageSize ?? sizes[0]]).toEqual([def.key, [10, 20, 50, 100], 10]);
      // The power meter list offers 10 to 100 in steps of 10 (part 1 §9).
      else if (def.key !== 'cp_pow') expect([def.key, sizes]).toEqual([def.key, [20, 50, 100, 200]]);
    }
  });

  it('names only fields of its own in field references', () => {
    for (const def of Object.values(RESOURCES)) {
      const fields = new Set(def.fields.map((f) => f.field));
      for (const f of def.fields) {
        for (const ref of [f.sameAs, f.disabledWhenSet]) if (ref) expect(fields.has(ref), `${def.key}.${f.field} names ${ref}`).toBe(true);
      }
      if (def.asOption?.qualifiedBy) expect(fields.has(def.asOption.qualifiedBy), `${def.key}.asOption.qualifiedBy`).toBe(true);
    }
  });
});
