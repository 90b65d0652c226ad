/**
 * The Node versions the root package.json promises (`engines.node`) are ones every installed package
 * accepts: npm prints EBADENGINE for any package in the tree, dev-only ones included, whose
 * `engines.node` excludes the running Node, so a promise wider than the tree's is a warning (or a
 * failure) on a version we said works. Walks node_modules, nested node_modules and the workspaces.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import semver from 'semver';

const ROOT = join(import.meta.dirname, '..');
const root = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string }; workspaces: string[] };

interface Installed {
  where: string;
  name: string;
  version: string;
  node: unknown;
}

/** Every package.json below `dirs`' node_modules folders, each real folder once (workspaces are symlinked in). */
function installedPackages(dirs: string[]): Installed[] {
  const found: Installed[] = [];
  const seen = new Set<string>();
  const visit = (pkg: string) => {
    const real = realpathSync(pkg);
    if (seen.has(real)) return;
    seen.add(real);
    const file = join(pkg, 'package.json');
    if (existsSync(file)) {
      const p = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string; engines?: { node?: unknown } };
      found.push({ where: relative(ROOT, pkg) || '.', name: p.name ?? '?', version: p.version ?? '?', node: p.engines?.node });
    }
    walk(join(pkg, 'node_modules'));
  };
  const walk = (nodeModules: string) => {
    if (!existsSync(nodeModules)) return;
    for (const entry of readdirSync(nodeModules)) {
      if (entry.startsWith('.')) continue; // .bin, .package-lock.json, .vite caches
      if (entry.startsWith('@')) for (const scoped of readdirSync(join(nodeModules, entry))) visit(join(nodeModules, entry, scoped));
      else visit(join(nodeModules, entry));
    }
  };
  for (const dir of dirs) visit(dir);
  return found;
}

/**
 * Why `declared` is not safe with this package, or undefined. npm checks
 * `semver.satisfies(process.version, engines.node)`, so a range that is not valid semver warns too.
 * `subset`: every version we promise is one the package accepts, the lowest (minVersion) first of all.
 */
function excludes(declared: string, p: Installed): string | undefined {
  if (p.node === undefined) return undefined;
  const range = p.node;
  const name = `${p.name}@${p.version} (${p.where})`;
  if (typeof range !== 'string' || semver.validRange(range) === null)
    return `${name}: engines.node ${JSON.stringify(range)} is not a range`;
  const lowest = semver.minVersion(declared)!.version;
  if (!semver.satisfies(lowest, range)) return `${name}: engines.node "${range}" excludes Node ${lowest}, the lowest we declare`;
  if (!semver.subset(declared, range)) return `${name}: engines.node "${range}" excludes part of the declared "${declared}"`;
  return undefined;
}

test('the declared Node range is a valid semver range', () => {
  assert.ok(semver.validRange(root.engines.node), root.engines.node);
  assert.ok(semver.minVersion(root.engines.node));
});

test('every installed package (dev-only and nested ones, the workspaces) accepts every Node version we declare', () => {
  const all = installedPackages([ROOT, ...root.workspaces.map((w) => join(ROOT, w))]);
  // node_modules must be there, or the walk would pass on nothing.
  assert.ok(all.length > 100, `only ${all.length} packages found: run npm install first`);
  assert.ok(all.some((p) => p.name === '@fastify/cookie'));
  const problems = all.map((p) => excludes(root.engines.node, p)).filter((x) => x !== undefined);
  assert.deepEqual(problems, [], `npm warns EBADENGINE on a Node version package.json promises:\n${problems.join('\n')}`);
});

test('the walk finds a nested package that excludes the declared minimum, and names it', () => {
  const dir = mkdtempSync(join(tmpdir(), 'engines-'));
  try {
    const pkg = (path: string, json: object) => {
      mkdirSync(path, { recursive: true });
      writeFileSync(join(path, 'package.json'), JSON.stringify(json));
    };
    pkg(join(dir, 'node_modules', '@fastify', 'cookie'), { name: '@fastify/cookie', version: '11.1.5', engines: { node: '>=20' } });
    pkg(join(dir, 'node_modules', '@fastify', 'cookie', 'node_modules', 'cookie'), {
      name: 'cookie',
      version: '2.0.2',
      engines: { node: '>=22' },
    });
    const problems = installedPackages([dir]).map((p) => excludes('>=20.18', p));
    assert.equal(problems.filter((x) => x !== undefined).length, 1);
    assert.match(problems.find((x) => x !== undefined)!, /^cookie@2\.0\.2 .*excludes Node 20\.18\.0/);
    // a promise reaching past a package's upper bound is caught too
    assert.match(excludes('^20.19.0 || >=22', { where: 'x', name: 'dc', version: '1', node: '^20.12||^22||>=24' }) ?? '', /excludes part/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
