import { lazy, type ComponentType } from 'react';
import { CHUNK_LOAD_TIMEOUT_MS } from '@ev/core';

/** A screen's code did not arrive in time: RouteError turns it into the error page. */
export class ChunkLoadTimeout extends Error {
  constructor(ms: number) {
    super(`The page did not load within ${ms / 1000} s`);
  }
}

/** The load of a screen's code, given up (rejected with ChunkLoadTimeout) once it has taken ms. */
export function loadWithin<T>(load: () => Promise<T>, ms = CHUNK_LOAD_TIMEOUT_MS): () => Promise<T> {
  return () =>
    new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(new ChunkLoadTimeout(ms)), ms);
      load().then(resolve, reject).finally(() => clearTimeout(timer));
    });
}

/** React.lazy bounded by the spec's chunk-load timeout. */
export const lazyScreen = <P extends object>(load: () => Promise<{ default: ComponentType<P> }>) => lazy(loadWithin(load));
