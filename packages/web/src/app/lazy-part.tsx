import { Suspense, type ComponentType, type ReactNode } from 'react';
import { Spin } from 'antd';
import { lazyScreen, type LazyComponent } from './lazy-screen.ts';

/**
 * A part of a screen (a view's tab, a dialog) whose code is fetched when it is first drawn, with a spinner until
 * then (or `fallback`) and the spec's chunk-load timeout: a list does not carry the code of every tab its records'
 * views have.
 */
export function lazyPart<P extends object>(load: () => Promise<ComponentType<P>>, fallback: ReactNode = <Spin />): LazyComponent<P> {
  const Part = lazyScreen<P>(() => load().then((component) => ({ default: component })));
  function LazyPart(props: P) {
    return (
      <Suspense fallback={fallback}>
        <Part {...props} />
      </Suspense>
    );
  }
  return Object.assign(LazyPart, { preload: Part.preload });
}
