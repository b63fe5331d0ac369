import type { ResourceLabels } from '../types.ts';

/** Labels per resource key; one file per resource family beside this one. */
export const RESOURCE_LABELS: Record<string, ResourceLabels> = {};
