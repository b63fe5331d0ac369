import { useQuery } from '@tanstack/react-query';
import type { ResourceDef } from '@ev/core';
import { api } from '../api/client.ts';

export type RecordData = Record<string, unknown>;

/** How often a view page of a liveView resource reads its record again. */
const LIVE_VIEW_MS = 5_000;

/**
 * One record by id (GET /api/{key}/{id}), or from another path such as /user_profile. live: read again every
 * few seconds (the view page of a liveView resource; its tabs reading the same record share the answer).
 */
export function useRecord(def: ResourceDef, id: string | number | undefined, path?: string, live = false) {
  const url = path ?? `/${def.key}/${encodeURIComponent(String(id))}`;
  return useQuery({
    queryKey: ['record', def.key, path ?? String(id)],
    queryFn: () => api.get<RecordData>(url),
    enabled: path !== undefined || id !== undefined,
    staleTime: 0,
    refetchInterval: live ? LIVE_VIEW_MS : false,
  });
}
