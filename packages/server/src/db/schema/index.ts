export * from './platform.ts';
export * from './sites.ts';
export * from './ocpp.ts';
export * from './lms.ts';
export * from './customers.ts';
export * from './money.ts';
