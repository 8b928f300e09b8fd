/**
 * Stand-ins for the two packaging tools that cannot be downloaded here (only the npm and Debian registries are
 * reachable), each said so by name:
 *  - STAND-IN ELECTRON: a folder for electron-builder's `electronDist` whose "binary" is a small file carrying
 *    Electron's fuse wire (the sentinel @electron/fuses looks for, then the wire at Electron's own defaults),
 *    so electron-builder flips the fuses in it exactly as in the real binary and the test reads them back;
 *  - STAND-IN FPM (CUSTOM_FPM_PATH): electron-builder builds the deb by running fpm, a Ruby tool it downloads.
 *    The stand-in writes the arguments it was given to a file and a one-line stand-in package where fpm would, so the
 *    test reads the deb's Depends exactly as electron-builder resolved them.
 */
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** @electron/fuses' sentinel (node_modules/@electron/fuses/dist/constants.js): the wire follows it. */
export const FUSE_SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
/** Fuse order of wire version 1 (@electron/fuses' FuseV1Options). */
export const FUSES = [
  'RunAsNode',
  'EnableCookieEncryption',
  'EnableNodeOptionsEnvironmentVariable',
  'EnableNodeCliInspectArguments',
  'EnableEmbeddedAsarIntegrityValidation',
  'OnlyLoadAppFromAsar',
  'LoadBrowserProcessSpecificV8Snapshot',
  'GrantFileProtocolExtraPrivileges',
] as const;
/** What a downloaded Electron ships ('1' on, '0' off), in FUSES order: the packaging must change it. */
const ELECTRON_DEFAULTS = '10110001';

export function makeStandInElectron(dir: string, version: string): string {
  mkdirSync(dir, { recursive: true });
  const binary = Buffer.concat([
    Buffer.from('#!/bin/sh\necho "stand-in Electron: cannot run the app" >&2\nexit 1\n# '),
    Buffer.from(FUSE_SENTINEL),
    Buffer.from([1, ELECTRON_DEFAULTS.length]),
    Buffer.from(ELECTRON_DEFAULTS),
    Buffer.from('\n'),
  ]);
  writeFileSync(join(dir, 'electron'), binary, { mode: 0o755 });
  writeFileSync(join(dir, 'version'), version);
  return dir;
}

/** The fuses as the packaged binary carries them: name -> on/off. */
export function readFuses(binary: Buffer): Record<string, boolean> {
  const at = binary.indexOf(FUSE_SENTINEL);
  if (at < 0) throw new Error('no fuse wire in the packaged binary');
  const wire = at + FUSE_SENTINEL.length;
  const length = binary[wire + 1] ?? 0;
  return Object.fromEntries(FUSES.slice(0, length).map((name, i) => [name, binary[wire + 2 + i] === 0x31]));
}

/** A stand-in fpm recording its arguments, one per line, in `record`. */
export function makeStandInFpm(dir: string, record: string): string {
  mkdirSync(dir, { recursive: true });
  const fpm = join(dir, 'fpm');
  writeFileSync(
    fpm,
    [
      '#!/bin/sh',
      '# stand-in fpm: records what electron-builder asked for, writes a one-line stand-in package where fpm would',
      `for a in "$@"; do printf '%s\\n' "$a"; done > '${record}'`,
      'while [ $# -gt 0 ]; do if [ "$1" = --package ]; then printf \'stand-in deb, not a package\\n\' > "$2"; fi; shift; done',
      '',
    ].join('\n'),
  );
  chmodSync(fpm, 0o755);
  return fpm;
}
