// Hostile input (issue 8, docs/decisions/012-hostile-input.md): every operation of
// /api/openapi.json gets NUL bytes, control characters, huge numbers, wrong types, broken JSON and
// broken multipart, in its path, query and body, as a stranger, an admin, a host and a renter.
// Every query and path parameter of every operation meets every kind of hostile value (issue 18:
// impossible dates, far-off years, repeated keys, empty, long, unicode, negative, not a number...).
// Any answer of 5xx fails the test, listing every request that got one. No randomness: the same
// requests run every time. The focused cases of the issues follow at the end.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addDays,
  formatRand,
  MAX_DAILY_RATE,
  MAX_ODOMETER_KM,
  SANDBOX_SUCCESS_CARD,
  todayIn,
  type Booking,
} from '@karoo/shared';
import {
  authHeader,
  createSignedInUser,
  createTestApp,
  createUser,
  documentUpload,
  expectError,
  expectOk,
  login,
  multipart,
  pdfBytes,
  TEST_PASSWORD,
  type TestApp,
} from './helpers';
import { createTestBooking, createTestCar, createTestReview } from './helpers/vehicles';

type Signed = Awaited<ReturnType<typeof createSignedInUser>>;
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: Json[];
  const?: Json;
  default?: Json;
  minimum?: number;
  maximum?: number;
}

interface Operation {
  method: string;
  /** The OpenAPI path, e.g. /api/car/getCarDetails/{id}. */
  path: string;
  summary: string;
  pathParams: string[];
  queryParams: string[];
  body: JsonSchema | undefined;
  isSecured: boolean;
}

interface Caller {
  name: 'stranger' | 'admin' | 'host' | 'renter';
  /** Signed-in callers; their headers are renewed when a request ends the session. */
  signed: Signed | undefined;
}

interface Failure {
  caller: string;
  method: string;
  url: string;
  /** What was hostile, e.g. body.car_rent_price = 1000000000, or the payload itself. */
  payload: string;
  status: number;
  body: string;
}

// ---- Hostile values ----
const LONG_TEXT = 'x'.repeat(100_000);
const HOSTILE_STRINGS: Json[] = [
  'a\u0000b', // PostgreSQL refuses NUL in text (22021) and in jsonb (22P05)
  '\u0000',
  'tab\tand\nnew line\r',
  'escape\u001b[2J and delete\u007f',
  '\ud800', // a lone surrogate
  LONG_TEXT,
  '../../../../etc/passwd',
  "'; DROP TABLE cars; --",
  '1e308',
  'NaN',
  '-1',
  '',
];
/** Dates a date field could choke on (issue 18), sent to properties named for a date. */
const HOSTILE_DATES: Json[] = ['2025-02-30', '9999-12-31', '275760-01-01', '+275760-09-13T00:00:00.000Z', '0001-01-01'];
const HOSTILE_NUMBERS: Json[] = [1e9, 5e9, 1e308, -1e308, -1, 0, 2_147_483_648, Number.MAX_SAFE_INTEGER + 2, 0.001, 1.5];
/** Wrong types, sent to every property whatever it expects. */
const WRONG_TYPES: Json[] = [null, true, 5e9, 'a\u0000b', [], ['a\u0000b'], { nested: 'a\u0000b' }];
/** Strings standing in for numbers, as a form might send them. */
const NUMERIC_STRINGS: Json[] = ['1e308', '5e9', 'NaN', '-1', ''];

/**
 * Hostile values for one query or path parameter, by kind (issue 18). Each parameter of each
 * operation meets every kind. The callers whose requests reach the service (see `isDeep`) send
 * every value of the kinds marked `everyValue` (the dates that broke the admin reports, and
 * repeated keys) and two of each other kind; the other callers one value of each kind. Values are
 * taken in turn, so that over all parameters every value is sent. `raw` values are sent as written
 * (already URL-encoded, or broken on purpose); the rest are encoded here.
 */
