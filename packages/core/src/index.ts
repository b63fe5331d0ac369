export * from './resource.ts';
export * from './privileges.ts';
export * from './errors.ts';
export * from './options.ts';
export * from './api.ts';
export * from './resources/index.ts';
export * from './resources/build.ts';
export * from './menu.ts';
