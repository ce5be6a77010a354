/*
 * Kept apart from campaigns.ts (its zod schemas): the web app's menu and routes read this on every screen, and a
 * module without schemas keeps zod out of the first load.
 */

/**
 * The one gate of campaigns, contact lists, phrase lists and flows (menu, route and API alike): the plan has
 * `useCampaigns` and the company's `campaignsEnabled` setting is not "false". The server's route declarations
 * check the plan flag and `assertCampaignsEnabled` the setting; the web app's menu and routes call this.
 */
export const campaignsOpen = (useCampaigns: boolean | null | undefined, campaignsEnabled: string | null | undefined) =>
  Boolean(useCampaigns) && campaignsEnabled !== 'false';
