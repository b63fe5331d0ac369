import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The production server must not load test support (src/testing/) or the simulator: walks every
 * import (static, re-export, type-only and literal dynamic import()) reachable from an entry
 * point, following relative paths and the workspace packages (@ev/…), not third-party modules.
 */

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const PACKAGES = resolve(SRC, '../..');
const TESTING = join(SRC, 'testing');

/** @ev/name → that workspace package's entry file ("." of its exports). */
function workspaceEntry(name: string): string | null {
  const dir = join(PACKAGES, name);
  const manifest = join(dir, 'package.json');
  if (!existsSync(manifest)) return null;
  const { exports } = JSON.parse(readFileSync(manifest, 'utf8'));
  const entry = typeof exports === 'string' ? exports : exports?.['.'];
  return typeof entry === 'string' ? join(dir, entry) : null;
}

function asFile(path: string): string | null {
  for (const candidate of [path, `${path}.ts`, path.replace(/\.js$/, '.ts'), join(path, 'index.ts')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

interface Walk {
  /** Absolute paths of the source files reached. */
  files: Set<string>;
  /** Each file's imports among the files reached. */
  edges: Map<string, string[]>;
  /** Workspace package names imported (`@ev/simulator`, …), with the file importing each first. */
  packages: Map<string, string>;
}

function walk(entry: string): Walk {
  const files = new Set<string>();
  const packages = new Map<string, string>();
  const edges = new Map<string, string[]>();
  const queue = [entry];
  while (queue.length) {
    const file = queue.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    edges.set(file, []);
    for (const { fileName: spec } of importedFiles) {
      let target: string | null = null;
      if (spec.startsWith('.')) target = asFile(resolve(dirname(file), spec));
      else if (spec.startsWith('@ev/')) {
        const name = spec.slice('@ev/'.length).split('/')[0];
        if (!packages.has(spec)) packages.set(spec, file);
        const sub = spec.slice(`@ev/${name}`.length);
        target = sub ? asFile(join(PACKAGES, name, sub)) : workspaceEntry(name);
      }
      // Missing files are the type checker's to report; third-party and node: modules are not walked.
      if (target) edges.get(file)!.push(target);
      if (target && !files.has(target)) queue.push(target);
    }
  }
  return { files, packages, edges };
}

/** One import cycle among the files of a walk (as relative paths, the first file repeated at the end), or null. */
function findCycle({ edges }: Walk, base: string): string[] | null {
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (file: string): string[] | null => {
    if (state.get(file) === 'done') return null;
    if (state.get(file) === 'open') return [...path.slice(path.indexOf(file)), file].map((f) => relative(base, f));
    state.set(file, 'open');
    path.push(file);
    for (const next of edges.get(file) ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    path.pop();
    state.set(file, 'done');
    return null;
  };
  for (const file of edges.keys()) {
    const cycle = visit(file);
    if (cycle) return cycle;
  }
  return null;
}

const rel = (file: string) => relative(SRC, file);

describe('production imports', () => {
  it('nothing reachable from main.ts is test support, the simulator or the demo', () => {
    const { files, packages } = walk(join(SRC, 'main.ts'));
    // The walk really covers the server: its start, the API, the OCPP endpoint, the database.
    for (const file of ['start.ts', 'app.ts', 'db/seed.ts', 'db/client.ts', 'ocpp/central-system.ts', 'ocpp/handlers.ts', 'resources/routes.ts']) {
      expect([...files].map(rel), file).toContain(file);
    }
    expect([...files].filter((f) => f.startsWith(TESTING + '/')).map(rel)).toEqual([]);
    expect([...files].filter((f) => f.endsWith('.test.ts')).map(rel)).toEqual([]);
    expect([...files].map(rel)).not.toContain('demo.ts');
    const simulator = [...packages].filter(([spec]) => spec === '@ev/simulator' || spec.startsWith('@ev/simulator/'));
    expect(simulator.map(([spec, by]) => `${spec} imported by ${relative(PACKAGES, by)}`)).toEqual([]);
    expect([...files].filter((f) => f.startsWith(join(PACKAGES, 'simulator') + '/')).map((f) => relative(PACKAGES, f))).toEqual([]);
  });

  it('the walk does find such imports (the demo runs the simulator; the test server is test support)', () => {
    expect([...walk(join(SRC, 'demo.ts')).packages.keys()]).toContain('@ev/simulator');
    const testServer = walk(join(TESTING, 'server.ts')).files;
    expect(testServer).toContain(join(TESTING, 'database.ts'));
    expect(testServer).toContain(join(SRC, 'app.ts'));
  });

  it('has no import cycle in the server, the demo, the test support or the simulator', () => {
    for (const entry of [join(SRC, 'main.ts'), join(SRC, 'demo.ts'), join(TESTING, 'server.ts'), join(TESTING, 'charging-load.ts'), join(PACKAGES, 'simulator/src/index.ts')]) {
      expect(findCycle(walk(entry), PACKAGES), relative(PACKAGES, entry)).toBeNull();
    }
  });
});
