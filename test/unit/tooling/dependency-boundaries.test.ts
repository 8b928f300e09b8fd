/**
 * The import boundaries in .dependency-cruiser.cjs refuse what they claim: a small tree of deliberate
 * good and bad imports, laid out like the project, is cruised with the project's own config by the
 * real dependency-cruiser CLI, and every violation it reports is compared with the expected list.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { cruiseFixture } from '../../support/cruise-fixture.js';

const TREE: Record<string, string> = {
  'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'ESNext', moduleResolution: 'Bundler', target: 'ES2023' } }),
  // A domain with its front door and a file behind it.
  'electron/core/payments/index.ts': "export { PaymentsRepo } from './payments-repo.js';",
  'electron/core/payments/payments-repo.ts': 'export class PaymentsRepo {}',
  'electron/core/errors.ts': 'export class CoreError extends Error {}',
  // The wiring: the core's index builds the handlers wing, whose maps read the context and the domains' front doors.
  'electron/core/core-context.ts':
    "import type { PaymentsRepo } from './payments/index.js';\nexport type CoreContext = { repo: PaymentsRepo };",
  'electron/core/handlers/payments.ts':
    "import type { CoreContext } from '../core-context.js';\nimport { PaymentsRepo } from '../payments/index.js';\nexport const paymentHandlers = (_: Pick<CoreContext, 'repo'>) => new PaymentsRepo();",
  'electron/core/handlers/index.ts': "export { paymentHandlers } from './payments.js';",
  'electron/core/index.ts': "import { paymentHandlers } from './handlers/index.js';\nexport const core = paymentHandlers;",
  'electron/core/day/index.ts': "export { close } from './day-close.js';",
  // Allowed: another domain through the front door.
  'electron/core/day/day-close.ts': "import { PaymentsRepo } from '../payments/index.js';\nexport const close = () => new PaymentsRepo();",
  // Refused: a deep import into another domain's folder, from a domain and from the handlers wing.
  'electron/core/day/deep.ts': "import { PaymentsRepo } from '../payments/payments-repo.js';\nexport const deep = PaymentsRepo;",
  'electron/core/handlers/deep.ts': "import { PaymentsRepo } from '../payments/payments-repo.js';\nexport const deep = PaymentsRepo;",
  // Refused: a lower domain (payments) importing a higher one (day), a handler map left in a domain folder too.
  'electron/core/payments/upward.ts': "import { close } from '../day/index.js';\nexport const upward = close;",
  'electron/core/payments/handlers.ts': "import { close } from '../day/index.js';\nexport const paymentHandlers = close;",
  // Refused: a domain importing a handler file, or the wiring (the context, the core's index, the wing's front door).
  'electron/core/payments/to-handler.ts': "import { paymentHandlers } from '../handlers/payments.js';\nexport const h = paymentHandlers;",
  'electron/core/payments/to-wiring.ts': "import type { CoreContext } from '../core-context.js';\nexport type T = CoreContext;",
  'electron/core/day/to-index.ts': "import { core } from '../index.js';\nexport const c = core;",
  'electron/core/day/to-handlers.ts': "import { paymentHandlers } from '../handlers/index.js';\nexport const h = paymentHandlers;",
  // Refused: the wing importing the core's index above it.
  'electron/core/handlers/to-index.ts': "import { core } from '../index.js';\nexport const c = core;",
  // Refused: a core folder that is no listed domain (the layer rules would not see it).
  'electron/core/misc/thing.ts': "import { CoreError } from '../errors.js';\nexport const thing = CoreError;",
  // Refused: the shell past the core's index.
  'electron/main/shell.ts': "import { PaymentsRepo } from '../core/payments/index.js';\nexport const shell = PaymentsRepo;",
  // The relay: folders by concern, each with its front door.
  'relay/ops/index.ts': "export { metric } from './metrics.js';",
  'relay/ops/metrics.ts': 'export const metric = 1;',
  'relay/store/index.ts': "export type { Store } from './relay-store.js';",
  'relay/store/relay-store.ts': 'export type Store = { kind: string };',
  'relay/store/sqlite/index.ts': "export { open } from './sqlite-store.js';",
  // Allowed: an implementation reads the store's interface and ops through their front doors.
  'relay/store/sqlite/sqlite-store.ts':
    "import type { Store } from '../index.js';\nimport { metric } from '../../ops/index.js';\nexport const open = (): Store => ({ kind: String(metric) });",
  // Refused: a deep import into ops, ops importing the store above it, the interface importing an implementation.
  'relay/http/server.ts': "import { metric } from '../ops/metrics.js';\nexport const server = metric;",
  'relay/ops/upward.ts': "import type { Store } from '../store/index.js';\nexport type T = Store;",
  'relay/store/implementation.ts': "import { open } from './sqlite/index.js';\nexport const impl = open;",
  // http/ by caller, each folder with its front door. Allowed: the server through it. Refused: another caller's
  // folder past its front door, a caller's folder importing the server that wires it.
  'relay/http/tills/index.ts': "export { tills } from './till-api.js';",
  'relay/http/tills/till-api.ts': 'export const tills = 1;',
  'relay/http/router.ts': "import { tills } from './tills/index.js';\nexport const router = tills;",
  'relay/http/owner/deep.ts': "import { tills } from '../tills/till-api.js';\nexport const deep = tills;",
  'relay/http/owner/up.ts': "import { server } from '../server.js';\nexport const up = server;",
  // Refused: an import circle (in shared/, where no folder rule applies).
  'shared/a.ts': "import { b } from './b.js';\nexport const a = () => b;",
  'shared/b.ts': "import { a } from './a.js';\nexport const b = () => a;",
};

const EXPECTED = [
  'core-domain-listed electron/core/misc/thing.ts -> electron/core/errors.ts',
  'core-front-door electron/core/day/deep.ts -> electron/core/payments/payments-repo.ts',
  'core-front-door electron/core/handlers/deep.ts -> electron/core/payments/payments-repo.ts',
  'core-front-door electron/core/payments/to-handler.ts -> electron/core/handlers/payments.ts',
  'core-layer-up electron/core/day/to-handlers.ts -> electron/core/handlers/index.ts',
  'core-layer-up electron/core/day/to-index.ts -> electron/core/index.ts',
  'core-layer-up electron/core/handlers/to-index.ts -> electron/core/index.ts',
  'core-layer-up electron/core/payments/handlers.ts -> electron/core/day/index.ts',
  'core-layer-up electron/core/payments/to-handler.ts -> electron/core/handlers/payments.ts',
  'core-layer-up electron/core/payments/to-wiring.ts -> electron/core/core-context.ts',
  'core-layer-up electron/core/payments/upward.ts -> electron/core/day/index.ts',
  'no-circular shared/a.ts -> shared/b.ts',
  'relay-front-door relay/http/owner/deep.ts -> relay/http/tills/till-api.ts',
  'relay-front-door relay/http/server.ts -> relay/ops/metrics.ts',
  'relay-layer-up relay/http/owner/up.ts -> relay/http/server.ts',
  'relay-layer-up relay/ops/upward.ts -> relay/store/index.ts',
  'relay-layer-up relay/store/implementation.ts -> relay/store/sqlite/index.ts',
  'shell-through-core-index electron/main/shell.ts -> electron/core/payments/index.ts',
];

let violations: string[];

beforeAll(() => {
  violations = cruiseFixture('deps', TREE, ['electron', 'relay', 'shared']);
}, 60_000);

describe('import boundaries (dependency-cruiser, the project config)', () => {
  it('refuses deep imports, upward imports, a circle and the shell past the core index, and nothing else', () => {
    expect(violations).toEqual(EXPECTED);
  });

  const upward = (from: string) => violations.filter((v) => v.startsWith(`core-layer-up electron/core/${from} `));

  it('refuses a lower domain importing a higher one, with no exception for a file named handlers.ts', () => {
    expect(upward('payments/upward.ts')).toEqual(['core-layer-up electron/core/payments/upward.ts -> electron/core/day/index.ts']);
    expect(upward('payments/handlers.ts')).toEqual(['core-layer-up electron/core/payments/handlers.ts -> electron/core/day/index.ts']);
  });

  it('refuses a domain importing a handler file or the handlers wing', () => {
    expect(upward('payments/to-handler.ts')).toHaveLength(1);
    expect(upward('day/to-handlers.ts')).toHaveLength(1);
  });

  it("refuses a domain importing the wiring (the context, the core's index), and the wing importing the index", () => {
    expect(upward('payments/to-wiring.ts')).toHaveLength(1);
    expect(upward('day/to-index.ts')).toHaveLength(1);
    expect(upward('handlers/to-index.ts')).toHaveLength(1);
  });

  it('allows the wiring downward: the index to the wing, the wing to the context and the front doors', () => {
    const allowed = [
      'electron/core/index.ts',
      'electron/core/handlers/index.ts',
      'electron/core/handlers/payments.ts',
      'electron/core/core-context.ts',
    ];
    expect(violations.filter((v) => allowed.some((file) => v.includes(` ${file} ->`)))).toEqual([]);
  });
});
