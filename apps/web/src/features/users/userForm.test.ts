import { ZUserBody, ZUserUpdateBody } from '@zelo/shared';
import { describe, expect, it } from 'vitest';
import { toUserFormValues, toUserRequest } from './userForm';

describe('user form', () => {
  it('should require a password on create and keep the current one when empty on edit', () => {
    const values = { ...toUserFormValues(null), name: 'Ana', email: 'ana@zelo.test' };
    expect(ZUserBody.safeParse(values).success).toBe(false);
    const update = ZUserUpdateBody.parse(values);
    expect(update.password).toBeUndefined();
  });

  it('should leave the access fields out of a request made by a non-admin', () => {
    const body = ZUserUpdateBody.parse({ ...toUserFormValues(null), name: 'Ana', email: 'ana@zelo.test' });
    const request = toUserRequest(body, false);
    expect(request).toEqual({ name: 'Ana', email: 'ana@zelo.test', password: undefined });
    expect(toUserRequest(body, true)).toBe(body);
  });
});
