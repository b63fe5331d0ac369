import { describe, expect, it } from 'vitest';
import { LANGS } from './i18n/types.ts';
import { OCPP_REQUEST_TYPES } from './ocpp.ts';
import { STATIC_OPTIONS } from './options.ts';
import { RESOURCES } from './resources/index.ts';

describe('fixed option lists', () => {
  for (const [key, items] of Object.entries(STATIC_OPTIONS)) {
    it(`${key}: every value labelled in ${LANGS.join(' and ')}, no value twice`, () => {
      const unlabelled = items.flatMap((o) => LANGS.filter((l) => !o.label[l]?.trim()).map((l) => `${o.value} [${l}]`));
      expect(unlabelled).toEqual([]);
      expect(new Set(items.map((o) => o.value)).size).toBe(items.length);
    });
  }

  it('labels every OCPP request type', () => {
    expect(STATIC_OPTIONS.request_types.map((o) => o.value)).toEqual(OCPP_REQUEST_TYPES.map((t) => t.id));
  });

  it('is what enum columns and select fields name, when they name no resource', () => {
    for (const def of Object.values(RESOURCES)) {
      for (const { field, options } of [...def.columns, ...def.fields]) {
        if (options) expect(STATIC_OPTIONS[options] ?? RESOURCES[options]?.asOption, `${def.key}.${field}: options '${options}'`).toBeDefined();
      }
    }
  });
});
