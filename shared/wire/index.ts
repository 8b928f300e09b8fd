export * from './keys.js';
export * from './transaction.js';
export * from './webhook.js';
export * from './errors.js';
export * from './initialize.js';
