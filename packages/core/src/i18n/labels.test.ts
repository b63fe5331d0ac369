import { describe, it, expect } from 'vitest';
import { RESOURCES } from '../resources/index.ts';
import { LANGS } from './types.ts';

const filled = (s: unknown) => typeof s === 'string' && s.trim() !== '';

describe('resource labels', () => {
  for (const def of Object.values(RESOURCES)) {
    it(`${def.key}: name and every column / field labelled in ${LANGS.join(' and ')}`, () => {
      const labels = def.labels;
      expect(labels, `no labels in the definition of "${def.key}"`).toBeDefined();
      const missing: string[] = [];
      for (const lang of LANGS) {
        const l = labels![lang];
        if (!l || !filled(l.name)) missing.push(`${def.key}: name [${lang}]`);
        const fields = [
          ...def.columns.map((c) => ['column', c.field] as const),
          ...def.fields.map((f) => ['field', f.field] as const),
        ];
        for (const [kind, field] of fields) {
          const text = l && Object.hasOwn(l.fields, field) ? l.fields[field] : undefined;
          if (!filled(text)) missing.push(`${def.key}.${field} (${kind}) [${lang}]`);
        }
        // A label for a field the resource does not have is a leftover of a rename.
        for (const field of Object.keys(l?.fields ?? {})) {
          if (!fields.some(([, f]) => f === field)) missing.push(`${def.key}.${field} labelled but not a column or field [${lang}]`);
        }
      }
      expect([...new Set(missing)], `missing labels in resource "${def.key}"`).toEqual([]);
    });
  }

  for (const { key, labels } of Object.values(RESOURCES)) {
    it(`${key}: en and zh-TW have the same label keys, none empty`, () => {
      const en = Object.keys(labels.en.fields).sort();
      const zh = Object.keys(labels['zh-TW'].fields).sort();
      expect(zh, `label keys of "${key}" differ between en and zh-TW`).toEqual(en);
      const empty = LANGS.flatMap((lang) =>
        Object.entries(labels[lang].fields).filter(([, v]) => !filled(v)).map(([f]) => `${key}.${f} [${lang}]`),
      );
      expect(empty, `empty labels in "${key}"`).toEqual([]);
    });
  }
});
