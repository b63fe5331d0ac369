import type { MeResponse } from '@ev/core';
import { api } from './client.ts';

/** The signed-in user and privileges: asked for by the auth guard, and ahead of it when the portal opens signed in. */
export const meQuery = { queryKey: ['me'], queryFn: () => api.post<MeResponse>('/me'), staleTime: 60_000 };
