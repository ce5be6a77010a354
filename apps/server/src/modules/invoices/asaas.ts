import { providerFailure, type TPaymentProvider, type TPixCode } from './payment-provider';

const TIMEOUT_MS = 15_000;

type TAsaasConfig = { apiKey: string; apiUrl: string };

/**
 * Asaas (API v3, `access_token` header): customers by CPF/CNPJ, PIX payments and their QR codes. The key
 * never leaves the request headers (not in errors, not in logs).
 */
export const createAsaasProvider = (config: TAsaasConfig): TPaymentProvider => {
  const call = async <T>(method: 'GET' | 'POST', path: string, what: string, body?: unknown): Promise<T> => {
    let res: Response;
    try {
      res = await fetch(`${config.apiUrl}${path}`, {
        method,
        headers: {
          access_token: config.apiKey,
          accept: 'application/json',
          'user-agent': 'zelo',
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch {
      throw providerFailure(what);
    }
    const answer = (await res.json().catch(() => undefined)) as
      | (T & { errors?: { description?: string }[] })
      | undefined;
    if (!res.ok || !answer) {
      const reason = answer?.errors?.[0]?.description;
      const err = providerFailure(what);
      if (reason) err.message = `${err.message}: ${String(reason).slice(0, 200)}`;
      throw err;
    }

    return answer;
  };

  return {
    name: 'asaas',
    ensureCustomer: async (payer) => {
      const found = await call<{ data?: { id?: string; deleted?: boolean }[] }>(
        'GET',
        `/customers?cpfCnpj=${encodeURIComponent(payer.cpfCnpj)}`,
        'find the customer',
      );
      const existing = found.data?.find((c) => c.id && !c.deleted)?.id;
      if (existing) return existing;
      const created = await call<{ id?: string }>('POST', '/customers', 'create the customer', {
        name: payer.name,
        cpfCnpj: payer.cpfCnpj,
        email: payer.email || undefined,
        externalReference: payer.externalReference,
      });
      if (!created.id) throw providerFailure('create the customer');

      return created.id;
    },
    createPixCharge: async (charge) => {
      const created = await call<{ id?: string; status?: string }>('POST', '/payments', 'create the charge', {
        customer: charge.customer,
        billingType: 'PIX',
        value: charge.value,
        dueDate: charge.dueDate,
        description: charge.description,
        externalReference: charge.externalReference,
      });
      if (!created.id) throw providerFailure('create the charge');

      return { id: created.id, status: created.status ?? 'PENDING' };
    },
    pixCode: async (chargeId): Promise<TPixCode> => {
      const qr = await call<{ encodedImage?: string; payload?: string; expirationDate?: string }>(
        'GET',
        `/payments/${encodeURIComponent(chargeId)}/pixQrCode`,
        'give the Pix code',
      );
      if (!qr.payload || !qr.encodedImage) throw providerFailure('give the Pix code');
      const expires = qr.expirationDate ? new Date(qr.expirationDate.replace(' ', 'T')) : null;

      return {
        payload: qr.payload,
        encodedImage: qr.encodedImage,
        expiresAt: expires && !Number.isNaN(expires.getTime()) ? expires : null,
      };
    },
  };
};
