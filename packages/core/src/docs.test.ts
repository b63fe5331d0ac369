import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from './errors.ts';

// The README is what a newcomer reads first (issue 28): short, with the reference material in docs/ and reachable
// from it. These checks keep it so as pages are added and headings renamed.
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const read = (file: string) => readFileSync(join(root, file), 'utf8');
const docs = readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`);

/** GitHub's anchor of each heading of a Markdown file. */
function anchors(file: string): Set<string> {
  const headings = read(file).split('\n').filter((l) => /^#+ /.test(l));
  return new Set(headings.map((l) => l.replace(/^#+ /, '').trim().toLowerCase().replace(/[^\w\- ]/g, '').replaceAll(' ', '-')));
}

describe('README and docs/', () => {
  it('the README fits on a few screens and names the two commands', () => {
    const readme = read('README.md');
    expect(readme.split('\n').length).toBeLessThan(200);
    expect(readme).toContain('npm install && npm start');
    expect(readme).toContain('npm test');
  });

  it('the error-code table of docs/api.md lists every code of the catalogue with what raises it', () => {
    // A row may name several codes of one condition ('10030 / 10031 / 10032').
    const rows = read('docs/api.md').split('\n').filter((l) => /^\| \d+( \/ \d+)* \|/.test(l));
    const listed = new Map(rows.flatMap((l) => l.split('|')[1].split('/').map((c) => [Number(c), l.split('|')[3]?.trim()] as const)));
    for (const code of Object.values(ERROR_CODES)) expect(listed.get(code), `code ${code}`).toBeTruthy();
  });

  it('the README links every page of docs/', () => {
    const readme = read('README.md');
    expect(docs.filter((page) => !readme.includes(`](${page})`))).toEqual([]);
  });

  it('every relative link of the README and docs/ reaches its file and heading', () => {
    const broken: string[] = [];
    for (const file of ['README.md', ...docs]) {
      for (const [, link] of read(file).matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(link)) continue;
        const [path, anchor] = link.split('#');
        const target = path ? join(dirname(file), path) : file;
        const ok = existsSync(join(root, target)) && (!anchor || anchors(target).has(anchor));
        if (!ok) broken.push(`${file}: ${link}`);
      }
    }
    expect(broken).toEqual([]);
  });
});
