/** The storage domain's front door (what other folders may use): the till's SQLite database and its migrations, and the OS keychain for secrets. */
export { openDatabase } from './database.js';
export type { Db } from './database.js';
export { createKeychainStore, createMemorySecretStore, keychainServiceName, secretAccount } from './secret-store.js';
export type { KeychainEntry, SecretStore } from './secret-store.js';
