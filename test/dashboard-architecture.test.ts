/**
 * The dashboard's feature zones (dashboard/.dependency-cruiser.cjs, docs/dashboard.md "Structure"):
 * a feature imports no other feature but the shared `catalogue/`, `components/` and `lib/` import
 * no feature, nothing imports `app/`. A violation fails here with the rule's name.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';

const ROOT = join(import.meta.dirname, '..');
const DASHBOARD = join(ROOT, 'dashboard');
const CRUISE = join(ROOT, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');
const CONFIG = join(DASHBOARD, '.dependency-cruiser.cjs');

function cruise(cwd: string): { status: number | null; out: string } {
  const r = spawnSync(process.execPath, [CRUISE, 'src', '--config', CONFIG, '--output-type', 'err'], { cwd, encoding: 'utf8' });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

describe('dashboard feature zones', () => {
  test('dashboard/src breaks no zone rule', () => {
    const r = cruise(DASHBOARD);
    assert.equal(r.status, 0, r.out);
  });

  test('the rules catch what they forbid, by name', () => {
    // A tree of its own with one violation of each rule, and the imports the zones allow.
    const dir = mkdtempSync(join(tmpdir(), 'zones-'));
    try {
      const file = (path: string, text: string) => {
        mkdirSync(join(dir, path, '..'), { recursive: true });
        writeFileSync(join(dir, path), text);
      };
      file('src/lib/api.ts', 'export const api = 1;\n');
      file('src/components/Field.tsx', "import { api } from '../lib/api.ts';\nexport const Field = api;\n");
      file('src/features/catalogue/queries.ts', "import { api } from '../../lib/api.ts';\nexport const useStaff = api;\n");
      file('src/features/calendar/queries.ts', "import { useStaff } from '../catalogue/queries.ts';\nexport const useAgenda = useStaff;\n");
      // feature-imports-no-other-feature
      file(
        'src/features/staff/StaffPage.tsx',
        "import { useAgenda } from '../calendar/queries.ts';\nexport const StaffPage = useAgenda;\n",
      );
      // shared-imports-no-feature
      file('src/lib/keys.ts', "import { StaffPage } from '../features/staff/StaffPage.tsx';\nexport const keys = StaffPage;\n");
      // nothing-imports-app
      file('src/app/sections.ts', 'export const SECTIONS = [];\n');
      file('src/features/calendar/Nav.tsx', "import { SECTIONS } from '../../app/sections.ts';\nexport const Nav = SECTIONS;\n");
      file('src/app/App.tsx', "import { Nav } from '../features/calendar/Nav.tsx';\nexport const App = Nav;\n");
      // no-circular
      file('src/lib/a.ts', "import { b } from './b.ts';\nexport const a = b;\n");
      file('src/lib/b.ts', "import { a } from './a.ts';\nexport const b = a;\n");
      file('tsconfig.json', readFileSync(join(DASHBOARD, 'tsconfig.json'), 'utf8'));
      const r = cruise(dir);
      assert.notEqual(r.status, 0, r.out);
      for (const rule of ['feature-imports-no-other-feature', 'shared-imports-no-feature', 'nothing-imports-app', 'no-circular']) {
        assert.match(r.out, new RegExp(`error ${rule}:`), `${rule} fires:\n${r.out}`);
      }
      // What the zones allow: a feature importing the shared catalogue, components and lib; app importing a feature.
      assert.doesNotMatch(r.out, /calendar\/queries\.ts → src\/features\/catalogue/, r.out);
      assert.doesNotMatch(r.out, /src\/app\/App\.tsx →/, r.out);
      assert.doesNotMatch(r.out, /src\/components\/Field\.tsx →/, r.out);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
