import { rsrSiteScope } from './cp_rsr_request.ts';
import type { ResourceHooks } from './types.ts';

export const hooks: ResourceHooks = { visibleTo: rsrSiteScope };
