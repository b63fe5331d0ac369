/** Command-line options of the benchmarks: `--name value`. */

/** The value after --name: undefined when the option is absent, '' when it stands alone (a flag). */
export function option(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0) return undefined;
  const next = process.argv[i + 1];
  return next !== undefined && !next.startsWith('--') ? next : '';
}

/** A numeric --name, or dflt when it is absent or given without a value. */
export function numberOption(name: string, dflt: number): number {
  const value = option(name);
  return value ? Number(value) : dflt;
}
