/**
 * What docs/release.md names, as the tools that use it see it: the release workflow's steps and the names it
 * reads (.github/workflows/release.yml), the installers' file names as electron-builder computes them from
 * electron-builder.yml, and the update lists electron-updater asks each OS's till to read.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PlatformPackager } from 'app-builder-lib';
import { getConfig } from 'app-builder-lib/out/util/config/config.js';
import { Arch } from 'builder-util';
import { Provider } from 'electron-updater/out/providers/Provider.js';
import { getChannelFilename } from 'electron-updater/out/util.js';

export const ROOT = join(import.meta.dirname, '..', '..', '..');
export const read = (path: string): string => readFileSync(join(ROOT, path), 'utf8');
export const workflow = read('.github/workflows/release.yml');

/** The shell script of the workflow step called `name` (its `run:` line, or its `run: |` block). */
export function stepRun(name: string): string {
  const lines = workflow.split('\n');
  const at = lines.findIndex((l) => l.trim() === `- name: ${name}`);
  const nextStep = lines.findIndex((l, i) => i > at && /^\s+- (name|uses|run):/.test(l));
  const run = lines.findIndex((l, i) => i > at && (nextStep < 0 || i < nextStep) && /^\s+run: /.test(l));
  if (at < 0 || run < 0) throw new Error(`release.yml: no step "${name}" with a run:`);
  const line = lines[run]!;
  if (!line.trim().endsWith('|')) return line.trim().slice('run: '.length);
  const indent = line.search(/\S/);
  const body: string[] = [];
  for (const l of lines.slice(run + 1)) {
    if (l.trim() !== '' && l.search(/\S/) <= indent) break;
    body.push(l.slice(indent + 2));
  }
  return body.join('\n');
}

/** The names the workflow reads as `secrets.X` or `vars.X` (GitHub's own token is not a secret one sets). */
export function workflowNames(kind: 'secrets' | 'vars'): string[] {
  return [...new Set([...workflow.matchAll(new RegExp(`\\b${kind}\\.(\\w+)`, 'g'))].map((m) => m[1]!))].sort();
}

/** Runs `command` with bash in `cwd`; its status and output. */
export function sh(command: string, cwd: string, env: Record<string, string> = {}): { status: number | null; out: string } {
  const ran = spawnSync('bash', ['-c', command], { cwd, encoding: 'utf8', env: { ...process.env, ...env } });
  return { status: ran.status, out: `${ran.stdout}${ran.stderr}` };
}

type Options = { artifactName?: string | null } | null | undefined;

/**
 * The release's file names as electron-builder names them from electron-builder.yml: its own
 * PlatformPackager.expandArtifactNamePattern on a stand-in packager (config and app info only), called with the
 * default patterns its targets pass (NsisTarget, dmg-builder, ArchiveTarget, AppImageTarget, FpmTarget).
 */
export async function installerNames(version: string): Promise<string[]> {
  const config = await getConfig(ROOT, join(ROOT, 'electron-builder.yml'), null);
  const name = (JSON.parse(read('package.json')) as { name: string }).name;
  const productName = config.productName ?? name;
  const packager = (key: 'win' | 'mac' | 'linux') =>
    Object.create(PlatformPackager.prototype, {
      config: { value: config },
      platformSpecificBuildOptions: { value: config[key] ?? {} },
      appInfo: { value: { name, productName, sanitizedProductName: productName, version } },
      platform: { value: { buildConfigurationKey: key } },
    }) as {
      expandArtifactNamePattern(o: Options, ext: string, arch: Arch, pattern?: string, skipDefaultArch?: boolean): string;
    };
  const [win, mac, linux] = [packager('win'), packager('mac'), packager('linux')];
  return [
    win.expandArtifactNamePattern(config.nsis, 'exe', Arch.x64, '${productName} Setup ${version}.${ext}', false),
    ...[Arch.arm64, Arch.x64].flatMap((arch) => [
      mac.expandArtifactNamePattern(config.dmg, 'dmg', arch, '${productName}-${version}-${arch}.${ext}', true),
      mac.expandArtifactNamePattern(null, 'zip', arch, '${productName}-${version}-${arch}-${os}.${ext}', false),
    ]),
    linux.expandArtifactNamePattern(config.appImage, 'AppImage', Arch.x64),
    linux.expandArtifactNamePattern(config.deb, 'deb', Arch.x64, '${name}_${version}_${arch}.${ext}', false),
  ];
}

/** The update list electron-updater reads on `platform` (an x64 machine on Linux). */
export function updateListName(platform: 'win32' | 'darwin' | 'linux'): string {
  const provider = new (class extends Provider<never> {
    constructor() {
      super({ platform, isUseMultipleRangeRequest: true, executor: null as never });
    }
    getLatestVersion(): Promise<never> {
      throw new Error('not read');
    }
    resolveFiles(): never[] {
      return [];
    }
    channel(): string {
      return this.getDefaultChannelName();
    }
  })();
  const arch = process.env.TEST_UPDATER_ARCH;
  process.env.TEST_UPDATER_ARCH = 'x64';
  try {
    return getChannelFilename(provider.channel());
  } finally {
    if (arch === undefined) delete process.env.TEST_UPDATER_ARCH;
    else process.env.TEST_UPDATER_ARCH = arch;
  }
}
