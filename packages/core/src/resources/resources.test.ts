import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
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
