/**
 * Bad requests generated from the OpenAPI document, for test/fuzz.test.ts. Deterministic: the same
 * document gives the same cases in the same order, so a failure found once is found again.
 */

type TSchema = {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  minimum?: number;
  minLength?: number;
  format?: string;
  nullable?: boolean;
  anyOf?: TSchema[];
  oneOf?: TSchema[];
  allOf?: TSchema[];
  properties?: Record<string, TSchema>;
  required?: string[];
  items?: TSchema;
};

type TParameter = { in: 'path' | 'query' | 'header' | 'cookie'; name: string; schema?: TSchema };

type TDocOperation = {
  parameters?: TParameter[];
  requestBody?: { content?: Record<string, { schema?: TSchema }> };
};

export type TOpenApiDocument = { paths: Record<string, Record<string, TDocOperation>> };

export type TOperation = {
  /** `POST /api/queue/:id`, as the server's route list names it */
  key: string;
  method: string;
  /** the document's path, `{id}` placeholders */
  path: string;
  pathParams: string[];
  query: TParameter[];
  bodySchema?: TSchema;
  contentTypes: string[];
};

export type TFuzzCase = {
  label: string;
  url: string;
  payload?: string | Buffer;
  contentType?: string;
  /** text no column can store (NUL, a lone surrogate) somewhere in it: answered 400 ERR_VALIDATION */
  unstorable?: 'params' | 'query' | 'body';
};

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

export const operationsOf = (doc: TOpenApiDocument): TOperation[] =>
  Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, op]) => {
        const parameters = op.parameters ?? [];
        const content = op.requestBody?.content ?? {};
        const json = content['application/json'];

        return {
          key: `${method.toUpperCase()} ${path.replace(/\{([^}]+)\}/g, ':$1')}`,
          method: method.toUpperCase(),
          path,
          pathParams: parameters.filter((p) => p.in === 'path').map((p) => p.name),
          query: parameters.filter((p) => p.in === 'query'),
          bodySchema: json?.schema,
          contentTypes: Object.keys(content),
        };
      }),
  );

/** every type a schema accepts (each branch of a union, null when nullable) */
const typesOf = (schema: TSchema | undefined): Set<string> => {
  const branches = [...(schema?.anyOf ?? []), ...(schema?.oneOf ?? [])];
  const types = new Set(branches.length > 0 ? branches.flatMap((b) => [...typesOf(b)]) : [typeOf(schema)]);
  if (schema?.nullable || (Array.isArray(schema?.type) && schema.type.includes('null'))) types.add('null');

  return types;
};

/** the type a schema asks for (the first branch of a union) */
const typeOf = (schema: TSchema | undefined): string => {
  if (!schema) return 'any';
  const branch = schema.anyOf?.[0] ?? schema.oneOf?.[0] ?? schema.allOf?.[0];
  if (branch) return typeOf(branch);
  if (Array.isArray(schema.type)) return schema.type.find((t) => t !== 'null') ?? 'any';
  if (schema.type) return schema.type === 'integer' ? 'number' : schema.type;

  return schema.properties ? 'object' : 'any';
};

/** a value of the asked type, near enough to valid that validation reaches the other fields */
export const plausible = (schema: TSchema | undefined, depth = 0): unknown => {
  if (!schema || depth > 4) return undefined;
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  const branch = schema.anyOf?.[0] ?? schema.oneOf?.[0] ?? schema.allOf?.[0];
  if (branch) return plausible(branch, depth);
  switch (typeOf(schema)) {
    case 'string':
      if (schema.format === 'email') return 'fuzz@example.com';
      if (schema.format === 'uri') return 'https://example.com/fuzz';
      return 'fuzz value'.padEnd(schema.minLength ?? 0, 'z');
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return true;
    case 'array':
      return [];
    case 'object':
      return Object.fromEntries(
        (schema.required ?? []).map((name) => [name, plausible(schema.properties?.[name], depth + 1)]),
      );
    default:
      return undefined;
  }
};

/** one value of each JSON type; a property gets all but its own */
const WRONG_VALUES: { type: string; value: unknown }[] = [
  { type: 'string', value: 'fuzz' },
  { type: 'number', value: 12345 },
  { type: 'boolean', value: true },
  { type: 'object', value: { fuzz: 1 } },
  { type: 'array', value: [1, 'a', null] },
  { type: 'null', value: null },
];

/** at most this many properties of a body are fuzzed one by one (the first ones, in document order) */
const MAX_PROPERTIES = 12;
const MEGABYTE = 'x'.repeat(1024 * 1024);
const DEEP = 10_000;
const deepArray = () => `${'['.repeat(DEEP)}${']'.repeat(DEEP)}`;

