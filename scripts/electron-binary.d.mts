/** Types for scripts/electron-binary.mjs (the Electron tests import it from TypeScript). */
export declare const electronDir: string;
export declare const electronVersion: string;
export declare function electronBinary(): string | null;
export declare function electronZipInCache(options?: { env?: Record<string, string | undefined>; platform?: string; arch?: string }): {
  zip: string;
  path: string;
  url: string;
};
export declare function missingElectronMessage(reason?: string): string;
