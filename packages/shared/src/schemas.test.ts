import { describe, expect, it } from 'vitest';
import { ZLoginRequest, ZResetPasswordRequest } from './auth';
import { V, zEmail, zId, zQueryBool } from './common';
import { ZCompanyBody, ZSignUpRequest, zDueDate, zPhone } from './companies';
import { ERROR_CATALOGUE, ERROR_CODES, isErrorCode } from './errors';
import { SETTING_DEFINITIONS, SETTING_KEYS, isSettingKey } from './settings';
import { ZUserBody, ZUserUpdateBody } from './users';

/** the messages (i18n keys) of a failed parse, by path */
const issues = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  (result.error?.issues ?? []).map((i) => `${i.path.join('.')}:${i.message}`);

const signUp = { name: 'Acme', email: 'Owner@Acme.test', password: 'secret', planId: 1 };

describe('ZSignUpRequest', () => {
  it('keeps only the digits of a masked phone', () => {
    expect(ZSignUpRequest.parse({ ...signUp, phone: '(11) 99999-8888' }).phone).toBe('11999998888');
    expect(ZSignUpRequest.parse({ ...signUp, phone: '(11) 3333-4444' }).phone).toBe('1133334444');
  });

  it('accepts 10 and 11 digits and rejects 9 and 12', () => {
    expect(zPhone().safeParse('1199998888').success).toBe(true);
    expect(zPhone().safeParse('11999998888').success).toBe(true);
    expect(issues(zPhone().safeParse('(11) 9999-888'))).toEqual([`:${V.tooShort}`]);
    expect(issues(zPhone().safeParse('119999988880'))).toEqual([`:${V.tooLong}`]);
  });

  it('treats an empty or absent phone as no phone', () => {
    expect(ZSignUpRequest.parse({ ...signUp, phone: '' }).phone).toBeUndefined();
    expect(ZSignUpRequest.parse(signUp).phone).toBeUndefined();
  });

  it('lower-cases and trims the e-mail and coerces the plan id', () => {
    const parsed = ZSignUpRequest.parse({ ...signUp, email: '  Owner@ACME.test ', planId: '7' });
    expect(parsed.email).toBe('owner@acme.test');
    expect(parsed.planId).toBe(7);
  });

  it('answers with i18n keys for missing and malformed fields', () => {
    const res = ZSignUpRequest.safeParse({ name: 'A', email: 'not-an-email', password: '123', planId: 0 });
    expect(res.success).toBe(false);
    expect(issues(res)).toEqual(
      expect.arrayContaining([
        `name:${V.tooShort}`,
        `email:${V.invalidEmail}`,
        `password:${V.tooShort}`,
        `planId:${V.invalid}`,
      ]),
    );
    expect(issues(ZSignUpRequest.safeParse({ ...signUp, name: undefined }))).toContain(`name:${V.required}`);
  });

  it('says `required` for a plan left empty or absent, like the other fields, and `invalid` for a bad one', () => {
    for (const planId of ['', undefined, null]) {
      expect(issues(ZSignUpRequest.safeParse({ ...signUp, planId })), String(planId)).toEqual([`planId:${V.required}`]);
    }
    const empty = ZSignUpRequest.safeParse({ name: '', email: '', password: '', phone: '', planId: '' });
    expect(issues(empty)).toEqual(
      expect.arrayContaining([`name:${V.required}`, `email:${V.required}`, `password:${V.required}`]),
    );
    expect(issues(empty).filter((i) => i.startsWith('planId:'))).toEqual([`planId:${V.required}`]);
    for (const planId of ['x', -1, 1.5, ' 1']) {
      expect(issues(ZSignUpRequest.safeParse({ ...signUp, planId })), String(planId)).toEqual([`planId:${V.invalid}`]);
    }
  });
});

describe('ZResetPasswordRequest', () => {
  const reset = {
    email: 'user@acme.test',
    code: '123456',
    password: 'Strong-Pass1',
    passwordConfirmation: 'Strong-Pass1',
  };

  it('accepts a six-digit code and a strong, confirmed password', () => {
    expect(ZResetPasswordRequest.parse({ ...reset, code: ' 123456 ' }).code).toBe('123456');
  });

  it.each([
    ['too short', 'Ab1', V.tooShort],
    ['no uppercase', 'strong-pass1', V.passwordWeak],
    ['no lowercase', 'STRONG-PASS1', V.passwordWeak],
    ['no digit', 'Strong-Pass', V.passwordWeak],
    ['too long', `Aa1${'x'.repeat(48)}`, V.tooLong],
  ])('rejects a password that is %s', (_label, password, message) => {
    const res = ZResetPasswordRequest.safeParse({ ...reset, password, passwordConfirmation: password });
    expect(res.success).toBe(false);
    expect(issues(res)).toContain(`password:${message}`);
  });

  it('requires the confirmation to match, reported on the confirmation field', () => {
    const res = ZResetPasswordRequest.safeParse({ ...reset, passwordConfirmation: 'Strong-Pass2' });
    expect(issues(res)).toEqual([`passwordConfirmation:${V.passwordMismatch}`]);
    const empty = ZResetPasswordRequest.safeParse({ ...reset, passwordConfirmation: '' });
    expect(issues(empty)).toContain(`passwordConfirmation:${V.required}`);
  });

  it.each(['12345', '1234567', 'abcdef', ''])('rejects the code %j', (code) => {
    expect(issues(ZResetPasswordRequest.safeParse({ ...reset, code }))).toContain(`code:${V.invalid}`);
  });
});