const BAD_IDS: { value: string; unstorable?: boolean }[] = [
  { value: 'abc' },
  { value: '-1' },
  { value: '0' },
  { value: '1e3' },
  { value: '1.5' },
  { value: '99999999999' },
  { value: '9'.repeat(250) },
  { value: 'x'.repeat(1000) },
  { value: '%00', unstorable: true },
  { value: 'a%00b', unstorable: true },
  { value: '%ED%A0%80' },
  { value: '%25' },
  { value: '%20' },
  { value: '..%2F..' },
  { value: '%' },
];

const BAD_QUERY: { value: string; unstorable?: boolean }[] = [
  { value: '' },
  { value: 'abc' },
  { value: '-1' },
  { value: '1e3' },
  { value: '99999999999' },
  { value: 'true' },
  { value: '%5B%5D' },
  { value: 'x'.repeat(4000) },
  { value: '%00', unstorable: true },
  { value: '%ED%A0%80' },
  { value: '%' },
];

export type TPathValues = (op: TOperation, param: string) => string;

const fillPath = (op: TOperation, valid: TPathValues, override: Record<string, string> = {}) =>
  op.path.replace(/\{([^}]+)\}/g, (_, name: string) => override[name] ?? encodeURIComponent(valid(op, name)));

const pathCases = (op: TOperation, valid: TPathValues): TFuzzCase[] =>
  op.pathParams.flatMap((param) =>
    BAD_IDS.map((bad) => ({
      label: `path ${param}=${bad.value.slice(0, 20)}`,
      url: fillPath(op, valid, { [param]: bad.value }),
      unstorable: bad.unstorable ? ('params' as const) : undefined,
    })),
  );

const queryCases = (op: TOperation, base: string): TFuzzCase[] => [
  ...op.query.flatMap((param) => [
    ...BAD_QUERY.map((bad) => ({
      label: `query ${param.name}=${bad.value.slice(0, 20)}`,
      url: `${base}?${encodeURIComponent(param.name)}=${bad.value}`,
      unstorable: bad.unstorable ? ('query' as const) : undefined,
    })),
    { label: `query ${param.name} twice`, url: `${base}?${param.name}=1&${param.name}=abc` },
    { label: `query ${param.name}[]`, url: `${base}?${param.name}[]=1&${param.name}[x]=2` },
  ]),
  { label: 'query unknown key with NUL', url: `${base}?fuzz=a%00b`, unstorable: 'query' },
  { label: 'query __proto__', url: `${base}?__proto__=x&constructor[prototype][x]=1&__proto__[admin]=1` },
];

/** the JSON string properties of a body schema, in document order */
const propertiesOf = (schema: TSchema | undefined) => Object.entries(schema?.properties ?? {}).slice(0, MAX_PROPERTIES);

const json = (label: string, url: string, value: unknown, unstorable?: boolean): TFuzzCase => ({
  label,
  url,
  payload: JSON.stringify(value),
  contentType: 'application/json',
  unstorable: unstorable ? 'body' : undefined,
});

const raw = (label: string, url: string, payload: string | Buffer, contentType?: string): TFuzzCase => ({
  label,
  url,
  payload,
  contentType,
});

