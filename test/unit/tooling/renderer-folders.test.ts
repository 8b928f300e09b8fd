/**
 * The renderer's folders import one another one way only (.dependency-cruiser.cjs, renderer-folder-cycle):
 * a small renderer laid out like the project's, with no circle between its files, is cruised with the
 * project's own config by the real dependency-cruiser CLI. Two folders that import each other, and three
 * that import each other in a ring, are refused; one-way arrows, imports inside a folder and the root
 * files (app above every folder, api below them) are not.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { cruiseFixture } from '../../support/cruise-fixture.js';

const TREE: Record<string, string> = {
  'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'ESNext', moduleResolution: 'Bundler', target: 'ES2023' } }),
  // The root: app imports the folders, every folder may import api.
  'renderer/src/api.ts': 'export const call = () => 1;',
  'renderer/src/app.ts':
    "import { sale } from './sale/use-sale';\nimport { now } from './hooks/use-now';\nexport const app = () => [sale, now];",
  // Allowed: generic hooks used by a screen's folder, one way; a folder's files import each other.
  'renderer/src/hooks/use-now.ts': "import { call } from '../api';\nexport const now = call;",
  'renderer/src/charge/sale-form.ts': "import { now } from '../hooks/use-now';\nexport const form = now;",
  'renderer/src/charge/charge-screen.ts': "import { form } from './sale-form';\nexport const screen = form;",
  'renderer/src/sale/use-sale.ts': "import { screen } from '../charge/charge-screen';\nexport const sale = screen;",
  // Refused: hooks/ and owner/ import each other (no two files form a circle, the folders do).
  'renderer/src/hooks/use-kept.ts': "import { gate } from '../owner/owner-gate';\nexport const kept = gate;",
  'renderer/src/owner/owner-gate.ts': "import { now } from '../hooks/use-now';\nexport const gate = now;",
  // Refused: a ring of three folders, takings/ -> day/ -> settings/ -> takings/.
  'renderer/src/takings/takings-cards.ts': "import { report } from '../day/day-report';\nexport const cards = report;",
  'renderer/src/day/day-report.ts': "import { till } from '../settings/till-form';\nexport const report = till;",
  'renderer/src/settings/till-form.ts': "import { call } from '../api';\nexport const till = call;",
  'renderer/src/settings/settings-screen.ts': "import { range } from '../takings/takings-range';\nexport const settings = range;",
  'renderer/src/takings/takings-range.ts': 'export const range = 1;',
};

const EXPECTED = [
  'renderer-folder-cycle renderer/src/day -> renderer/src/settings',
  'renderer-folder-cycle renderer/src/hooks -> renderer/src/owner',
  'renderer-folder-cycle renderer/src/owner -> renderer/src/hooks',
  'renderer-folder-cycle renderer/src/settings -> renderer/src/takings',
  'renderer-folder-cycle renderer/src/takings -> renderer/src/day',
];

let violations: string[];

beforeAll(() => {
  violations = cruiseFixture('renderer-folders', TREE, ['renderer']);
}, 60_000);

describe("the renderer's folders (dependency-cruiser, the project config)", () => {
  it('refuses two folders that import each other and a ring of three, and nothing else', () => {
    expect(violations).toEqual(EXPECTED);
  });
});
