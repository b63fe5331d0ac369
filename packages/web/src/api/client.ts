import { clearToken, getToken } from './token.ts';

export type QueryValue = string | number | boolean | null | undefined | (string | number)[];
export type Query = Record<string, QueryValue>;

/** A failed call. status 0 means the server could not be reached. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(status ? `HTTP ${status}` : 'Network error');
  }
}

interface CallOptions {
  query?: Query;
  body?: unknown;
  /**
   * Option lists are loaded on many screens for columns the user may not be allowed to read; spec §8 says
   * their failures are ignored, so a 403 there must not sign the user out.
   */
  quiet403?: boolean;
}

type AuthFailureHandler = (status: 401 | 403) => void;
let onAuthFailure: AuthFailureHandler = () => {};
/** The app registers how to leave after 401 (to /login) or 403 (to /error/403); the client only knows HTTP. */
export function setAuthFailureHandler(fn: AuthFailureHandler) {
  onAuthFailure = fn;
}

/**
 * Repeated keys for arrays (multiselect filters, opts, date ranges); undefined and null are left
 * out, while '' is sent: for a list it clears a filter the server would otherwise apply by default.
 */
export function buildQuery(query?: Query): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const v of value) params.append(key, String(v));
    else params.append(key, typeof value === 'boolean' ? (value ? '1' : '0') : String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

async function readBody(res: Response): Promise<unknown> {
  const text = await res.text();
  if (!text) return null;
  if (res.headers.get('content-type')?.includes('json')) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

async function send(method: string, path: string, opts: CallOptions = {}): Promise<Response> {
  const headers: Record<string, string> = {};
  const token = getToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  if (opts.body !== undefined) headers['Content-Type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(`/api${path}${buildQuery(opts.query)}`, {
      method,
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    });
  } catch {
    throw new ApiError(0, null);
  }
  if (res.status === 401 || (res.status === 403 && !opts.quiet403)) {
    clearToken();
    onAuthFailure(res.status);
  }
  if (!res.ok) throw new ApiError(res.status, await readBody(res));
  return res;
}

async function call<T>(method: string, path: string, opts?: CallOptions): Promise<T> {
  return (await readBody(await send(method, path, opts))) as T;
}

function fileName(res: Response, fallback: string): string {
  const header = res.headers.get('content-disposition') ?? '';
  const star = /filename\*=UTF-8''([^;]+)/i.exec(header);
  if (star) return decodeURIComponent(star[1]);
  const plain = /filename="?([^";]+)"?/i.exec(header);
  return plain ? plain[1] : fallback;
}

/** The body as a blob, telling `onProgress` the bytes received so far as they arrive (a large export takes a while). */
export async function readBlob(res: Response, onProgress?: (bytes: number) => void): Promise<Blob> {
  if (!onProgress || !res.body) return res.blob();
  const parts: Uint8Array<ArrayBuffer>[] = [];
  let bytes = 0;
  const reader = res.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
    bytes += value.length;
    onProgress(bytes);
  }
  return new Blob(parts, { type: res.headers.get('content-type') ?? '' });
}

export const api = {
  get: <T>(path: string, query?: Query, opts?: Omit<CallOptions, 'query'>) => call<T>('GET', path, { ...opts, query }),
  post: <T>(path: string, body?: unknown) => call<T>('POST', path, { body }),
  put: <T>(path: string, body?: unknown) => call<T>('PUT', path, { body }),
  del: <T>(path: string) => call<T>('DELETE', path),
  /** Files (Excel, PDF) need the Authorization header, so they are fetched and handed to the browser as a blob. */
  async download(path: string, query: Query | undefined, fallbackName: string, onProgress?: (bytes: number) => void): Promise<void> {
    const res = await send('GET', path, { query });
    const url = URL.createObjectURL(await readBlob(res, onProgress));
    const a = document.createElement('a');
    a.href = url;
    a.download = fileName(res, fallbackName);
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  },
};

/** Base URL of the portal's sockets (LMS status), from the build-time scheme. */
export function socketUrl(path: string): string {
  return `${import.meta.env.VITE_WS_SCHEME || 'ws'}://${window.location.host}/api${path}`;
}
