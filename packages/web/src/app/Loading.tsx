/** Shown while a screen's code arrives: plain, so that it needs no component library yet. */
export function Loading() {
  return <div className="ev-loading" role="progressbar" aria-busy="true" />;
}
