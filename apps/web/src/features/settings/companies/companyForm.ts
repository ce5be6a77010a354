import { type TCompany, type TRecurrence, ZCompanyBody, ZCompanyUpdateBody } from '@zelo/shared';
import { z } from 'zod';

export type TCompanyFormValues = {
  name: string;
  email: string;
  phone: string;
  /** '' until a plan is chosen */
  planId: string;
  status: boolean;
  campaignsEnabled: boolean;
  /** yyyy-MM-dd from the date input; '' is sent as null */
  dueDate: string;
  recurrence: TRecurrence;
  password: string;
};

/** On create the first admin's password is optional: an empty field is left out (the server generates one). */
export const ZCompanyCreateForm = ZCompanyBody.extend({
  password: ZCompanyBody.shape.password.or(z.literal('').transform(() => undefined)),
});
export const ZCompanyEditForm = ZCompanyUpdateBody;

export const EMPTY_COMPANY_FORM: TCompanyFormValues = {
  name: '',
  email: '',
  phone: '',
  planId: '',
  status: true,
  campaignsEnabled: true,
  dueDate: '',
  recurrence: 'MENSAL',
  password: '',
};

export const toCompanyFormValues = (company: TCompany | null): TCompanyFormValues =>
  company
    ? {
        name: company.name,
        email: company.email,
        phone: company.phone ?? '',
        planId: company.planId ? String(company.planId) : '',
        status: company.status,
        campaignsEnabled: company.campaignsEnabled,
        dueDate: company.dueDate ? company.dueDate.slice(0, 10) : '',
        recurrence: company.recurrence,
        password: '',
      }
    : EMPTY_COMPANY_FORM;
