import { createCache, extractStyle } from '@ant-design/cssinjs';
import { version } from 'antd';

/**
 * antd writes its components' CSS in the browser on their first drawing (CSS-in-JS): on a list page that is about
 * an eighth of the script run before the rows show. The portal keeps what a visit generated in local storage and
 * puts it back before the next visit's first drawing, in the form antd's server rendering uses (the style elements
 * plus a map from each style's path to its hash), so antd finds each style already there and skips generating it.
 * Nothing more is downloaded. A style's path holds the theme's hash and the antd version, so a changed theme or
 * antd simply misses and generates as before; the key holds the version too so old entries are not kept.
 */
const PREFIX = 'antd-styles:';
const KEY = `${PREFIX}${version}`;
/** antd's server-rendering marks (@ant-design/cssinjs): the style map element and the style elements' hash. */
const MAP_ATTR = 'data-ant-cssinjs-cache-path';
const STYLE_SELECTOR = 'head > style[data-css-hash]';
/** Above this the stored styles are not worth the storage (the token and list settings share it). */
const MAX_CHARS = 1_500_000;

/** The cache antd's provider is given (AppProviders), so that what it generated can be read back. */
export const styleCache = createCache();

/** How many styles the document held when last saved or restored: antd only adds styles, so equal means unchanged. */
let savedCount = 0;

interface Stored {
  /** path:hash pairs, ';'-separated, as antd's map reads them. */
  map: string;
  /** The style elements in document order (the cascade's order): their data- attributes and text. */
  styles: { attrs: [string, string][]; css: string }[];
}

/** The stored styles; none when storage is unavailable or holds something unreadable. */
function read(): Stored | undefined {
  try {
    const text = localStorage.getItem(KEY);
    return text ? (JSON.parse(text) as Stored) : undefined;
  } catch {
    return undefined;
  }
}

/** Before the first drawing: the styles of earlier visits back in the head, where antd's own go. */
export function restoreStyles(): void {
  try {
    // Another antd version's styles are of no more use.
    for (const key of Object.keys(localStorage)) if (key.startsWith(PREFIX) && key !== KEY) localStorage.removeItem(key);
  } catch {
    return; // storage unavailable: antd generates its styles as without this
  }
  const stored = read();
  if (typeof stored?.map !== 'string' || !Array.isArray(stored.styles)) return;
  const parts = document.createDocumentFragment();
  try {
    for (const { attrs, css } of stored.styles) {
      const el = document.createElement('style');
      for (const [name, value] of attrs) if (name.startsWith('data-')) el.setAttribute(name, value);
      el.textContent = css;
      parts.append(el);
    }
  } catch {
    return; // not what saveStyles writes: generated afresh, and saved over
  }
  const map = document.createElement('style');
  map.setAttribute(MAP_ATTR, MAP_ATTR);
  map.textContent = `.${MAP_ATTR}{content:"${stored.map.replace(/["\\]/g, '')}";}`;
  parts.append(map);
  document.head.prepend(parts);
  savedCount = stored.styles.length;
}

/** The path:hash map of the styles generated or found so far, from antd's own extraction (plain: text only). */
function currentMap(): Map<string, string> {
  const text = extractStyle(styleCache, { types: 'style', plain: true });
  return parseMap(/content:"([^"]*)";\}$/.exec(text)?.[1] ?? '');
}

/** antd's serialized map: path:hash pairs, ';'-separated. */
function parseMap(serialized: string): Map<string, string> {
  return new Map(serialized.split(';').filter(Boolean).map((pair) => pair.split(':') as [string, string]));
}

/** Keeps the styles in the document now (earlier visits' and this one's) with the map of all paths known. */
export function saveStyles(): void {
  try {
    const elements = [...document.querySelectorAll<HTMLStyleElement>(STYLE_SELECTOR)];
    if (elements.length === savedCount) return;
    const before = read();
    const map = parseMap(typeof before?.map === 'string' ? before.map : '');
    for (const [path, hash] of currentMap()) map.set(path, hash);
    const present = new Set(elements.map((el) => el.getAttribute('data-css-hash')));
    for (const [path, hash] of map) if (!present.has(hash)) map.delete(path);
    const stored: Stored = {
      map: [...map].map(([path, hash]) => `${path}:${hash}`).join(';'),
      styles: elements.map((el) => ({
        attrs: [...el.attributes].filter((a) => a.name.startsWith('data-')).map((a) => [a.name, a.value]),
        css: el.textContent ?? '',
      })),
    };
    const text = JSON.stringify(stored);
    if (text.length <= MAX_CHARS) localStorage.setItem(KEY, text);
    else localStorage.removeItem(KEY);
    savedCount = elements.length;
  } catch {
    // Storage full or unavailable: the next visit generates the styles, as without this.
  }
}

/** Saves once the first screen has settled, and again whenever the page is hidden or left. */
export function keepStyles(): void {
  const later = window.requestIdleCallback ?? ((fn: () => void) => setTimeout(fn, 2000));
  later(saveStyles, { timeout: 5000 });
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') saveStyles();
  });
  window.addEventListener('pagehide', saveStyles);
}
