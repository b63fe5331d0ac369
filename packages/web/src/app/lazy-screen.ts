import { createElement, lazy, useState, type ComponentType } from 'react';
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

/** A lazily loaded component whose code can be fetched ahead of its first drawing. */
export type LazyComponent<P extends object> = ComponentType<P> & { preload: () => Promise<unknown> };

/**
 * React.lazy bounded by the spec's chunk-load timeout, drawn at once when its code has already arrived (preloaded,
 * or drawn before). React.lazy alone suspends on its first drawing even then, and React holds content that follows
 * a Suspense fallback back for up to 300 ms (its fallback throttle): twice on the way to a list, half a second.
 */
export function lazyScreen<P extends object>(load: () => Promise<{ default: ComponentType<P> }>): LazyComponent<P> {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<unknown> | undefined;
  const preload = () =>
    (loading ??= loadWithin(load)().then((module) => {
      loaded = module.default;
      return module;
    }));
  const Suspending = lazy(preload as () => Promise<{ default: ComponentType<P> }>);
  function LazyScreen(props: P) {
    // The component chosen at the first drawing stays: swapping the lazy one for the loaded one would remount it.
    const [Screen] = useState<ComponentType<P>>(() => loaded ?? Suspending);
    return createElement(Screen, props);
  }
  return Object.assign(LazyScreen, { preload });
}
