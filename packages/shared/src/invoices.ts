import { z } from 'zod';
import { V, zEmail, zId, zPageNumber } from './common.js';

/** stored statuses are `open` and `paid`; `expired` is an open invoice past its due date (spec 1 §4) */
export const INVOICE_STATUSES = ['open', 'paid', 'expired'] as const;
export type TInvoiceStatus = (typeof INVOICE_STATUSES)[number];

export const ZInvoice = z.object({
  id: z.number(),
  companyId: z.number(),
  detail: z.string(),
  value: z.number(),
  /** yyyy-MM-dd */
  dueDate: z.string(),
  status: z.enum(INVOICE_STATUSES),
  paidAt: z.string().nullable(),
  /** `manual` (a super user marked it) or the payment provider (`asaas`) */
  paidVia: z.string().nullable(),
  /** the super user who marked it paid by hand */
  paidByName: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TInvoice = z.infer<typeof ZInvoice>;

export const ZInvoicePage = z.object({ invoices: z.array(ZInvoice), count: z.number(), hasMore: z.boolean() });
export type TInvoicePage = z.infer<typeof ZInvoicePage>;

/** `companyId` is heard from super users only (the companies tab); anyone else gets their own company */
export const ZInvoiceListQuery = z.object({
  searchParam: z.string().trim().max(200).optional().default(''),
  pageNumber: zPageNumber,
  companyId: zId.optional(),
});
export type TInvoiceListQuery = z.infer<typeof ZInvoiceListQuery>;

/** PUT /invoices/:id: the ancestor sends `{id, status}`; marking paid is the only change there is */
export const ZInvoiceUpdateBody = z.object({ status: z.literal('paid', { error: V.invalid }) });

/** digits of a CPF (11) or CNPJ (14) whose check digits add up; the same digit repeated is refused */
export const isValidCpfCnpj = (value: string) => {
  const d = value.replace(/\D/g, '');
  if (d.length !== 11 && d.length !== 14) return false;
  if (/^(\d)\1+$/.test(d)) return false;
  const digits = [...d].map(Number);
  const check = (len: number, weights: number[]) => {
    const sum = weights.reduce((acc, w, i) => acc + w * digits[i], 0);
    const rest = sum % 11;
    const expected = d.length === 11 ? ((sum * 10) % 11) % 10 : rest < 2 ? 0 : 11 - rest;

    return expected === digits[len];
  };
  if (d.length === 11) {
    return check(9, [10, 9, 8, 7, 6, 5, 4, 3, 2]) && check(10, [11, 10, 9, 8, 7, 6, 5, 4, 3, 2]);
  }

  return check(12, [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]) && check(13, [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
};

export const zCpfCnpj = () =>
  z
    .string({ error: V.required })
    .transform((v) => v.replace(/\D/g, ''))
    .pipe(z.string().min(1, V.required).refine(isValidCpfCnpj, 'invalidCpfCnpj'));

/** the ancestor's `plan`: the chosen tier as JSON text (`{"planId": 2, "price": 49, …}`), or a plan id */
const zChosenPlan = z
  .union([z.string().max(2000), z.number(), z.record(z.string(), z.unknown()), z.null()])
  .optional()
  .transform((v): number | undefined => {
    let tier: unknown = v;
    if (typeof v === 'string') {
      if (/^\d{1,10}$/.test(v)) return Number(v);
      try {
        tier = JSON.parse(v);
      } catch {
        return undefined;
      }
    }
    if (typeof tier === 'number') return Number.isInteger(tier) && tier > 0 ? tier : undefined;
    if (tier && typeof tier === 'object') {
      const id = (tier as { planId?: unknown; id?: unknown }).planId ?? (tier as { id?: unknown }).id;
      const parsed = zId.safeParse(id);

      return parsed.success ? parsed.data : undefined;
    }

    return undefined;
  });

const zOptionalText = (max: number) =>
  z
    .union([z.string(), z.null()])
    .optional()
    .transform((v) => (v ?? '').trim())
    .pipe(z.string().max(max, V.tooLong));

/**
 * POST /subscription: the ancestor's checkout body, leniently. Its `price`, `users` and `connections` are not
 * read (the server computes the price) and its card fields (`nameOnCard`, `cardNumber`, `cvv`, `expiryDate`) are
 * dropped here, before anything could store or log them.
 */
export const ZSubscriptionBody = z.object({
  invoiceId: zId,
  /** the payer's name (the ancestor's data step calls it firstName) */
  firstName: zOptionalText(100),
  lastName: zOptionalText(100),
  email: z
    .union([zEmail(), z.literal(''), z.null()])
    .optional()
    .transform((v) => v || undefined),
  /** absent: the one kept on the company from an earlier checkout */
  cpfCnpj: z
    .union([zCpfCnpj(), z.literal(''), z.null()])
    .optional()
    .transform((v) => v || undefined),
  /** another plan to move to once paid (the customise step) */
  planId: zId.optional(),
  plan: zChosenPlan,
  address2: zOptionalText(200),
  city: zOptionalText(100),
  state: zOptionalText(50),
  zipcode: zOptionalText(20),
  country: zOptionalText(100),
});
export type TSubscriptionBody = z.infer<typeof ZSubscriptionBody>;

/** the data step of Zelo's wizard (the same rules as the server's) */
export const ZCheckoutDataForm = z.object({
  firstName: z.string({ error: V.required }).trim().min(1, V.required).min(2, V.tooShort).max(100, V.tooLong),
  email: zEmail(),
  cpfCnpj: zCpfCnpj(),
});
export type TCheckoutDataForm = z.input<typeof ZCheckoutDataForm>;

/**
 * The answer of POST /subscription: the spec's Pix shape (`qrcode.qrcode` the copy-and-paste code,
 * `valor.original` the amount as the ancestor's provider wrote it, "49.00") plus Zelo's own fields.
 */
export const ZPixCheckout = z.object({
  txid: z.string(),
  status: z.string(),
  valor: z.object({ original: z.string() }),
  solicitacaoPagador: z.string(),
  qrcode: z.object({ qrcode: z.string(), imagemQrcode: z.string() }),
  invoiceId: z.number(),
  planId: z.number().nullable(),
  planName: z.string(),
  amount: z.number(),
  expiresAt: z.string().nullable(),
});
export type TPixCheckout = z.infer<typeof ZPixCheckout>;

/** `company-{id}-payment` */
export type TPaymentEvent = {
  action: 'CONCLUIDA';
  company: { id: number; dueDate: string | null; planId: number | null };
};
