/**
 * Import boundaries, checked by dependency-cruiser (`npm run lint:deps`, part of `npm test`).
 * docs/architecture.md draws the map these rules keep true.
 *
 * Why dependency-cruiser rather than eslint-plugin-boundaries: it sees the whole module graph, so one
 * tool refuses import circles (eslint would need eslint-plugin-import's slow no-cycle on top), it
 * matches a rule's `to` against the folder its `from` matched ($1), which is exactly "only through
 * another folder's front door", and it draws the graph (`npm run deps:graph`).
 */
const CORE = '^electron/core/';
/** The core's domains, lowest first: a domain may use only the domains before it. */
const CORE_DOMAINS = [
  'storage',
  'printing',
  'settings',
  'people',
  'takings',
  'alerts',
  'payments',
  'relay-link',
  'shifts',
  'history',
  'day',
  'settle',
  'owner-links',
  'updates',
];
/** Root files every part of the core may use: they import no domain but storage (embedded's keychain). */
const CORE_BASE = ['errors', 'logger', 'dispatcher', 'event-hub', 'embedded'];
/**
 * The wiring above the domains, highest first: the root index.ts builds the core, the handlers wing
 * (`handlers/`, one map per domain) answers the channels, core-context.ts names what the handlers reach.
 * Each may use what comes after it and every domain; nothing below imports it.
 */
const CORE_WIRING = ['index\\.ts$', 'handlers/', 'core-context\\.ts$'];
const SOURCES = '^(electron|relay|sandbox|shared|renderer|scripts|bench)/';
/** The relay's folders, lowest first: cli -> http -> store -> ops -> shared/. */
const RELAY_LAYERS = ['ops', 'store', 'http', 'cli'];
/** A relay folder's front door (the store's two implementations have their own). */
const RELAY_DOOR = ['^relay/[^/]+/index\\.ts$', '^relay/store/(sqlite|pg)/index\\.ts$'];
/** A renderer folder, as a folder-scoped rule names it (no trailing slash); the files in renderer/src/ itself are none. */
const RENDERER_FOLDER = '^renderer/src/[^/]+$';
/**
 * Relay folders split into folders of their own, each with its front door, and the files that wire
 * them together (which nothing inside them imports): http/ by caller, store/pg/ by job.
 */
const RELAY_SPLIT = {
  'relay/http': ['index', 'server', 'router'],
  'relay/store/pg': ['index', 'pg-store'],
};

const any = (names) => `(${names.join('|')})`;
/** A path pattern as the file or folder it names, for the rules' comments. */
const plain = (pattern) => pattern.replace(/\\|\$/g, '');

function coreLayerRules() {
  const rules = [];
  CORE_DOMAINS.forEach((domain, rank) => {
    const higher = CORE_DOMAINS.slice(rank + 1);
    if (higher.length === 0) return;
    rules.push({
      name: 'core-layer-up',
      comment: `${domain}/ sits below ${higher.join(', ')}: a lower domain never imports a higher one (docs/architecture.md).`,
      severity: 'error',
      from: { path: `${CORE}${domain}/` },
      to: { path: `${CORE}${any(higher)}/` },
    });
  });
  return rules;
}

function coreWiringRules() {
  const rules = [];
  CORE_WIRING.forEach((part, rank) => {
    const higher = CORE_WIRING.slice(0, rank);
    if (higher.length === 0) return;
    rules.push({
      name: 'core-layer-up',
      comment: `${plain(part)} never imports what wires it above: ${higher.map(plain).join(', ')}.`,
      severity: 'error',
      from: { path: `${CORE}${part}` },
      to: { path: `${CORE}${any(higher)}` },
    });
  });
  return rules;
}

/** Inside a split folder: each inner folder is reached only through its index.ts and never imports the wiring. */
function relaySplitRules() {
  return Object.entries(RELAY_SPLIT).flatMap(([parent, wiring]) => {
    const door = `^${parent}/[^/]+/index\\.ts$`;
    return [
      {
        name: 'relay-front-door',
        comment: `A folder inside ${parent}/ is reached from another folder beside it only through its index.ts.`,
        severity: 'error',
        from: { path: `^${parent}/([^/]+)/` },
        to: { path: `^${parent}/[^/]+/`, pathNot: [`^${parent}/$1/`, door] },
      },
      {
        name: 'relay-front-door',
        comment: `${parent}/'s own files reach the folders inside it only through their index.ts.`,
        severity: 'error',
        from: { path: `^${parent}/[^/]+$` },
        to: { path: `^${parent}/[^/]+/`, pathNot: door },
      },
      {
        name: 'relay-layer-up',
        comment: `The folders inside ${parent}/ never import what wires them (${wiring.join(', ')}).`,
        severity: 'error',
        from: { path: `^${parent}/[^/]+/` },
        to: { path: `^${parent}/${any(wiring)}\\.ts$` },
      },
    ];
  });
}

