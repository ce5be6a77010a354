import {
  ZIdParams,
  ZInvoice,
  ZInvoiceListQuery,
  ZInvoicePage,
  ZInvoiceUpdateBody,
  ZPixCheckout,
  ZSubscriptionBody,
} from '@zelo/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { route } from '../../http/declare';
import { AppError } from '../../http/errors';
import type { TAppContext } from '../../lib/context';
import { checkout, getInvoice, getInvoicePage, handleAsaasWebhook, markPaidByHand } from './invoices.service';
import { sameSecret } from './payment-provider';

/** Asaas's webhook body, leniently: only the event and the payment's id are read */
const ZAsaasWebhook = z.looseObject({
  event: z.string().max(100),
  payment: z.looseObject({ id: z.string().min(1).max(100) }).optional(),
});

export const invoicesRoutes = (app: FastifyInstance, ctx: TAppContext) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['invoices'];
  // invoices and the checkout stay open to a company past its due date: it can always pay its way back
  const billing = { auth: 'admin', allowExpired: true } as const;

  r.get(
    '/api/invoices',
    { config: route(billing), schema: { tags, querystring: ZInvoiceListQuery, response: { 200: ZInvoicePage } } },
    (request) => getInvoicePage(ctx, request.auth, request.query),
  );
  // the ancestor's Financeiro screen reads a plain list here, page by page
  r.get(
    '/api/invoices/all',
    {
      config: route(billing),
      schema: { tags, querystring: ZInvoiceListQuery, response: { 200: z.array(ZInvoice) } },
    },
    async (request) => (await getInvoicePage(ctx, request.auth, request.query)).invoices,
  );
  r.get(
    '/api/invoices/:id',
    { config: route(billing), schema: { tags, params: ZIdParams, response: { 200: ZInvoice } } },
    (request) => getInvoice(ctx, request.auth, request.params.id),
  );
  r.put(
    '/api/invoices/:id',
    {
      config: route({ auth: 'super' }),
      schema: { tags, params: ZIdParams, body: ZInvoiceUpdateBody, response: { 200: ZInvoice } },
    },
    (request) => markPaidByHand(ctx, request.auth, request.params.id),
  );

  r.post(
    '/api/subscription',
    { config: route(billing), schema: { tags, body: ZSubscriptionBody, response: { 200: ZPixCheckout } } },
    (request) => checkout(ctx, request.auth, request.body),
  );
  r.post(
    '/api/subscription/webhook/asaas',
    {
      config: route({ auth: 'public' }),
      // the token before anything else: a forged or unsigned call learns nothing, whatever its body
      preValidation: async (request) => {
        if (!sameSecret(ctx.config.asaas.webhookToken, request.headers['asaas-access-token'])) {
          throw new AppError('ERR_WEBHOOK_SIGNATURE', 'Missing or wrong asaas-access-token');
        }
      },
      schema: { tags, body: ZAsaasWebhook },
    },
    (request) => handleAsaasWebhook(ctx, request.body),
  );
};
