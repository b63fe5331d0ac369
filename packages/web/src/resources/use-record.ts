import { useQuery } from '@tanstack/react-query';
import type { ResourceDef } from '@ev/core';
import { api } from '../api/client.ts';

export type RecordData = Record<string, unknown>;

/** One record by id (GET /api/{key}/{id}), or from another path such as /user_profile. */
export function useRecord(def: ResourceDef, id: string | number | undefined, path?: string) {
  const url = path ?? `/${def.key}/${encodeURIComponent(String(id))}`;
  return useQuery({
    queryKey: ['record', def.key, path ?? String(id)],
    queryFn: () => api.get<RecordData>(url),
    enabled: path !== undefined || id !== undefined,
    staleTime: 0,
  });
}
