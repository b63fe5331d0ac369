import { useContext, useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { mayReadOptionList, STATIC_OPTIONS, staticOptionItems, type OptionItem } from '@ev/core';
import { MeContext } from '../app/session.tsx';
import { api } from '../api/client.ts';

export type OptionMap = Record<string, OptionItem[]>;

/** Items may arrive as plain values or {label, value} (spec part 1 §7). */
function normalize(items: unknown[]): OptionItem[] {
  return items.map((item) =>
    item && typeof item === 'object' && 'value' in item
      ? { label: String((item as OptionItem).label ?? (item as OptionItem).value), value: (item as OptionItem).value }
      : { label: String(item), value: item as string | number },
  );
}

/**
 * Option lists by key: fixed lists come from core, the rest from GET /api/options?opts=… (those the user may read).
 * Load failures leave the list empty (spec §8: option load failures are ignored).
 */
export function useOptions(keys: (string | undefined)[]): OptionMap {
  const me = useContext(MeContext);
  const wanted = [...new Set(keys.filter((k): k is string => !!k))].sort();
  // Only lists the user may read are asked for (the server refuses the whole call otherwise); the others show raw values.
  const remote = wanted.filter((k) => !Object.hasOwn(STATIC_OPTIONS, k) && !!me && mayReadOptionList(k, (p) => me.privileges.includes(p)));
  // Labels such as site addresses come in the reader's language.
  const lang = useTranslation().i18n.language === 'zh-TW' ? 'zh-TW' : 'en';
  const query = useQuery({
    queryKey: ['options', remote, lang],
    queryFn: async () => {
      const res = await api.get<{ options: Record<string, unknown[]> }>('/options', { opts: remote, lang }, { quiet403: true });
      return Object.fromEntries(Object.entries(res.options ?? {}).map(([k, v]) => [k, normalize(Array.isArray(v) ? v : [])]));
    },
    enabled: remote.length > 0,
    staleTime: 60_000,
  });
  const data = query.isError ? undefined : query.data;
  return useMemo(() => {
    const map: OptionMap = {};
    for (const key of wanted) map[key] = Object.hasOwn(STATIC_OPTIONS, key) ? staticOptionItems(key, lang) : (data?.[key] ?? []);
    return map;
    // wanted is rebuilt each render; its joined text is the stable identity.
  }, [wanted.join(','), data, lang]);
}

/** Each option list's labels by value, made once per list (a 200-row page looks up thousands of cells). */
const labelsByValue = new WeakMap<OptionItem[], Map<string, string>>();

/** The label of a value in an option list, compared loosely because ids arrive as numbers or strings. */
export function optionLabel(options: OptionItem[] | undefined, value: unknown): string {
  if (!options) return String(value);
  let labels = labelsByValue.get(options);
  if (!labels) {
    labels = new Map(options.map((o) => [String(o.value), o.label]));
    labelsByValue.set(options, labels);
  }
  return labels.get(String(value)) ?? String(value);
}
