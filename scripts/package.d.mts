/** Types for scripts/package.mjs (the packaging tests import it from TypeScript). */
export declare function productionPackages(
  lock: { packages: Record<string, { dev?: boolean; link?: boolean }> },
  installed: (path: string) => boolean,
): string[];
export declare function stage(staging: string): void;
export declare function publishArgs(env: Record<string, string | undefined>): string[];
export declare function homepageArgs(env: Record<string, string | undefined>): string[];
