/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Path prefix the portal is served under (default /portal/). */
  readonly VITE_BASE_PATH?: string;
  /** ws or wss, for the LMS status socket. */
  readonly VITE_WS_SCHEME?: string;
}
