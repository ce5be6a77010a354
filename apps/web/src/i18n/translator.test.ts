import { describe, expect, it } from 'vitest';
import { createTranslator } from './translator';

const make = () => {
  const i18n = createTranslator({ language: 'en', fallbackLanguage: 'pt' });
  i18n.addResources('pt', {
    hello: 'Olá, {{name}}!',
    only: 'Só em português',
    tickets: { count_one: '{{count}} ticket', count_other: '{{count}} tickets', plain: 'Tickets' },
    nested: { deep: { leaf: 'folha' } },
  });
  i18n.addResources('en', {
    hello: 'Hello, {{name}}!',
    tickets: { count_one: '{{count}} ticket', count_other: '{{count}} tickets' },
    user: 'User {{user.name}} ({{missing}})',
  });
  i18n.addResources('es', { hello: '¡Hola, {{name}}!' });

  return i18n;
};

describe('the translator', () => {
  it('answers the current language, interpolating the options', () => {
    const i18n = make();
    expect(i18n.t('hello', { name: 'Ana' })).toBe('Hello, Ana!');
    expect(i18n.t('hello', { name: 'Ana', lng: 'es' })).toBe('¡Hola, Ana!');
    expect(i18n.getFixedT('pt')('hello', { name: 'Ana' })).toBe('Olá, Ana!');
  });

  it('chooses the plural form by count, with the language’s rules', () => {
    const i18n = make();
    expect(i18n.t('tickets.count', { count: 1 })).toBe('1 ticket');
    expect(i18n.t('tickets.count', { count: 0 })).toBe('0 tickets');
    expect(i18n.t('tickets.count', { count: 7 })).toBe('7 tickets');
    // Portuguese says 0 in the singular
    expect(i18n.getFixedT('pt')('tickets.count', { count: 0 })).toBe('0 ticket');
    // a key without plural forms is used as it is
    expect(i18n.getFixedT('pt')('tickets.plain', { count: 3 })).toBe('Tickets');
  });

  it('falls back to Portuguese, then to the default value, then to the key', () => {
    const i18n = make();
    expect(i18n.t('only')).toBe('Só em português');
    expect(i18n.t('nested.deep.leaf')).toBe('folha');
    expect(i18n.t('nowhere', { defaultValue: 'given' })).toBe('given');
    expect(i18n.t('nowhere.at.all')).toBe('nowhere.at.all');
    // a branch is not a text
    expect(i18n.t('nested.deep')).toBe('nested.deep');
  });

  it('leaves a placeholder the options do not name, empties one given as undefined', () => {
    const i18n = make();
    expect(i18n.t('user', { user: { name: 'Bia' } })).toBe('User Bia ({{missing}})');
    expect(i18n.t('user', { user: { name: 'Bia' }, missing: undefined })).toBe('User Bia ()');
    expect(i18n.t('hello')).toBe('Hello, {{name}}!');
  });

  it('says whether a key exists in a language or the fallback', () => {
    const i18n = make();
    expect(i18n.exists('hello')).toBe(true);
    expect(i18n.exists('only', { lng: 'es' })).toBe(true);
    expect(i18n.exists('user', { lng: 'es' })).toBe(false);
    expect(i18n.exists('nested.deep')).toBe(false);
  });

  it('merges added texts, the later winning, and tells listeners of a language change', async () => {
    const i18n = make();
    i18n.addResources('en', { tickets: { plain: 'All tickets' }, hello: 'Hi, {{name}}' });
    expect(i18n.t('tickets.plain')).toBe('All tickets');
    expect(i18n.t('tickets.count', { count: 2 })).toBe('2 tickets');
    expect(i18n.t('hello', { name: 'Caio' })).toBe('Hi, Caio');

    const heard: string[] = [];
    const stop = i18n.onLanguageChanged((lng) => heard.push(lng));
    await i18n.changeLanguage('es');
    await i18n.changeLanguage('es');
    expect(i18n.language).toBe('es');
    expect(i18n.t('hello', { name: 'Caio' })).toBe('¡Hola, Caio!');
    stop();
    await i18n.changeLanguage('pt');
    expect(heard).toEqual(['es']);
  });

  it('fetches the texts of a language once when it is chosen, switches when they are there, and the last choice wins', async () => {
    const asked: string[] = [];
    const arrivals = new Map<string, () => void>();
    const i18n = createTranslator({
      language: 'en',
      fallbackLanguage: 'pt',
      load: (language) => {
        asked.push(language);
        if (language === 'xx') return Promise.reject(new Error('offline'));
        if (language === 'en') return undefined;
        return new Promise<object>((resolve) => {
          arrivals.set(language, () => resolve({ hello: language === 'es' ? '¡Hola!' : 'Olá!' }));
        });
      },
    });
    i18n.addResources('en', { hello: 'Hello!' });

    const toSpanish = i18n.changeLanguage('es');
    const toPortuguese = i18n.changeLanguage('pt');
    // nothing switches before the texts arrive
    await Promise.resolve();
    expect(i18n.language).toBe('en');
    arrivals.get('pt')?.();
    await toPortuguese;
    expect(i18n.language).toBe('pt');
    expect(i18n.t('hello')).toBe('Olá!');
    // Spanish arrives later: the later choice (Portuguese) stays
    arrivals.get('es')?.();
    await toSpanish;
    expect(i18n.language).toBe('pt');
    expect(i18n.t('hello', { lng: 'es' })).toBe('¡Hola!');

    await i18n.changeLanguage('es');
    await i18n.loadLanguage('pt');
    expect(i18n.language).toBe('es');
    // a language without a chunk switches at once; one whose fetch fails is not switched to and is asked again
    await i18n.changeLanguage('en');
    await expect(i18n.changeLanguage('xx')).rejects.toThrow('offline');
    expect(i18n.language).toBe('en');
    await expect(i18n.loadLanguage('xx')).rejects.toThrow('offline');
    expect(asked).toEqual(['es', 'pt', 'en', 'xx', 'xx']);
  });
});
