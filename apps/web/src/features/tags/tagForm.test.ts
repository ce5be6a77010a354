import { DEFAULT_TAG_COLOR, ZTagBody, ZTagUpdateBody } from '@zelo/shared';
import { describe, expect, it } from 'vitest';
import { toTagFormValues, toTagRequest } from './tagForm';

describe('tag form', () => {
  it('starts a new tag with the default colour and no lane; an edit from the tag', () => {
    expect(toTagFormValues(null)).toEqual({ name: '', color: DEFAULT_TAG_COLOR, kanban: false });
    expect(toTagFormValues({ id: 1, name: 'VIP', color: '#FF0000', kanban: 1, userId: null, ticketsCount: 3 })).toEqual(
      { name: 'VIP', color: '#FF0000', kanban: true },
    );
  });

  it("checks the name as the server does (spec 2 §5: 'Obrigatório', 'Mensagem muito curta')", () => {
    const issues = (name: string) => ZTagBody.safeParse({ name }).error?.issues.map((i) => i.message);
    expect(issues('')?.[0]).toBe('required');
    expect(issues('ab')).toEqual(['messageTooShort']);
    expect(ZTagBody.parse({ name: 'abc', color: '', kanban: true })).toEqual({
      name: 'abc',
      color: DEFAULT_TAG_COLOR,
      kanban: 1,
    });
  });

  it('sends the kanban flag only for admins', () => {
    const body = ZTagUpdateBody.parse({ name: 'Lane', color: '#000000', kanban: true });
    expect(toTagRequest(body, true)).toEqual({ name: 'Lane', color: '#000000', kanban: 1 });
    expect(toTagRequest(body, false)).toEqual({ name: 'Lane', color: '#000000' });
  });
});
