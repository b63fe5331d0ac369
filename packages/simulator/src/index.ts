export * from './charger.ts';
export type { SimLogger, SimulatedChargerOptions, CommandOverride } from './link.ts';
export * from './charging-profiles.ts';
export * from './configuration.ts';
export * from './connector.ts';
export { backoffDelay, type BackoffOptions } from './connection.ts';
export * from './fleet.ts';
export * from './firmware.ts';