function relayRules() {
  const layers = RELAY_LAYERS.slice(0, -1).map((folder, rank) => ({
    name: 'relay-layer-up',
    comment: `relay/${folder}/ sits below ${RELAY_LAYERS.slice(rank + 1).join(', ')}: it never imports them.`,
    severity: 'error',
    from: { path: `^relay/${folder}/` },
    to: { path: `^relay/${any(RELAY_LAYERS.slice(rank + 1))}/` },
  }));
  return [
    {
      name: 'relay-front-door',
      comment: 'A relay folder is reached from another folder only through its index.ts.',
      severity: 'error',
      from: { path: '^relay/([^/]+)/' },
      to: { path: '^relay/[^/]+/', pathNot: ['^relay/$1/', ...RELAY_DOOR] },
    },
    {
      name: 'relay-front-door',
      comment: "The store's implementations (sqlite/, pg/) are reached from each other only through their index.ts.",
      severity: 'error',
      from: { path: '^relay/store/([^/]+)/' },
      to: { path: '^relay/store/[^/]+/', pathNot: ['^relay/store/$1/', ...RELAY_DOOR] },
    },
    {
      name: 'relay-front-door',
      comment: 'Outside relay/, its folders are reached only through their index.ts.',
      severity: 'error',
      from: { path: SOURCES, pathNot: '^relay/[^/]+/' },
      to: { path: '^relay/[^/]+/', pathNot: RELAY_DOOR },
    },
    {
      name: 'relay-layer-up',
      comment: "The store's interface (relay/store/*.ts) never imports an implementation: they import it.",
      severity: 'error',
      from: { path: '^relay/store/[^/]+\\.ts$' },
      to: { path: '^relay/store/(sqlite|pg)/' },
    },
    ...relaySplitRules(),
    ...layers,
  ];
}

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import circles anywhere in the programs (type-only imports count: they tie the files together all the same).',
      severity: 'error',
      from: { path: SOURCES },
      to: { circular: true },
    },
    {
      name: 'core-front-door',
      comment: 'A core folder (a domain, the handlers wing) is reached from another folder only through its index.ts.',
      severity: 'error',
      from: { path: `${CORE}([^/]+)/` },
      to: { path: `${CORE}[^/]+/`, pathNot: [`${CORE}$1/`, `${CORE}[^/]+/index\\.ts$`] },
    },
    {
      name: 'core-front-door',
      comment: "Outside the core's folders, a core folder is reached only through its index.ts.",
      severity: 'error',
      from: { path: SOURCES, pathNot: `${CORE}[^/]+/` },
      to: { path: `${CORE}[^/]+/`, pathNot: `${CORE}[^/]+/index\\.ts$` },
    },
    {
      name: 'core-domain-listed',
      comment: 'Every folder of the core is a domain of CORE_DOMAINS (in its place in the order) or the handlers wing.',
      severity: 'error',
      from: { path: `${CORE}[^/]+/`, pathNot: `${CORE}${any([...CORE_DOMAINS, 'handlers'])}/` },
      to: {},
    },
    {
      name: 'shell-through-core-index',
      comment: 'The shells (Electron, browser mode) reach the core only through electron/core/index.ts.',
      severity: 'error',
      from: { path: '^electron/(main|preload|browser)/' },
      to: { path: CORE, pathNot: `${CORE}index\\.ts$` },
    },
    {
      name: 'core-layer-up',
      comment: 'A domain never imports the wiring above it: the core index, the handlers wing, the context.',
      severity: 'error',
      from: { path: `${CORE}${any(CORE_DOMAINS)}/` },
      to: { path: `${CORE}${any(CORE_WIRING)}` },
    },
    {
      name: 'core-layer-up',
      comment: "The core's base files (errors, logger, dispatcher, event hub, embedded services) import no domain but storage.",
      severity: 'error',
      from: { path: `${CORE}${any(CORE_BASE)}\\.ts$` },
      to: { path: [`${CORE}${any(CORE_WIRING)}`, `${CORE}[^/]+/`], pathNot: `${CORE}storage/` },
    },
    ...coreLayerRules(),
    ...coreWiringRules(),
    ...relayRules(),
    {
      name: 'renderer-folder-cycle',
      comment:
        "Import arrows between the renderer's folders (renderer/src/<folder>/) run one way: no folder imports, directly or through others, a folder that imports it (its root files, main/app/screens above and api/format below, are no folder).",
      severity: 'error',
      scope: 'folder',
      from: { path: RENDERER_FOLDER },
      to: { path: RENDERER_FOLDER, circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|out|dist|coverage|test-results|relay/dist)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.d.ts'],
    },
    reporterOptions: {
      dot: { collapsePattern: '^(node_modules/[^/]+|electron/core/[^/]+/|relay/[^/]+/|renderer/src/[^/]+/|shared/[^/]+/)' },
    },
  },
};
