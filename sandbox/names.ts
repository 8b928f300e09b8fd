/**
 * Account name resolution in the simulator: deterministic names from a fixed list, indexed by a hash
 * of the MSISDN, so the same number always resolves to the same person. Numbers ending in 99 have no
 * mobile-money account (404 ACCOUNT_NOT_FOUND).
 */
import { createHash } from 'node:crypto';

export const ACCOUNT_NAMES = [
  'Kwame Mensah',
  'Ama Owusu',
  'Kofi Boateng',
  'Akosua Asante',
  'Yaw Darko',
  'Abena Appiah',
  'Kwabena Ofori',
  'Efua Quaye',
  'Kojo Annan',
  'Adwoa Agyeman',
  'Kwesi Amoah',
  'Esi Badu',
  'Yaa Asantewaa',
  'Fiifi Sarpong',
  'Afia Nyarko',
  'Nana Addo',
] as const;

/** The MSISDN suffix that has no account. */
export const NO_ACCOUNT_SUFFIX = '99';

export function resolveAccountName(msisdn: string): string | null {
  if (msisdn.endsWith(NO_ACCOUNT_SUFFIX)) return null;
  const digest = createHash('sha256').update(msisdn, 'utf8').digest();
  return ACCOUNT_NAMES[digest.readUInt32BE(0) % ACCOUNT_NAMES.length] as string;
}
