/** Types for scripts/merge-release.mjs (its unit test imports it from TypeScript). */
export declare function mergeLatestMac(ymls: string[]): string;
