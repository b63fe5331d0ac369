import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CHUNK_LOAD_TIMEOUT_MS } from '@ev/core';
import { createElement, Suspense } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { ChunkLoadTimeout, lazyScreen, loadWithin } from './lazy-screen.ts';

describe('loading a screen within the chunk-load timeout (spec part 1 §9)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const pending = () => new Promise<never>(() => undefined);

  it('gives a load that has not arrived up after 120 s, not before', async () => {
    expect(CHUNK_LOAD_TIMEOUT_MS).toBe(120_000);
    let outcome: unknown;
    loadWithin(pending)().catch((err) => (outcome = err));
    await vi.advanceTimersByTimeAsync(CHUNK_LOAD_TIMEOUT_MS - 1);
    expect(outcome).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(outcome).toBeInstanceOf(ChunkLoadTimeout);
  });

  it('answers what the load answers in time, and leaves no timer behind', async () => {
    const screen = { default: () => null };
    const loaded = loadWithin(() => new Promise((resolve) => setTimeout(() => resolve(screen), 5000)))();
    await vi.advanceTimersByTimeAsync(5000);
    await expect(loaded).resolves.toBe(screen);
    expect(vi.getTimerCount()).toBe(0);
    // A load that fails in time fails with its own error (a deployment replaced the chunk).
    const failed = loadWithin(() => Promise.reject(new Error('chunk gone')))();
    await expect(failed).rejects.toThrow('chunk gone');
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('a lazily loaded screen', () => {
  const Hello = ({ name }: { name: string }) => createElement('p', null, `Hello ${name}`);
  const inSuspense = (node: ReturnType<typeof createElement>) => renderToStaticMarkup(createElement(Suspense, { fallback: 'waiting' }, node));

  it('suspends while its code is on the way, and is drawn at once, without a fallback, once it has arrived', async () => {
    let loads = 0;
    const Screen = lazyScreen(async () => {
      loads++;
      return { default: Hello };
    });
    expect(inSuspense(createElement(Screen, { name: 'operator' }))).toBe('waiting');
    await Screen.preload();
    expect(inSuspense(createElement(Screen, { name: 'operator' }))).toBe('<p>Hello operator</p>');
    expect(loads).toBe(1);
  });

  it('preloaded before its first drawing, never shows the fallback', async () => {
    const Screen = lazyScreen(async () => ({ default: Hello }));
    await Screen.preload();
    expect(inSuspense(createElement(Screen, { name: 'there' }))).toBe('<p>Hello there</p>');
  });
});
