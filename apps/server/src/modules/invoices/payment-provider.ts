import { createHash, timingSafeEqual } from 'node:crypto';
import { AppError } from '../../http/errors';

/** The payer as the checkout's data step gave it. */
export type TPayer = { name: string; email: string; cpfCnpj: string; externalReference: string };

export type TPixCharge = { id: string; status: string };

export type TPixCode = {
  /** the Pix copy-and-paste code (what the QR image encodes) */
  payload: string;
  /** PNG, base64 */
  encodedImage: string;
  expiresAt: Date | null;
};

/**
 * What the checkout needs of a payment provider (Pix only: there is no card form). One provider exists,
 * Asaas (asaas.ts); another would add its own module and webhook route.
 */
export type TPaymentProvider = {
  name: string;
  /** the provider's customer for this payer, found by CPF/CNPJ or created */
  ensureCustomer: (payer: TPayer) => Promise<string>;
  createPixCharge: (charge: {
    customer: string;
    value: number;
    /** yyyy-MM-dd */
    dueDate: string;
    description: string;
    externalReference: string;
  }) => Promise<TPixCharge>;
  pixCode: (chargeId: string) => Promise<TPixCode>;
};

/** `expected` and `given` compared in constant time (their digests, so that the length tells nothing either) */
export const sameSecret = (expected: string | undefined, given: unknown) => {
  if (!expected || typeof given !== 'string' || given === '') return false;
  const a = createHash('sha256').update(expected).digest();
  const b = createHash('sha256').update(given).digest();

  return timingSafeEqual(a, b);
};

export const providerFailure = (what: string) =>
  new AppError('ERR_PAYMENT_PROVIDER', `The payment provider did not ${what}`);
