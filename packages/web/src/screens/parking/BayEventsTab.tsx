import { getResource } from '@ev/core';
import { ResourceList } from '../../resources/list/ResourceList.tsx';

/** A bay's view: the events the parking system sent for it (the bay_log list filtered by the bay). */
export function BayEventsTab({ bayId }: { bayId: number }) {
  const def = getResource('bay_log');
  return def ? <ResourceList def={def} fixedFilters={{ bayId }} embedded /> : null;
}
