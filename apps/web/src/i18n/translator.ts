/**
 * The app's translator: texts by language under dotted keys, `{{name}}` interpolation and plurals by `count`
 * (`key_one`, `key_other`… chosen by the language's `Intl.PluralRules`), missing keys looked up in the fallback
 * language, then `defaultValue`, then the key itself. It is what the app used of i18next (issue 23: i18next and
 * react-i18next were 14 KB of the inbox's 234 KB of brotli JavaScript; this is under 1 KB), with i18next's
 * answers for those uses: `t(key, options)`, `exists`, `changeLanguage`, `getFixedT`, `getResourceBundle`,
 * `addResourceBundle` and the `languageChanged` event. Values are not HTML-escaped (React escapes).
 */

export type TTranslateOptions = {
  /** chooses the plural form and is interpolated as `{{count}}` */
  count?: number;
  /** the text when the key has none in the language or the fallback */
  defaultValue?: string;
  /** another language than the current one */
  lng?: string;
  [value: string]: unknown;
};

export type TFunction = (key: string, options?: TTranslateOptions) => string;

type TTree = { [key: string]: string | TTree };

type TLanguageListener = (language: string) => void;

const isTree = (value: unknown): value is TTree => typeof value === 'object' && value !== null;

/** deep merge, `source` winning where both have a text (as i18next's `addResourceBundle(…, true, true)`) */
const merge = (target: TTree, source: TTree) => {
  for (const [key, value] of Object.entries(source)) {
    const current = target[key];
    if (isTree(value) && isTree(current)) {
      merge(current, value);
    } else {
      target[key] = isTree(value) ? merge({}, value) : value;
    }
  }

  return target;
};

const PLACEHOLDER = /\{\{\s*([\w.]+)\s*\}\}/g;

const valueAt = (values: Record<string, unknown>, path: string) => {
  let value: unknown = values;
  for (const part of path.split('.')) {
    value = isTree(value) ? (value as Record<string, unknown>)[part] : undefined;
  }

  return value;
};

/**
 * `{{name}}` and `{{a.b}}` from the options, as i18next does: a name the options do not have stays as it is
 * written, one they have as `undefined` or `null` becomes empty
 */
const interpolate = (text: string, values: TTranslateOptions | undefined) =>
  values === undefined
    ? text
    : text.replace(PLACEHOLDER, (placeholder, path: string) => {
        if (!Object.hasOwn(values, path.split('.')[0])) return placeholder;
        const value = valueAt(values, path);

        return value === undefined || value === null ? '' : String(value);
      });

export const createTranslator = (opts: {
  language: string;
  fallbackLanguage: string;
  /** fetches a language's texts that were not added up front (a lazily loaded chunk); none: nothing to fetch */
  load?: (language: string) => Promise<object> | undefined;
}) => {
  const bundles = new Map<string, TTree>();
  const loads = new Map<string, Promise<void>>();
  /** counts language changes: a change whose texts arrive after a later change does not switch */
  let changes = 0;
  const listeners = new Set<TLanguageListener>();
  const pluralRules = new Map<string, Intl.PluralRules>();

  const pluralOf = (language: string, count: number) => {
    let rules = pluralRules.get(language);
    if (!rules) {
      rules = new Intl.PluralRules(language);
      pluralRules.set(language, rules);
    }

    return rules.select(count);
  };

  const lookup = (language: string, key: string): string | undefined => {
    let node: string | TTree | undefined = bundles.get(language);
    for (const part of key.split('.')) {
      if (!isTree(node)) return undefined;
      node = node[part];
    }

    return typeof node === 'string' ? node : undefined;
  };

  /** the text of `key` in `language`: its plural form first when a count is given */
  const find = (language: string, key: string, count: number | undefined) => {
    if (count !== undefined) {
      const plural = lookup(language, `${key}_${pluralOf(language, count)}`);
      if (plural !== undefined) return plural;
    }

    return lookup(language, key);
  };

  const translator = {
    language: opts.language,

    t: ((key, options) => translator.getFixedT(options?.lng ?? translator.language)(key, options)) as TFunction,

    /** a `t` of one language, whatever the current one becomes */
    getFixedT: (language: string): TFunction => {
      return (key, options) => {
        const count = options?.count;
        const text =
          find(language, key, count) ??
          (language === opts.fallbackLanguage ? undefined : find(opts.fallbackLanguage, key, count)) ??
          options?.defaultValue ??
          key;

        return interpolate(text, options);
      };
    },

    /** has `key` a text in the language (the current one unless `lng`) or the fallback? */
    exists: (key: string, options?: { lng?: string }) => {
      const language = options?.lng ?? translator.language;

      return lookup(language, key) !== undefined || lookup(opts.fallbackLanguage, key) !== undefined;
    },

    /** fetches the language's texts once (when `load` has them); a failed fetch may be tried again */
    loadLanguage: (language: string): Promise<void> => {
      let loading = loads.get(language);
      if (!loading) {
        loading = Promise.resolve(opts.load?.(language)).then(
          (texts) => {
            if (texts) translator.addResources(language, texts);
          },
          (error: unknown) => {
            loads.delete(language);
            throw error;
          },
        );
        loads.set(language, loading);
      }

      return loading;
    },

    /** switches once the language's texts are there; the last change asked for wins */
    changeLanguage: async (language: string) => {
      const change = ++changes;
      await translator.loadLanguage(language);
      if (change !== changes || language === translator.language) return;
      translator.language = language;
      for (const listener of [...listeners]) listener(language);
    },

    /** adds (or replaces) texts of a language */
    addResources: (language: string, texts: object) => {
      const bundle = bundles.get(language) ?? {};
      bundles.set(language, merge(bundle, texts as TTree));
    },

    /** every text of a language, as a tree (one namespace: i18next's `translation`) */
    getResourceBundle: (language: string, _namespace = 'translation') => bundles.get(language) ?? {},

    /** `languageChanged`: the listener hears every change of the current language; answers the unsubscribe */
    onLanguageChanged: (listener: TLanguageListener) => {
      listeners.add(listener);

      return () => {
        listeners.delete(listener);
      };
    },
  };

  return translator;
};

export type TTranslator = ReturnType<typeof createTranslator>;
