export * from './platform.ts';
export * from './sites.ts';
