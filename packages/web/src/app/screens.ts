import { getResource } from '@ev/core';

/**
 * Route keys of the custom screens the router serves (beside the generic screens of every
 * resource key). router.tsx gives each its page; a key of the menu that is neither one of these
 * nor a resource key has no screen yet.
 */
export const CUSTOM_SCREENS = ['rnp', 'user/profile', 'test/cp_request', 'lms/cp_simulator', 'lms/dashboard', 'realtime/log', 'v2/quickinfo', 'config/fleet'] as const;
export type CustomScreen = (typeof CUSTOM_SCREENS)[number];

/** A menu key leads somewhere: a resource's generic screens or a custom screen. */
export function hasScreen(key: string): boolean {
  return !!getResource(key) || (CUSTOM_SCREENS as readonly string[]).includes(key);
}