const bodyCases = (op: TOperation, url: string, opts: { sendValid: boolean }): TFuzzCase[] => {
  const schema = op.bodySchema;
  const base = (schema && typeOf(schema) === 'object' ? plausible(schema) : {}) as Record<string, unknown>;
  const properties = propertiesOf(schema);
  const strings = properties.filter(([, s]) => typeOf(s) === 'string').map(([name]) => name);
  const firstString = strings[0] ?? 'fuzz';
  const baseText = JSON.stringify(base);
  // the raw member goes last: of duplicate keys, the last one counts
  const withRaw = (key: string, rawValue: string) =>
    baseText === '{}' ? `{"${key}":${rawValue}}` : `${baseText.slice(0, -1)},"${key}":${rawValue}}`;
  const cases: TFuzzCase[] = [
    json('body {}', url, {}),
    json('body with an unknown key only', url, { fuzzUnknownField: 'x' }),
    ...(opts.sendValid ? [json('body plausible', url, base)] : []),
    ...properties.flatMap(([name, s]) =>
      WRONG_VALUES.filter((w) => !typesOf(s).has(w.type) && !typesOf(s).has('any')).map((w) =>
        json(`body ${name}=${JSON.stringify(w.value)}`, url, { ...base, [name]: w.value }),
      ),
    ),
    json(`body ${firstString} of 1 MB`, url, { ...base, [firstString]: MEGABYTE }),
    json('body of 3 MB', url, { ...base, fuzz: MEGABYTE.repeat(3) }),
    json(
      'body strings with NUL',
      url,
      { ...base, ...Object.fromEntries([firstString, ...strings].map((name) => [name, 'a\u0000b'])) },
      true,
    ),
    json('body key with NUL', url, { ...base, 'fu\u0000zz': 'x' }, true),
    json('body nested string with NUL', url, { ...base, fuzz: [{ deep: ['\u0000'] }] }, true),
    { ...raw('body lone surrogate', url, withRaw(firstString, '"a\\ud800b"'), 'application/json'), unstorable: 'body' },
    {
      ...raw('body lone low surrogate', url, withRaw(firstString, '"\\udc00"'), 'application/json'),
      unstorable: 'body',
    },
    raw('body __proto__', url, withRaw('__proto__', '{"fuzz":1,"isAdmin":true}'), 'application/json'),
    raw('body constructor.prototype', url, withRaw('constructor', '{"prototype":{"fuzz":1}}'), 'application/json'),
    raw('body nested __proto__', url, withRaw(firstString, '{"__proto__":{"x":1}}'), 'application/json'),
    raw('body 10,000 nested arrays', url, deepArray(), 'application/json'),
    raw(`body ${firstString} 10,000 nested arrays`, url, withRaw(firstString, deepArray()), 'application/json'),
    raw('body 10,000 nested objects', url, `${'{"a":'.repeat(DEEP)}1${'}'.repeat(DEEP)}`, 'application/json'),
    raw('body invalid JSON', url, '{"a":', 'application/json'),
    raw('body unquoted keys', url, '{a:1}', 'application/json'),
    raw('body empty with JSON type', url, '', 'application/json'),
    raw('body raw NUL byte', url, Buffer.from([0x7b, 0x00, 0x7d]), 'application/json'),
    raw(
      'body invalid UTF-8',
      url,
      Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
      'application/json',
    ),
    ...['[]', '"text"', '42', 'null', 'true'].map((p) => raw(`body ${p}`, url, p, 'application/json')),
    raw('body as text/plain', url, baseText, 'text/plain'),
    raw('body form-urlencoded', url, 'a=b&__proto__=x', 'application/x-www-form-urlencoded'),
    raw('body multipart without boundary', url, 'x', 'multipart/form-data'),
    raw('body multipart with an empty boundary', url, 'x', 'multipart/form-data; boundary='),
    raw('body multipart with a 300-character boundary', url, 'x', `multipart/form-data; boundary=${'b'.repeat(300)}`),
    raw(
      'body multipart cut short',
      url,
      '--zz\r\nContent-Disposition: form-data; name="body"\r\n\r\nhel',
      'multipart/form-data; boundary=zz',
    ),
    raw(
      'body multipart file cut short',
      url,
      '--zz\r\nContent-Disposition: form-data; name="medias"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n\x89PNG',
      'multipart/form-data; boundary=zz',
    ),
    raw(
      'body multipart malformed header',
      url,
      '--zz\r\nno header here\r\n\r\nx\r\n--zz--\r\n',
      'multipart/form-data; boundary=zz',
    ),
    raw(
      'body multipart field __proto__',
      url,
      '--zz\r\nContent-Disposition: form-data; name="__proto__"\r\n\r\nx\r\n--zz--\r\n',
      'multipart/form-data; boundary=zz',
    ),
    raw('body xml', url, '<a>1</a>', 'application/xml'),
    raw('body octet-stream', url, Buffer.from([0, 1, 2, 255]), 'application/octet-stream'),
    raw('body JSON labelled UTF-16', url, Buffer.from('{"a":1}', 'utf16le'), 'application/json; charset=utf-16'),
    raw('body without a content type', url, baseText),
  ];

  return cases;
};

/**
 * The bad requests of one operation: malformed path ids (the other ids valid), bad query values, and for
 * operations that take a body, bodies of every wrong shape. `sendValid` adds the plausible body itself
 * (off where a valid request would change a fixture the suite checks afterwards).
 */
export const casesFor = (op: TOperation, valid: TPathValues, opts: { sendValid: boolean }): TFuzzCase[] => {
  const url = fillPath(op, valid);
  const takesBody = ['POST', 'PUT', 'PATCH'].includes(op.method);

  return [...pathCases(op, valid), ...queryCases(op, url), ...(takesBody ? bodyCases(op, url, opts) : [])];
};
