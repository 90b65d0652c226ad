/**
 * Every link of the repository's documentation (README.md, docs/**, clients/**\/README.md) resolves
 * inside the repository: a relative link names a file or folder of the repository that git does not
 * ignore (a clone has it), and an anchor names a heading of the Markdown file it points to. A link
 * out of the repository (`../shared/…`), to a file a clone lacks, or over `http:`/`file:` (a
 * reader's clone has no such server or file) fails. Public web pages over `https:` and `mailto:`
 * are not repository links and are left alone.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { test } from 'node:test';

const ROOT = resolve(import.meta.dirname, '..');

function markdownFiles(): string[] {
  const out = ['README.md'];
  const walk = (dir: string, take: (name: string) => boolean) => {
    if (!existsSync(join(ROOT, dir))) return;
    for (const name of readdirSync(join(ROOT, dir)).sort()) {
      if (name === 'node_modules' || name.startsWith('.')) continue;
      const path = join(dir, name);
      if (statSync(join(ROOT, path)).isDirectory()) walk(path, take);
      else if (take(name)) out.push(path);
    }
  };
  walk('docs', (name) => name.endsWith('.md'));
  walk('clients', (name) => name === 'README.md');
  return out;
}

/** The text outside fenced code blocks and inline code spans, where a `](…)` is really a link. */
function prose(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[ \t]*$/gm, '').replace(/(`+)[\s\S]*?\1/g, '');
}

function linkTargets(markdown: string): string[] {
  const text = prose(markdown);
  const inline = [...text.matchAll(/\]\(\s*<?([^)\s>]*)>?(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)/g)].map((m) => m[1]!);
  const references = [...text.matchAll(/^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s.*)?$/gm)].map((m) => m[1]!);
  return [...inline, ...references];
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to `-`, repeats numbered. */
function anchors(markdown: string): Set<string> {
  const out = new Set<string>();
  const seen = new Map<string, number>();
  const text = markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[ \t]*$/gm, '');
  for (const m of text.matchAll(/^#{1,6}[ \t]+(.+?)[ \t#]*$/gm)) {
    const base = m[1]!
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, '')
      .replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** What is wrong with each link of `file` (repository-relative), given which paths git ignores. */
function problems(file: string, markdown: string, ignored: (path: string) => boolean): string[] {
  const out: string[] = [];
  for (const target of linkTargets(markdown)) {
    const where = `${file}: (${target})`;
    if (target === '') {
      out.push(`${where} is empty`);
      continue;
    }
    const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(target)?.[1]?.toLowerCase();
    if (scheme === 'https' || scheme === 'mailto') continue;
    if (scheme !== undefined || target.startsWith('//')) {
      out.push(`${where} is not a repository link (${scheme ?? 'protocol-relative'})`);
      continue;
    }
    const [rawPath = '', fragment] = target.split('#', 2);
    const path = decodeURIComponent(rawPath);
    if (isAbsolute(path)) {
      out.push(`${where} is an absolute path`);
      continue;
    }
    const resolved = path === '' ? join(ROOT, file) : resolve(ROOT, dirname(file), path);
    const inRepo = relative(ROOT, resolved);
    if (inRepo === '..' || inRepo.startsWith(`..${sep}`) || isAbsolute(inRepo)) {
      out.push(`${where} points outside the repository`);
      continue;
    }
    if (!existsSync(resolved)) {
      out.push(`${where}: ${inRepo} does not exist`);
      continue;
    }
    if (ignored(inRepo)) {
      out.push(`${where}: ${inRepo} is ignored by git, so a clone lacks it`);
      continue;
    }
    if (fragment !== undefined && resolved.endsWith('.md')) {
      const headings = anchors(path === '' ? markdown : readFileSync(resolved, 'utf8'));
      if (!headings.has(decodeURIComponent(fragment))) out.push(`${where}: no heading #${fragment} in ${inRepo}`);
    }
  }
  return out;
}

function gitIgnored(paths: string[]): Set<string> {
  const r = spawnSync('git', ['check-ignore', '--stdin'], { cwd: ROOT, input: paths.join('\n'), encoding: 'utf8' });
  // 1: none ignored; 128: not a git checkout (an unpacked archive), where existence is all there is
  if (r.status !== 0) return new Set();
  return new Set(r.stdout.split('\n').filter(Boolean));
}

const FILES = markdownFiles();

test('the documentation is found, and has links to check', () => {
  for (const f of ['README.md', 'docs/integrator-guide.md', 'docs/webhooks.md', 'docs/decisions.md']) assert.ok(FILES.includes(f), f);
  const count = FILES.reduce((n, f) => n + linkTargets(readFileSync(join(ROOT, f), 'utf8')).length, 0);
  assert.ok(count >= 30, `${count} links`);
});

test('every link of README.md, docs/ and the clients READMEs resolves inside the repository', () => {
  const texts = new Map(FILES.map((f) => [f, readFileSync(join(ROOT, f), 'utf8')] as const));
  const candidates = [...texts].flatMap(([file, text]) =>
    linkTargets(text)
      .filter((t) => !/^[a-z][a-z0-9+.-]*:/i.test(t) && !t.startsWith('#') && t !== '')
      .map((t) => relative(ROOT, resolve(ROOT, dirname(file), decodeURIComponent(t.split('#')[0]!)))),
  );
  const ignored = gitIgnored(candidates);
  const found = [...texts].flatMap(([file, text]) => problems(file, text, (p) => ignored.has(p)));
  assert.deepEqual(found, []);
});

test('the checker catches what it is for', () => {
  const bad = [
    '[contract](../shared/spec/booking-api-v1.md)',
    '[gone](docs/no-such-file.md)',
    '[anchor](docs/integrator-guide.md#no-such-heading)',
    '[local](http://127.0.0.1:3000/docs)',
    '[data](data/booking-api.lock)',
    '[self](#nowhere)',
  ].join('\n');
  assert.equal(problems('README.md', bad, (p) => p.startsWith('data')).length, 6);
  const good = [
    '[guide](docs/integrator-guide.md#quick-start)',
    '![shot](docs/screenshots/calendar.png "the calendar")',
    '[web](https://example.com/x)',
    '`[not a link](../outside.md)`',
    '```sh',
    'echo "[nor this](../outside.md)"',
    '```',
    '# A heading, with: punctuation',
    '[here](#a-heading-with-punctuation)',
  ].join('\n');
  assert.deepEqual(
    problems('README.md', good, () => false),
    [],
  );
});
