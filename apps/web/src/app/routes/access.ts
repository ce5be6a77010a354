import type { TPlanFlag, TSessionUser } from '@zelo/shared';
import { STORAGE_KEYS } from '../../api/session';

/** Who may open a route or see its menu item (spec 1 §2, §6). */
export type Access = {
  admin?: boolean;
  super?: boolean;
  plan?: TPlanFlag;
  /** campaign and flow routes: the plan has campaigns or the stored `cshow` flag is present */
  campaigns?: boolean;
};

/** 'plan': the company's plan lacks the feature; 'forbidden': the user's role may not. */
export type Denial = 'plan' | 'forbidden' | null;

export const hasCampaignsFlag = () => localStorage.getItem(STORAGE_KEYS.campaignsFlag) !== null;

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
  if (access.campaigns && !planAllows(user, 'useCampaigns') && !hasCampaignsFlag()) {
    return 'plan';
  }
  if (access.plan && !planAllows(user, access.plan)) {
    return 'plan';
  }

  return null;
};
