/**
 * better-sqlite3 for Electron without rebuilding it in place: `npm start` builds a COPY of the
 * native addon for the installed Electron into a cache folder and passes its path in
 * MOMO_SQLITE_BINDING. Every `require` of better_sqlite3.node in this process (the core's own
 * database and the embedded simulator's and relay's) is pointed at that copy. A packaged app has
 * the addon rebuilt for Electron by electron-builder and needs no redirect.
 */
import Module from 'node:module';
import { existsSync } from 'node:fs';

type ResolveFilename = (request: string, parent: unknown, isMain: boolean, options?: unknown) => string;

/**
 * A packaged app never honours MOMO_SQLITE_BINDING: loading a native addon named by an environment
 * variable would let anyone who can set the environment run code inside the till, the very thing the
 * RunAsNode / NODE_OPTIONS fuses are switched off to prevent.
 */
export function installNativeBinding(env: NodeJS.ProcessEnv, packaged: boolean): string | undefined {
  if (packaged) return undefined;
  const binding = env.MOMO_SQLITE_BINDING;
  if (!binding) return undefined;
  if (!existsSync(binding)) throw new Error(`MOMO_SQLITE_BINDING points to a missing file: ${binding}`);
  const mod = Module as unknown as { _resolveFilename: ResolveFilename };
  const original = mod._resolveFilename;
  mod._resolveFilename = function (request, parent, isMain, options) {
    if (request.endsWith('better_sqlite3.node')) return binding;
    return original.call(this, request, parent, isMain, options);
  };
  return binding;
}
