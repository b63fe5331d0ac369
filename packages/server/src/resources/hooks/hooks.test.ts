import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { RESOURCES } from '@ev/core';
import { RESOURCE_HOOKS } from './index.ts';

/** Modules of this folder that hold no resource's hooks. */
const NOT_HOOKS = new Set(['index.ts', 'types.ts', 'live-chargers.ts', 'charger-number.ts']);

describe('resource hooks', () => {
  it('has one module per resource key, each registered', async () => {
    const dir = fileURLToPath(new URL('.', import.meta.url));
    const modules = readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !NOT_HOOKS.has(f));
    for (const file of modules) {
      const key = file.slice(0, -3);
      expect(RESOURCES[key], `hooks/${file} is named after no resource key`).toBeDefined();
      const mod = await import(`./${file}`);
      expect(RESOURCE_HOOKS[key], `hooks/${file} is not listed in hooks/index.ts`).toBe(mod.hooks);
    }
    expect(Object.keys(RESOURCE_HOOKS).sort()).toEqual(modules.map((f) => f.slice(0, -3)).sort());
  });
});
