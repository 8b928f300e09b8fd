/** The vocabulary of shared/domain.ts as zod schemas, for the wire formats and the IPC contract. */
import { z } from 'zod';
import { ENVIRONMENTS, PAYMENT_STATES } from './domain.js';

export const environmentSchema = z.enum(ENVIRONMENTS);
export const paymentStateSchema = z.enum(PAYMENT_STATES);
