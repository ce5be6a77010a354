import { CLOUD_API_SECRET_FIELDS, type TCloudApiConfig, ZCloudApiConfig } from '@zelo/shared';
import { eq } from 'drizzle-orm';
import type { TDb } from '../../db/client';
import { whatsapps } from '../../db/schema/connections';
import { companies } from '../../db/schema/core';
import { openSecretFields } from '../../lib/secrets';
import { asLang, type TLang } from './texts';

/**
 * A Cloud API connection's settings as stored: the public part in `channelConfig`, the secrets
 * (CLOUD_API_SECRET_FIELDS) in `channelSecret`, sealed (lib/secrets.ts). Read by connection id alone: the webhook route knows
 * nothing else before the signature is checked.
 */
export type TCloudApiSettings = { config: TCloudApiConfig; companyId: number; lang: TLang };

export type TCloudApiConfigSource = (connectionId: number) => Promise<TCloudApiSettings | { error: string } | null>;

/** the merged stored settings (the secrets opened), validated; `error` names what is missing or wrong */
export const readCloudApiConfig = (
  channelConfig: Record<string, unknown>,
  channelSecret: Record<string, unknown>,
): TCloudApiConfig | { error: string } => {
  const merged: Record<string, unknown> = { ...channelConfig };
  let secrets: Record<string, string>;
  try {
    secrets = openSecretFields(channelSecret);
  } catch {
    return { error: 'the secrets cannot be opened with this ZELO_SECRET_KEY: type them again' };
  }
  for (const field of CLOUD_API_SECRET_FIELDS) if (secrets[field] !== undefined) merged[field] = secrets[field];
  const parsed = ZCloudApiConfig.safeParse(merged);
  if (parsed.success) return parsed.data;

  return { error: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') };
};

export const createCloudApiConfigSource =
  (db: TDb): TCloudApiConfigSource =>
  async (connectionId) => {
    const [row] = await db
      .select({
        provider: whatsapps.provider,
        companyId: whatsapps.companyId,
        channelConfig: whatsapps.channelConfig,
        channelSecret: whatsapps.channelSecret,
        language: companies.language,
      })
      .from(whatsapps)
      .innerJoin(companies, eq(companies.id, whatsapps.companyId))
      .where(eq(whatsapps.id, connectionId));
    if (!row || row.provider !== 'cloud-api') return null;
    const config = readCloudApiConfig(row.channelConfig ?? {}, row.channelSecret ?? {});
    if ('error' in config) return config;

    return { config, companyId: row.companyId, lang: asLang(row.language) };
  };