describe('zDueDate', () => {
  it('keeps the yyyy-MM-dd part of a valid date', () => {
    expect(zDueDate.parse('2030-01-31')).toBe('2030-01-31');
    expect(zDueDate.parse('2030-01-31T12:00:00.000Z')).toBe('2030-01-31');
  });

  it.each([[''], [null], [undefined], ['31/01/2030'], ['2030-13-45'], ['garbage']])('turns %j into null', (value) => {
    expect(zDueDate.parse(value)).toBeNull();
  });

  it('is applied inside the company body', () => {
    const body = ZCompanyBody.parse({ name: 'Acme', email: 'a@acme.test', planId: 1, dueDate: '' });
    expect(body.dueDate).toBeNull();
    expect(body.recurrence).toBe('MENSAL');
    expect(body.status).toBe(true);
  });
});

describe('error catalogue', () => {
  it('maps every code to an HTTP error status', () => {
    for (const code of ERROR_CODES) {
      expect(code).toMatch(/^ERR_[A-Z_]+$/);
      expect(ERROR_CATALOGUE[code]).toBeGreaterThanOrEqual(400);
      expect(ERROR_CATALOGUE[code]).toBeLessThan(600);
    }
  });

  it('has the statuses the API relies on', () => {
    expect(ERROR_CATALOGUE.ERR_INVALID_CREDENTIALS).toBe(401);
    expect(ERROR_CATALOGUE.ERR_SESSION_EXPIRED).toBe(403);
    expect(ERROR_CATALOGUE.ERR_NO_PERMISSION).toBe(403);
    expect(ERROR_CATALOGUE.ERR_VALIDATION).toBe(400);
    expect(ERROR_CATALOGUE.ERR_SUBSCRIPTION_EXPIRED).toBe(402);
    expect(ERROR_CATALOGUE.ERR_DUPLICATED_EMAIL).toBe(409);
    expect(ERROR_CATALOGUE.ERR_TOO_MANY_REQUESTS).toBe(429);
    expect(ERROR_CATALOGUE.ERR_INTERNAL_SERVER_ERROR).toBe(500);
  });

  it('recognises only its own codes', () => {
    expect(isErrorCode('ERR_NO_TICKET_FOUND')).toBe(true);
    expect(isErrorCode('ERR_DOES_NOT_EXIST')).toBe(false);
    expect(isErrorCode(401)).toBe(false);
  });

  // `key in object` would also find the prototype's names (PUT /api/settings/toString answered 500)
  it('does not take Object.prototype keys for codes or setting keys', () => {
    for (const key of ['toString', 'constructor', '__proto__', 'hasOwnProperty']) {
      expect(isErrorCode(key)).toBe(false);
      expect(isSettingKey(key)).toBe(false);
    }
  });
});

describe('common pieces', () => {
  it('login needs an e-mail and a password', () => {
    expect(issues(ZLoginRequest.safeParse({ email: '', password: '' }))).toEqual(
      expect.arrayContaining([`email:${V.required}`, `password:${V.required}`]),
    );
    expect(ZLoginRequest.parse({ email: 'A@B.TEST', password: 'x' }).email).toBe('a@b.test');
  });

  it('zEmail rejects what is not an address', () => {
    expect(zEmail().safeParse('a@b').success).toBe(false);
    expect(zEmail().safeParse(`${'a'.repeat(250)}@b.test`).success).toBe(false);
  });

  it('zId accepts positive 32-bit integers only', () => {
    expect(zId.parse('42')).toBe(42);
    expect(zId.parse(7)).toBe(7);
    for (const bad of ['0', '-1', '1.5', 'x', '2147483648', '1e3', '0x10', ' 1', ''])
      expect(zId.safeParse(bad).success).toBe(false);
  });

  it('zQueryBool reads query-string booleans', () => {
    expect(['true', '1', true].map((v) => zQueryBool.parse(v))).toEqual([true, true, true]);
    expect(['false', '0', false].map((v) => zQueryBool.parse(v))).toEqual([false, false, false]);
    expect(zQueryBool.safeParse('yes').success).toBe(false);
  });

  it('user bodies: defaults on create, empty password kept on update', () => {
    const created = ZUserBody.parse({ name: 'Ana', email: 'ana@acme.test', password: 'secret' });
    expect(created).toMatchObject({ profile: 'user', allTicket: 'desabled', queueIds: [] });
    expect(ZUserUpdateBody.parse({ password: '' }).password).toBeUndefined();
    expect(ZUserUpdateBody.safeParse({ password: '123' }).success).toBe(false);
  });

  it('every setting default satisfies its own schema', () => {
    for (const key of SETTING_KEYS) {
      expect(SETTING_DEFINITIONS[key].schema.safeParse(SETTING_DEFINITIONS[key].default).success).toBe(true);
    }
    expect(isSettingKey('userRating')).toBe(true);
    expect(isSettingKey('nope')).toBe(false);
  });
});
