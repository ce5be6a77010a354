import { campaignsOpen, type TPlanFlag, type TSessionUser } from '@zelo/shared';

/** Who may open a route or see its menu item (spec 1 §2, §6). */
export type Access = {
  admin?: boolean;
  super?: boolean;
  plan?: TPlanFlag;
  /** campaign and flow routes: the server's own gate (`campaignsOpen`: the plan's flag and the company's setting) */
  campaigns?: boolean;
};

/** 'plan': the company's plan lacks the feature; 'forbidden': the user's role may not. */
export type Denial = 'plan' | 'forbidden' | null;

export const planAllows = (user: TSessionUser, flag: TPlanFlag) => Boolean(user.company.plan?.[flag]);

export const checkAccess = (user: TSessionUser, access: Access | undefined): Denial => {
  if (!access) {
    return null;
  }
  if (access.super && !user.super) {
    return 'forbidden';
  }
  if (access.admin && user.profile !== 'admin') {
    return 'forbidden';
  }
  const campaignsEnabled = user.company.settings.find((s) => s.key === 'campaignsEnabled')?.value;
  if (access.campaigns && !campaignsOpen(user.company.plan?.useCampaigns, campaignsEnabled)) {
    return 'plan';
  }
  if (access.plan && !planAllows(user, access.plan)) {
    return 'plan';
  }

  return null;
};
