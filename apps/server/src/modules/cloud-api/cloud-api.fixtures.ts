import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type { TTenant } from '../../../test/fixtures';
import type { TFakeGraph, TFakeNumber } from '../../../test/fake-graph';
import type { TTestServer } from '../../../test/harness';

/** A Cloud API connection of a tenant, created through the API and pointed at the fake Graph API. */
export type TCloudLine = { connectionId: number; number: TFakeNumber; verifyToken: string; webhookPath: string };

export const webhookPath = (connectionId: number) => `/api/channels/cloud-api/${connectionId}/webhook`;

export const until = async (what: string, check: () => Promise<boolean> | boolean, timeoutMs = 10_000) => {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

export const createCloudLine = async (
  server: TTestServer,
  graph: TFakeGraph,
  tenant: TTenant,
  fields: Partial<TFakeNumber> = {},
): Promise<TCloudLine> => {
  const phoneNumberId = `10${Math.floor(1e12 + Math.random() * 8e12)}`;
  const number = graph.addNumber({ phoneNumberId, ...fields });
  const verifyToken = `verify-${randomBytes(8).toString('hex')}`;
  const res = await server.request('POST', '/api/whatsapp', {
    token: tenant.token,
    body: {
      name: `Cloud ${randomBytes(3).toString('hex')}`,
      provider: 'cloud-api',
      channelConfig: {
        phoneNumberId,
        businessAccountId: number.businessAccountId,
        accessToken: number.accessToken,
        appSecret: number.appSecret,
        verifyToken,
        graphUrl: graph.url,
        graphVersion: graph.version,
      },
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const connectionId = res.body.id as number;
  number.webhookUrl = `${server.url}${webhookPath(connectionId)}`;
  if (number.tokenValid) {
    await until('CONNECTED', () => server.ctx.channels.state(connectionId)?.status === 'CONNECTED');
  }

  return { connectionId, number, verifyToken, webhookPath: webhookPath(connectionId) };
};

/** the stored messages of a connection from one customer's wamid(s) */
export const storedByExternalId = async (server: TTestServer, connectionId: number, externalId: string) => {
  const { rows } = await server.database.executeSql(
    'select id, ticket_id, contact_id, body, ack, error_code, error_message, media_type, media_url, media_name, created_at from messages where whatsapp_id = $1 and external_id = $2',
    [connectionId, externalId],
  );

  return rows as {
    id: number;
    ticket_id: number;
    contact_id: number;
    body: string;
    ack: number;
    error_code: string | null;
    error_message: string | null;
    media_type: string | null;
    media_url: string | null;
    media_name: string | null;
    created_at: Date;
  }[];
};
