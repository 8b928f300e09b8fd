/**
 * The update feed as an installed till reads it, under plain Node: electron-updater's own DebUpdater (its
 * generic provider reads latest-linux.yml, picks the deb, downloads it and checks its sha512) with two
 * stand-ins, each said so by name:
 *  - STAND-IN APP ADAPTER: electron-updater's AppAdapter seam (its own tests use it) in place of Electron's
 *    `app`: an installed version, the packaged app's app-update.yml and a cache folder;
 *  - STAND-IN HTTP EXECUTOR: electron-builder's NodeHttpExecutor (node:http) in place of Electron's `net`,
 *    with the `download` of electron-updater's ElectronHttpExecutor (which runs builder-util-runtime's
 *    sha512 check on the bytes).
 * `serveFeed` serves a folder on loopback, as the maintainer's https folder serves the release's files.
 */
import { createReadStream, existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { NodeHttpExecutor } from 'builder-util/out/nodeHttpExecutor.js';
import { configureRequestOptions, configureRequestUrl, type DownloadOptions } from 'builder-util-runtime';
import { DebUpdater } from 'electron-updater';
import type { AppAdapter } from 'electron-updater/out/AppAdapter.js';

export type Feed = { url: string; server: Server; tamper: (file: string | null) => void };

/** Serves `dir` under /momo-till/; a tampered file is answered with its first byte changed. */
export async function serveFeed(dir: string): Promise<Feed> {
  let tampered: string | null = null;
  const server = createServer((req, res) => {
    const name = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname.replace(/^\/momo-till\//, ''));
    const file = join(dir, name);
    if (name.includes('/') || !existsSync(file)) return void res.writeHead(404).end();
    res.writeHead(200);
    if (name !== tampered) return void createReadStream(file).pipe(res);
    const chunks: Buffer[] = [];
    createReadStream(file)
      .on('data', (c) => chunks.push(c as Buffer))
      .on('end', () => {
        const body = Buffer.concat(chunks);
        body[0] = (body[0] ?? 0) ^ 0xff;
        res.end(body);
      });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/momo-till/`, server, tamper: (file) => (tampered = file) };
}

class NodeDownloads extends NodeHttpExecutor {
  download(url: URL, destination: string, options: DownloadOptions): Promise<string> {
    return options.cancellationToken.createPromise((resolve, reject, onCancel) => {
      const requestOptions = { headers: options.headers ?? undefined, redirect: 'manual' };
      configureRequestUrl(url, requestOptions);
      configureRequestOptions(requestOptions);
      const callback = (error: Error | null) => (error ? reject(error) : resolve(destination));
      this.doDownload(requestOptions, { destination, options, onCancel, callback, responseHandler: null }, 0);
    });
  }
}

/** An installed till at `version` checks its feed (the packaged app's app-update.yml) and downloads what it offers. */
export async function checkAndDownload(appUpdateYml: string, cacheDir: string, version: string) {
  const app: AppAdapter = {
    version,
    name: 'momo-till',
    isPackaged: true,
    appUpdateConfigPath: appUpdateYml,
    userDataPath: join(cacheDir, 'user-data'),
    baseCachePath: cacheDir,
    whenReady: () => Promise.resolve(),
    relaunch: () => undefined,
    quit: () => undefined,
    onQuit: () => undefined,
  };
  const updater = new DebUpdater(undefined, app);
  (updater as unknown as { httpExecutor: NodeDownloads }).httpExecutor = new NodeDownloads();
  updater.logger = null;
  updater.autoInstallOnAppQuit = false;
  const result = await updater.checkForUpdates();
  const files = await result?.downloadPromise;
  return { info: result?.updateInfo, available: result?.isUpdateAvailable, files: files ?? [] };
}