interface HostileKind {
  kind: string;
  values: string[];
  everyValue?: boolean;
  raw?: boolean;
  /** Query strings only: how the parameter is written (repeated, without a value...). */
  queries?: ((name: string) => string)[];
}
const HOSTILE_PARAMETER_KINDS: HostileKind[] = [
  { kind: 'impossible date', everyValue: true, values: ['2025-02-30', '2023-02-29', '2025-04-31', '2025-13-01', '0000-00-00'] },
  { kind: 'far-off year', everyValue: true, values: ['275760-01-01', '99999-12-31', '9999-12-31', '+275760-09-13', '0001-01-01', '2101-01-01'] },
  { kind: 'almost a date', values: ['2025-1-1', '20250101', '2025-01-01T00:00:00Z', '2025/01/01', 'today'] },
  { kind: 'empty', values: ['', ' ', '\t'], queries: [(name) => name, (name) => `${name}=&${name}=`] },
  { kind: 'very long', values: ['x'.repeat(5_000), 'x'.repeat(101), '9'.repeat(400), 'é'.repeat(2_000)] },
  { kind: 'unicode', values: ['✓', '🚗', '\u202Egnp.exe', '２０２５-０１-０１', 'İstanbul', '\uFEFF2025-01-01', 'e\u0301'] },
  { kind: 'negative number', values: ['-1', '-0', '-1e308', '-2147483649', '-9007199254740993'] },
  { kind: 'not a number', values: ['NaN', 'Infinity', '-Infinity', '1e308', '5e9', '0x1F', '99999999999999999999', '1.5'] },
  { kind: 'words', values: ['../..', "'; DROP TABLE cars; --", '__proto__', 'null', 'true', '[]', '{}', '00000000-0000-0000-0000-000000000000'] },
  {
    kind: 'control characters and broken encoding',
    raw: true,
    values: ['a%00b', '%00', '%0A%0D', '%1B%7F', '%ED%A0%80', '%', '%zz', '..%2F..%2F..%2Fetc%2Fpasswd'],
  },
  {
    // Where one value is expected: `?to=a&to=b` reaches the route as an array.
    kind: 'repeated',
    everyValue: true,
    values: [],
    queries: [(name) => `${name}=a&${name}=b`, (name) => `${name}=2030-01-01&${name}=2030-02-01`, (name) => `${name}=a%00b&${name}=1e308`, (name) => `${name}=&${name}=9999-12-31`],
  },
];

/** One attack on one parameter: the URL-encoded value for a path, or the whole query string. */
interface ParameterAttack {
  kind: string;
  /** For a path segment; undefined when the attack only makes sense in a query (a repeated key). */
  pathValue?: string;
  query: (name: string) => string;
}

function parameterAttacks(kind: HostileKind): ParameterAttack[] {
  const encode = (value: string) => (kind.raw ? value : encodeURIComponent(value));
  return [
    ...kind.values.map((value) => ({ kind: kind.kind, pathValue: value === '' ? undefined : encode(value), query: (name: string) => `${name}=${encode(value)}` })),
    ...(kind.queries ?? []).map((query) => ({ kind: kind.kind, query })),
  ];
}
const ATTACKS_BY_KIND = HOSTILE_PARAMETER_KINDS.map((kind) => ({ everyValue: !!kind.everyValue, attacks: parameterAttacks(kind) }));

/** Whole bodies of the wrong shape, sent as JSON. */
const HOSTILE_RAW_BODIES = [
  'null',
  '[]',
  '"a\\u0000b"',
  '123',
  '1e400',
  'true',
  '{',
  '{"a":',
  '['.repeat(5_000),
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  `[${'{},'.repeat(1_000)}{}]`,
];

