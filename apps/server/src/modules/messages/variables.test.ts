import { describe, expect, it } from 'vitest';
import { applyCampaignVariables, applyNamedVariables, applyVariables, renderCampaignMessage } from './variables';

const at = new Date('2026-03-10T15:04:05Z'); // 12:04:05 in São Paulo
const base = { contactName: 'Maria Souza', timeZone: 'America/Sao_Paulo', language: 'pt', at };

describe('applyVariables (spec 1 §9)', () => {
  it('fills the greeting variables in the company time zone', () => {
    expect(
      applyVariables('{{ms}} {{firstName}}, {{name}} às {{hora}} #{{protocol}}', { ...base, protocol: 'P1' }),
    ).toBe('Boa tarde Maria, Maria Souza às 12:04:05 #P1');
    expect(applyVariables('{{protocol}}', base)).toBe('20260310120405');
  });

  it('adds named values ({{name}} of flows) without letting them replace the built-in ones', () => {
    expect(
      applyVariables('{{pedido}} / {{ Cidade }} / {{name}}', {
        ...base,
        named: { pedido: '42', cidade: 'Recife', name: 'X' },
      }),
    ).toBe('42 / Recife / Maria Souza');
  });

  it('leaves unknown variables as written', () => {
    expect(applyVariables('{{nope}} {x}', base)).toBe('{{nope}} {x}');
  });

  it('named values alone, then the built-in pass, give what both at once give (the flow engine sends so)', () => {
    const named = { pedido: '42', cidade: 'Recife', name: 'X', hora: 'Y' };
    const body = '{{pedido}} / {{ Cidade }} / {{name}} {{hora}} {{nope}}';
    const half = applyNamedVariables(body, named);
    expect(half).toBe('42 / Recife / {{name}} {{hora}} {{nope}}');
    expect(applyVariables(half, base)).toBe(applyVariables(body, { ...base, named }));
  });
});

describe('applyCampaignVariables (spec 2 §3)', () => {
  const r = {
    name: 'João',
    email: 'joao@example.com',
    number: '5511999990001',
    variables: [
      { key: 'loja', value: 'Centro' },
      { key: 'nome', value: 'not me' },
      { key: 'cupom', value: '{nome}' },
    ],
  };

  it('fills {nome}, {email}, {numero} and the company variables', () => {
    expect(applyCampaignVariables('Oi {nome} ({email}, {numero}) da loja {loja}!', r)).toBe(
      'Oi João (joao@example.com, 5511999990001) da loja Centro!',
    );
  });

  it('the built-in names win over a variable with the same key; values are not substituted again', () => {
    expect(applyCampaignVariables('{nome} {cupom}', r)).toBe('João {nome}');
  });

  it('keeps unknown keys and double-brace variables for the second pass', () => {
    expect(applyCampaignVariables('{desconhecida} {{name}}', r)).toBe('{desconhecida} {{name}}');
  });

  it('renderCampaignMessage applies both kinds', () => {
    expect(renderCampaignMessage('{{ms}}, {nome}! {loja}', r, { timeZone: 'America/Sao_Paulo', at })).toBe(
      'Boa tarde, João! Centro',
    );
  });
});