const BOUNDARY = 'fuzz-boundary';
const multipartHead = (name: string, filename: string) =>
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: application/pdf\r\n\r\n`;

/** Broken multipart bodies: the content type and the bytes. */
const HOSTILE_MULTIPART: { label: string; contentType: string; payload: Buffer }[] = [
  { label: 'no boundary', contentType: 'multipart/form-data', payload: Buffer.from(`${multipartHead('document', 'a.pdf')}%PDF-1.4\r\n--${BOUNDARY}--\r\n`) },
  { label: 'empty boundary', contentType: 'multipart/form-data; boundary=', payload: Buffer.from('--\r\n') },
  { label: 'boundary over 256 characters', contentType: `multipart/form-data; boundary=${'b'.repeat(300)}`, payload: Buffer.from(`--${'b'.repeat(300)}--\r\n`) },
  { label: 'boundary not in the body', contentType: `multipart/form-data; boundary=${BOUNDARY}`, payload: Buffer.from('just some bytes\r\n') },
  {
    label: 'truncated inside a file',
    contentType: `multipart/form-data; boundary=${BOUNDARY}`,
    payload: Buffer.concat([Buffer.from(multipartHead('document', 'a.pdf')), pdfBytes().subarray(0, 40)]),
  },
  {
    label: 'truncated inside a file (registration document)',
    contentType: `multipart/form-data; boundary=${BOUNDARY}`,
    payload: Buffer.concat([Buffer.from(multipartHead('registrationDocument', 'a.pdf')), pdfBytes().subarray(0, 40)]),
  },
  { label: 'truncated inside a part header', contentType: `multipart/form-data; boundary=${BOUNDARY}`, payload: Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-da`) },
  {
    label: 'NUL in a field and a file name',
    contentType: `multipart/form-data; boundary=${BOUNDARY}`,
    payload: Buffer.concat([
      Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="type"\r\n\r\nid\u0000document\r\n`),
      Buffer.from(multipartHead('document', 'a\u0000b.pdf')),
      pdfBytes(),
      Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
    ]),
  },
];

// ---- The world the requests act on ----
let t: TestApp;
let admin: Signed;
let host: Signed;
let renter: Signed;
let decoy: Awaited<ReturnType<typeof createUser>>;
let operations: Operation[];
const world = {
  carId: '',
  carUsername: '',
  otherCarUsername: '',
  pendingBookingId: '',
  completedBookingId: '',
  reviewId: '',
  startDate: '',
  endDate: '',
};

// 10:00 in Johannesburg on 10 March 2030: dates are inputs, never the wall clock.
const NOW = '2030-03-10T08:00:00Z';

beforeAll(async () => {
  t = await createTestApp({ env: { BROWSE_CACHE_MS: '0' } });
  t.clock.set(NOW);
  admin = await createSignedInUser(t.app, t.ctx, { role: 'admin', verification_status: 'verified' });
  host = await createSignedInUser(t.app, t.ctx, { role: 'host', verification_status: 'verified', withDocuments: true });
  renter = await createSignedInUser(t.app, t.ctx, { verification_status: 'verified', withDocuments: true });
  const otherHost = await createUser(t.ctx, { role: 'host', verification_status: 'verified' });
  decoy = await createUser(t.ctx, { verification_status: 'verified' });

  const today = todayIn(t.clock.now());
  world.startDate = addDays(today, 20);
  world.endDate = addDays(today, 22);
  const car = await createTestCar(t.ctx, host.user);
  const otherCar = await createTestCar(t.ctx, otherHost);
  const pending = await createTestBooking(t.ctx, car, renter.user, { start: addDays(today, 5), days: 2 });
  const completed = await createTestBooking(t.ctx, car, renter.user, { start: addDays(today, -10), days: 2, status: 'completed' });
  await createTestReview(t.ctx, car, renter.user, 5);
  const review = await t.db.selectFrom('reviews').select('id').where('car_id', '=', car.id).executeTakeFirstOrThrow();
  Object.assign(world, {
    carId: car.id,
    carUsername: car.car_username,
    otherCarUsername: otherCar.car_username,
    pendingBookingId: pending.id,
    completedBookingId: completed.id,
    reviewId: review.id,
  });

  const openapi = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
  expect(openapi.statusCode).toBe(200);
  operations = readOperations(openapi.json());
}, 60_000);
afterAll(async () => {
  await t?.close();
});

// ---- Reading the OpenAPI document ----
interface OpenApiDocument {
  paths: Record<string, Record<string, {
    summary?: string;
    security?: unknown[];
    parameters?: { in: string; name: string }[];
    requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
  }>>;
}

function readOperations(doc: unknown): Operation[] {
  const { paths } = doc as OpenApiDocument;
  const result: Operation[] = [];
  for (const [path, methods] of Object.entries(paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const parameters = op.parameters ?? [];
      result.push({
        method: method.toUpperCase(),
        path,
        summary: op.summary ?? '',
        pathParams: parameters.filter((p) => p.in === 'path').map((p) => p.name),
        queryParams: parameters.filter((p) => p.in === 'query').map((p) => p.name),
        body: op.requestBody?.content?.['application/json']?.schema,
        isSecured: !!op.security?.length,
      });
    }
  }
  // Reads first, then writes, deletions last: a deletion must not take away what later requests aim at.
  const rank = (m: string) => (m === 'GET' ? 0 : m === 'DELETE' ? 2 : 1);
  return result.sort((a, b) => rank(a.method) - rank(b.method));
}

/** Real values for path parameters, so hostile bodies reach the service and the database. */
function realPathValue(op: Operation, param: string, caller: Caller): string {
  if (param === 'username') return caller.signed?.user.username ?? host.user.username;
  if (param === 'car_username') return world.carUsername;
  if (param === 'type') return 'id_document';
  if (param === 'token') return 'fuzz-token';
  const path = op.path;
  if (path.startsWith('/api/user/')) return caller.signed?.user.id ?? host.user.id;
  if (path.includes('getCarOwnerProfit')) return host.user.id;
  if (path.includes('getProfitPerCar')) return world.carId;
  if (path.includes('createInvoicePerCar') || path.includes('updatePayout')) return world.completedBookingId;
  if (path.startsWith('/api/car/') || path.startsWith('/api/rent/')) return world.carId;
  if (path.startsWith('/api/booking/')) return world.pendingBookingId;
  if (path.startsWith('/api/review/')) return world.reviewId;
  return '00000000-0000-4000-8000-000000000000';
}

function urlOf(op: Operation, caller: Caller, override?: { param: string; value: string }, query = ''): string {
  let url = op.path;
  for (const param of op.pathParams) {
    const value = override?.param === param ? override.value : encodeURIComponent(realPathValue(op, param, caller));
    url = url.replace(`{${param}}`, value);
  }
  return query ? `${url}?${query}` : url;
}

// ---- Bodies built from the request schema ----
/** Values that make the rest of a body valid, so that one hostile property is what the server meets. */
function namedSample(name: string): Json | undefined {
  const samples: Record<string, Json> = {
    email: 'fuzz@example.co.za',
    // Login attempts with hostile passwords lock this account, not the callers'.
    username: decoy.username,
    password: TEST_PASSWORD,
    newPassword: 'Fuzz-pass-123',
    full_name: 'Fuzz Tester',
    name: 'Fuzz Tester',
    phone_number: '+27 82 555 0100',
    id_number: '9001015800085',
    account_number: '62012345678',
    bank_code: '250655',
    address: '1 Long St, Cape Town',
    terms_accepted: true,
    privacy_accepted: true,
    car_username: world.otherCarUsername,
    start_date: world.startDate,
    end_date: world.endDate,
    start_time: '09:00',
    end_time: '17:00',
    car_make: 'Toyota',
    car_model: 'Corolla',
    car_type: 'Sedan',
    car_color: 'White',
    car_plate_number: 'CA 123-456',
    car_year: 2022,
    car_value: 450_000,
    car_rent_price: 800,
    car_odometer: 12_000,
    description: 'A fuzzed car',
    pickup_location: 'Cape Town',
    seats: 5,
    doors: 4,
    seating_capacity: 5,
    latitude: -33.92,
    longitude: 18.42,
    images: [],
    car_images: [],
    available_times: ['09:00'],
    rating: 4,
    comment: 'Great car',
    booking_id: world.completedBookingId,
    paystack_reference: 'fuzz-reference',
    reference: 'fuzz-reference',
    card_number: SANDBOX_SUCCESS_CARD,
    expiry: '12/40',
    cvv: '123',
    token: 'fuzz-token',
    platformCommission: 10,
    commission_rate: 10,
    platform_fee: 25,
    minCarValue: 50_000,
    maxRentalDays: 30,
    maximum_rental_duration_days: 30,
  };
  return Object.hasOwn(samples, name) ? samples[name] : undefined;
}

/** Per operation: what makes its base body pass the service's own checks (fresh names, a valid status). */
let fresh = 0;
const OPERATION_SAMPLES: Record<string, () => Record<string, Json | undefined>> = {
  'POST /api/user/register': () => ({ username: `fuzz_${++fresh}`, email: `fuzz_${fresh}@example.co.za` }),
  'POST /api/user/create': () => ({ username: `fuzz_${++fresh}`, email: `fuzz_${fresh}@example.co.za` }),
  'POST /api/car/newCar/{username}': () => ({ car_username: `fuzz-car-${++fresh}` }),
  'PUT /api/car/updateCar/{id}': () => ({ status: 'available', car_username: undefined }),
  'PATCH /api/car/returnCar/{id}': () => ({ actual_return_date: todayIn(t.clock.now()) }),
  'POST /api/booking/create': () => ({ user_username: undefined }),
  'PATCH /api/booking/{id}/status': () => ({ status: 'cancelled' }),
  'PUT /api/booking/update/{id}': () => ({ status: 'cancelled' }),
};

/** A body that the operation would accept, to put one hostile value into. */
function baseBody(op: Operation): Json {
  const body = sample(op.body!);
  const overrides = OPERATION_SAMPLES[`${op.method} ${op.path}`]?.();
  if (!overrides || body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  for (const [key, value] of Object.entries(overrides)) {
    if (value === undefined) delete body[key];
    else body[key] = value;
  }
  return body;
}

function variants(schema: JsonSchema): JsonSchema[] {
  return schema.anyOf ?? schema.oneOf ?? schema.allOf ?? [schema];
}

function sample(schema: JsonSchema, name = ''): Json {
  const named = namedSample(name);
  if (named !== undefined) return named;
  if (schema.anyOf || schema.oneOf || schema.allOf) {
    const choice = variants(schema).find((s) => s.type !== 'null') ?? variants(schema)[0]!;
    return sample(choice, name);
  }
  if (schema.default !== undefined) return schema.default;
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return schema.enum[0]!;
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object':
      return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([key, s]) => [key, sample(s, key)]));
    case 'array':
      return schema.items ? [sample(schema.items, name)] : [];
    case 'integer':
    case 'number':
      return Math.min(Math.max(1, schema.minimum ?? 1), schema.maximum ?? 1);
    case 'boolean':
      return false;
    case 'null':
      return null;
    default:
      return 'fuzz';
  }
}

type JsonPath = (string | number)[];

/** The hostile values for a property: what its type invites, then every wrong type. */
function hostileValuesFor(schema: JsonSchema, name: string): Json[] {
  const types = new Set(variants(schema).flatMap((v) => (Array.isArray(v.type) ? v.type : [v.type ?? (v.enum ? 'string' : 'any')])));
  const values: Json[] = [];
  if (types.has('string') || types.has('any')) values.push(...HOSTILE_STRINGS, ...(/date/i.test(name) ? HOSTILE_DATES : []));
  if (types.has('number') || types.has('integer') || types.has('any')) values.push(...HOSTILE_NUMBERS, ...NUMERIC_STRINGS);
  values.push(...WRONG_TYPES);
  const seen = new Set<string>();
  return values.filter((v) => !seen.has(JSON.stringify(v)) && !!seen.add(JSON.stringify(v)));
}

/** Every property of a schema with its own schema, nested objects and the first item of lists included. */
function properties(schema: JsonSchema, prefix: JsonPath = [], depth = 0): { path: JsonPath; schema: JsonSchema }[] {
  if (depth > 3) return [];
  const found: { path: JsonPath; schema: JsonSchema }[] = [];
  for (const variant of variants(schema)) {
    if (variant.properties) {
      for (const [key, child] of Object.entries(variant.properties)) {
        found.push({ path: [...prefix, key], schema: child }, ...properties(child, [...prefix, key], depth + 1));
      }
    }
    if (variant.items) {
      if (!variant.items.properties) found.push({ path: [...prefix, 0], schema: variant.items });
      found.push(...properties(variant.items, [...prefix, 0], depth + 1));
    }
  }
  const seen = new Set<string>();
  return found.filter((p) => !seen.has(JSON.stringify(p.path)) && !!seen.add(JSON.stringify(p.path)));
}

function withValueAt(base: Json, path: JsonPath, value: Json): Json {
  const copy = structuredClone(base);
  let node = copy as Record<string | number, Json>;
  for (const [i, key] of path.entries()) {
    if (i === path.length - 1) {
      node[key] = value;
      break;
    }
    const next = node[key];
    if (next === null || typeof next !== 'object') node[key] = typeof path[i + 1] === 'number' ? [] : {};
    node = node[key] as Record<string | number, Json>;
  }
  return copy;
}

// ---- Sending ----
const failures: Failure[] = [];
let requestCount = 0;

function shorten(text: string): string {
  return JSON.stringify(text.length > 160 ? `${text.slice(0, 160)}... (${text.length} chars)` : text);
}

function describePayload(payload: string | Buffer | undefined, contentType: string): string {
  if (payload === undefined) return '';
  return `${contentType} ${shorten(Buffer.isBuffer(payload) ? payload.toString('latin1') : payload)}`;
}

async function send(caller: Caller, method: string, url: string, payload?: string | Buffer, contentType = 'application/json', hostile?: string) {
  requestCount += 1;
  const headers = { ...caller.signed?.headers, ...(payload !== undefined ? { 'content-type': contentType } : {}) };
  const res = await t.app.inject({ method: method as 'GET', url, headers, ...(payload !== undefined ? { payload } : {}) });
  if (res.statusCode >= 500) {
    failures.push({ caller: caller.name, method, url: url.length > 160 ? `${url.slice(0, 160)}...` : url, payload: hostile ?? describePayload(payload, contentType), status: res.statusCode, body: res.body.slice(0, 200) });
  }
  return res;
}

/** Valid values for the query parameters that others are checked against. */
const VALID_QUERY_VALUES: Record<string, string> = { from: '2030-02-01', to: '2030-03-31', startDate: '2030-04-01', endDate: '2030-04-03', page: '1', limit: '5' };

/** The kinds of which one value is also sent beside valid values of the other parameters. */
const DATE_KINDS = new Set(['impossible date', 'far-off year', 'repeated']);

/** Which parameter and kind each caller has sent, to prove the coverage. */
const covered = new Set<string>();
let turn = 0;

/** The attacks on one path or query parameter: of each kind all, two or one, taken in turn. */
function chooseAttacks(deep: boolean, where: 'path' | 'query'): ParameterAttack[] {
  turn += 1;
  return ATTACKS_BY_KIND.flatMap(({ everyValue, attacks }) => {
    const usable = where === 'path' ? attacks.filter((a) => a.pathValue !== undefined) : attacks;
    if (!usable.length) return [];
    if (deep && everyValue) return usable;
    const count = Math.min(deep ? 2 : 1, usable.length);
    return Array.from({ length: count }, (_, i) => usable[(turn * count + i) % usable.length]!);
  });
}

async function attack(op: Operation, caller: Caller, options: { deep: boolean; bodies: boolean }) {
  const hasBody = op.method !== 'GET' && op.method !== 'DELETE';
  const validBody = op.body ? JSON.stringify(baseBody(op)) : hasBody ? '{}' : undefined;

  for (const param of op.pathParams) {
    for (const attack of chooseAttacks(options.deep, 'path')) {
      covered.add(`${caller.name} ${op.method} ${op.path} path ${param} ${attack.kind}`);
      await send(caller, op.method, urlOf(op, caller, { param, value: attack.pathValue! }), validBody);
    }
  }
  for (const param of op.queryParams) {
    // Alone, then (for the callers that reach the service) beside valid values of the operation's
    // other parameters, so that checks across parameters (from before to, a period's length) run too.
    const others = op.queryParams.filter((p) => p !== param && VALID_QUERY_VALUES[p] !== undefined).map((p) => `${p}=${VALID_QUERY_VALUES[p]}`);
    const paired = new Set<string>();
    for (const attack of chooseAttacks(options.deep, 'query')) {
      covered.add(`${caller.name} ${op.method} ${op.path} query ${param} ${attack.kind}`);
      await send(caller, op.method, urlOf(op, caller, undefined, attack.query(param)), validBody);
      if (options.deep && others.length && DATE_KINDS.has(attack.kind) && !paired.has(attack.kind)) {
        paired.add(attack.kind);
        await send(caller, op.method, urlOf(op, caller, undefined, [attack.query(param), ...others].join('&')), validBody);
      }
    }
  }
  if (!hasBody || !options.bodies) return;
  const url = urlOf(op, caller);
  for (const raw of HOSTILE_RAW_BODIES) await send(caller, op.method, url, raw);
  await send(caller, op.method, url, 'a\u0000b', 'text/plain');
  await send(caller, op.method, url, '', 'application/json');
  await send(caller, op.method, url, 'a=%00', 'application/x-www-form-urlencoded');
  for (const broken of HOSTILE_MULTIPART) await send(caller, op.method, url, broken.payload, broken.contentType);
  if (!options.deep || !op.body) return;
  for (const { path, schema } of properties(op.body)) {
    for (const value of hostileValuesFor(schema, String(path.at(-1)))) {
      const hostile = `body.${path.join('.')} = ${shorten(JSON.stringify(value))}`;
      await send(caller, op.method, url, JSON.stringify(withValueAt(baseBody(op), path, value)), 'application/json', hostile);
    }
  }
}

/** Logout (and a password reset) end the caller's session: sign in again so the rest is not hidden behind 401. */
async function staySignedIn(caller: Caller) {
  if (!caller.signed) return;
  const me = await t.app.inject({ method: 'GET', url: '/api/user/me', headers: caller.signed.headers });
  if (me.statusCode === 200) return;
  caller.signed.token = await login(t.app, caller.signed.user.username);
  caller.signed.headers = authHeader(caller.signed.token);
}

function report(list: Failure[]): string {
  return [
    `${list.length} hostile requests answered 5xx:`,
    ...list.map((f) => `  [${f.caller}] ${f.method} ${f.url} ${f.payload} -> ${f.status} ${f.body}`),
  ].join('\n');
}

describe('hostile input on every route of /api/openapi.json', () => {
  it('reads the operations from the OpenAPI document', () => {
    expect(operations.length).toBeGreaterThanOrEqual(70);
    // The uploads: a verification document, a registration document, a trip's check-in or check-out, a dispute's photos, a trip charge's and its answer's evidence, a traffic fine's notice and a fee waiver's evidence.
    expect(operations.filter((op) => /multipart/.test(op.summary)).length).toBe(8);
  });

  // Every caller meets the hostile paths and queries; all but the renter the whole bodies and
  // multipart too (the body is read before anyone's rights are, so the renter would only repeat
  // the host). Every hostile parameter value and every hostile value in each body property go to
  // the public routes as a stranger and to the others as an admin, who may act on any car, booking
  // and user; the host (as an owner) and the renter repeat the rest, with one parameter value of
  // each kind.
  it.each<[Caller['name'], (op: Operation) => boolean]>([
    ['stranger', (op) => !op.isSecured],
    ['admin', (op) => op.isSecured],
    ['host', () => false],
    ['renter', () => false],
  ])('never answers 5xx to %s', async (name, isDeep) => {
    const signed = { stranger: undefined, admin, host, renter }[name];
    const caller: Caller = { name, signed };
    const before = failures.length;
    for (const op of operations) {
      await attack(op, caller, { deep: isDeep(op), bodies: name !== 'renter' });
      await staySignedIn(caller);
    }
    expect(failures.slice(before), report(failures.slice(before))).toEqual([]);
    // About 25 s for the admin on a quiet 2-core machine; room for a busy one.
  }, 300_000);

  it('sent thousands of hostile requests', () => {
    expect(requestCount).toBeGreaterThan(5_000);
  });

  it('sent every kind of hostile value to every query and path parameter of every operation, as every caller', () => {
    const missing: string[] = [];
    for (const caller of ['stranger', 'admin', 'host', 'renter']) {
      for (const op of operations) {
        const params = [...op.pathParams.map((p) => ['path', p] as const), ...op.queryParams.map((p) => ['query', p] as const)];
        for (const [where, param] of params) {
          for (const kind of HOSTILE_PARAMETER_KINDS) {
            if (where === 'path' && !kind.values.some((v) => v !== '')) continue;
            const key = `${caller} ${op.method} ${op.path} ${where} ${param} ${kind.kind}`;
            if (!covered.has(key)) missing.push(key);
          }
        }
      }
    }
    expect(missing).toEqual([]);
    expect(operations.reduce((n, op) => n + op.queryParams.length, 0)).toBeGreaterThan(40);
  });
});

// ---- The cases of the issues, one by one ----
describe('the dates of the admin reports (issue 18): 400 naming the parameter', () => {
  it.each([
    ['/api/earnings/admin/finance', 'to'],
    ['/api/admin/analytics', 'from'],
    ['/api/admin/analytics', 'to'],
    ['/api/earnings/admin/transactions.csv', 'to'],
  ])('%s?%s=9999-12-31 (answered 500)', async (url, param) => {
    const res = await t.app.inject({ method: 'GET', url: `${url}?${param}=9999-12-31`, headers: admin.headers });
    expectError(res, 400, `${param} must be between 2000-01-01 and 2100-12-31`);
    expect(res.json().errors).toHaveProperty(param);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
  });

  it.each([
    ['2025-02-30', 'to must be a real date (YYYY-MM-DD)'],
    ['275760-01-01', 'to must be a date (YYYY-MM-DD)'],
    ['99999-12-31', 'to must be a date (YYYY-MM-DD)'],
    ['1999-12-31', 'to must be between 2000-01-01 and 2100-12-31'],
  ])('to=%s: 400 "%s" on all three routes', async (value, message) => {
    for (const url of ['/api/earnings/admin/finance', '/api/admin/analytics', '/api/earnings/admin/transactions.csv']) {
      expectError(await t.app.inject({ method: 'GET', url: `${url}?to=${value}`, headers: admin.headers }), 400, message);
    }
  });

  it('a parameter given twice (?to=a&to=b): 400 naming it', async () => {
    for (const url of ['/api/earnings/admin/finance', '/api/admin/analytics', '/api/earnings/admin/transactions.csv']) {
      const res = await t.app.inject({ method: 'GET', url: `${url}?to=2030-01-01&to=2030-02-01`, headers: admin.headers });
      expectError(res, 400, 'to must be a date (YYYY-MM-DD)');
    }
  });

  it('analytics from years back without a to: 400 for a period too long, not thousands of weeks', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/admin/analytics?from=2000-01-01', headers: admin.headers });
    expectError(res, 400, /The period may be at most 731 days/);
    expect(res.json().errors).toHaveProperty('from');
  });

  it('the same rule guards every other date: bookings, returns, browse and availability', async () => {
    const booking = { car_username: world.otherCarUsername, start_date: '9999-12-30', end_date: '9999-12-31', start_time: '09:00', end_time: '17:00' };
    expectError(await t.app.inject({ method: 'POST', url: '/api/booking/create', headers: renter.headers, payload: booking }), 400, 'Start date must be between 2000-01-01 and 2100-12-31');
    expectError(await t.app.inject({ method: 'GET', url: '/api/car/getCarList?startDate=2030-02-30' }), 400, 'startDate must be a real date (YYYY-MM-DD)');
    expectError(await t.app.inject({ method: 'GET', url: `/api/car/${world.carUsername}/availability?to=9999-12-31` }), 400, 'to must be between 2000-01-01 and 2100-12-31');
    const returned = await t.app.inject({ method: 'PATCH', url: `/api/car/returnCar/${world.carId}`, headers: host.headers, payload: { actual_return_date: '+275760-09-13T00:00:00.000Z' } });
    expectError(returned, 400, /Return date must be a date \(YYYY-MM-DD\) or a time/);
  });
});

describe('the reported cases answer 4xx', () => {
  it('NUL in a car path: 400 or 404', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/car/getCarDetails/a%00b' });
    expect([400, 404]).toContain(res.statusCode);
    expectError(res, res.statusCode);
  });

  it('NUL in the owner filter of the browse list: 400', async () => {
    expectError(await t.app.inject({ method: 'GET', url: '/api/car/getCarList?owner=a%00b' }), 400, /not allowed/);
  });

  it('NUL in the username of a login: 400', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/user/login', payload: { username: 'a\u0000b', password: 'whatever1' } });
    expectError(res, 400, 'Username or email contains characters that are not allowed');
  });

  it('a rent price of 1e9: 400 with the maximum', async () => {
    const res = await t.app.inject({ method: 'POST', url: `/api/rent/updateCarRentPrice/${world.carId}`, headers: host.headers, payload: { car_rent_price: 1e9 } });
    expectError(res, 400, `Daily price must be at most ${formatRand(MAX_DAILY_RATE)}`);
  });

  it('an odometer of 5e9: 400 with the maximum', async () => {
    const res = await t.app.inject({ method: 'PUT', url: `/api/car/updateCar/${world.carId}`, headers: host.headers, payload: { car_odometer: 5e9 } });
    expectError(res, 400, `Odometer must be at most ${MAX_ODOMETER_KM.toLocaleString('en-ZA')} km`);
  });

  it('a price of R20 million a day: 400 with the maximum, so no car can be priced out of booking', async () => {
    const res = await t.app.inject({ method: 'PUT', url: `/api/car/updateCar/${world.carId}`, headers: host.headers, payload: { car_rent_price: 20_000_000 } });
    expectError(res, 400, `Daily price must be at most ${formatRand(MAX_DAILY_RATE)}`);
  });

  it('a 30-day booking of a car priced R20 million a day (listed before the maximum) is created with the right total', async () => {
    const owner = await createUser(t.ctx, { role: 'host', verification_status: 'verified' });
    const supercar = await createTestCar(t.ctx, owner, { make: 'Bugatti', model: 'Chiron', price: 20_000_000, value: 60_000_000 });
    const start = addDays(todayIn(t.clock.now()), 40);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/booking/create',
      headers: renter.headers,
      payload: { car_username: supercar.car_username, start_date: start, end_date: addDays(start, 30), start_time: '09:00', end_time: '17:00' },
    });
    // R600 million plus the 10% service fee: 66 000 000 000 cents, 30 times what a 32-bit column holds.
    const booking = expectOk<Booking>(res, 201);
    expect(booking).toMatchObject({ duration_days: 30, subtotal: 600_000_000, service_fee: 60_000_000, total_price: 660_000_000 });
    const stored = await t.db.selectFrom('bookings').select(['subtotal_cents', 'total_price_cents']).where('id', '=', booking.id).executeTakeFirstOrThrow();
    expect(stored).toEqual({ subtotal_cents: 60_000_000_000, total_price_cents: 66_000_000_000 });
    // Read back as exact numbers (the INT8 parser), not strings.
    expect(typeof stored.total_price_cents).toBe('number');
    const listed = expectOk<Booking[]>(await t.app.inject({ method: 'GET', url: '/api/booking/getAll', headers: renter.headers }));
    expect(listed.find((b) => b.id === booking.id)?.total_price).toBe(660_000_000);
  });

  it.each([
    ['a document', () => `/api/user/${host.user.id}/upload-document`, 'document'],
    ['a registration document', () => `/api/car/uploadRegistrationDocument/${world.carUsername}`, 'registrationDocument'],
  ])('malformed multipart for %s: 400', async (_label, url, field) => {
    for (const contentType of ['multipart/form-data', `multipart/form-data; boundary=${'b'.repeat(300)}`]) {
      const res = await t.app.inject({ method: 'POST', url: url(), headers: { ...host.headers, 'content-type': contentType }, payload: 'hello' });
      expectError(res, 400, /multipart|form|upload/i);
    }
    const whole = field === 'document' ? documentUpload('id_document', pdfBytes()) : multipart([{ name: field, filename: 'r.pdf', data: pdfBytes(), contentType: 'application/pdf' }]);
    const truncated = whole.payload.subarray(0, whole.payload.length - 60);
    const res = await t.app.inject({ method: 'POST', url: url(), headers: { ...host.headers, ...whole.headers }, payload: truncated });
    expectError(res, 400, /multipart|form|upload/i);
  });
});
