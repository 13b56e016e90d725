// POST /platforms/pci/wallet/v1/tokenize over real HTTP: seed 4.2 headers, the body of 2.4, the card token of 2.3, and
// every error code of 7.2 (each one also forced with X-Test-Status). The wallet is the independent EC_v1 encryptor of
// test/support/fakes/wallet.ts, encrypting to the key GET /sandbox/wallet/merchant-key publishes.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startSandbox, type Harness, type Reply, type SellerWithToken } from '../../support/sandbox-harness.ts';
import { errorAssertion } from '../../support/api-assertions.ts';
import { encryptWalletPaymentData, encryptWalletPlaintext, type WalletMerchant, type WalletPaymentInput } from '../../support/fakes/wallet.ts';
import { generateMerchantKey } from '../../../sandbox/wallet/merchant-key.ts';
import { TOKENIZE_ERRORS, type TokenizeErrorCode } from '../../../shared/errors.ts';
import { cardTokenSchema } from '../../../shared/schemas/tokenize.ts';

const PATH = '/platforms/pci/wallet/v1/tokenize';
const PAN = '4509953566233704';

let h: Harness;
let seller: SellerWithToken;
let other: SellerWithToken;
let merchant: WalletMerchant;

before(async () => {
  h = await startSandbox();
  seller = await h.seller('AR');
  other = await h.seller('AR');
  const key = await h.request('GET', '/sandbox/wallet/merchant-key');
  assert.equal(key.status, 200, key.text);
  merchant = { publicKeySpkiBase64: key.body.public_key, merchantIdentifier: key.body.merchant_identifier };
});
after(() => h.close());

/** platform-facts "Error bodies": the errors-array shape, with a code of seed 7.2. */
const assertError: (reply: Reply, status: number, code: TokenizeErrorCode, detail?: string) => void = errorAssertion({
  json: false,
  body: 'only-errors',
  exactKeys: false,
  details: 'array',
});

function headers(extra: Record<string, string> = {}): Record<string, string> {
  return { 'x-product-id': 'qr-counter-kiosk', 'x-public-key': seller.public_key, ...extra };
}

function body(input: WalletPaymentInput = {}): Record<string, unknown> {
  const wallet = encryptWalletPaymentData(merchant, input);
  return {
    payment_method: { type: 'apple_pay', payment_data: wallet.paymentData },
    transaction_identifier: wallet.transactionId,
    device: { fingerprint: { os: 'iOS', system_version: '17.4', model: 'iPhone15,2', resolution: '1179x2556', ram: 6144 }, platform: { session_id: 's-1' } },
  };
}

function tokenize(o: { token?: string; headers?: Record<string, string>; body?: unknown; raw?: string } = {}): Promise<Reply> {
  return h.request('POST', PATH, {
    token: o.token ?? seller.token,
    headers: o.headers ?? headers(),
    ...(o.raw !== undefined ? { raw: o.raw } : { body: o.body ?? body() }),
  });
}

describe('seed 4.2 / 2.3: a card token', () => {
  test('seed 4.2 / 2.3: 200 with {id, bin}: a 32-hex id and the first six digits of the card', async () => {
    const reply = await tokenize({ body: body({ pan: PAN, cardholderName: 'APRO' }) });
    assert.equal(reply.status, 200, reply.text);
    assert.deepEqual(Object.keys(reply.body).sort(), ['bin', 'id']);
    assert.match(reply.body.id, /^[0-9a-f]{32}$/);
    assert.equal(reply.body.bin, '450995');
    assert.ok(cardTokenSchema.safeParse(reply.body).success, 'the response must pass the shared cardTokenSchema');
  });

  test('seed 2.3: the stored token keeps last four, cardholder, card expiry and the seller, unused', async () => {
    const reply = await tokenize({ body: body({ pan: '5031755734530604', cardholderName: 'CONT', expirationYYMMDD: '291130' }) });
    assert.equal(reply.status, 200, reply.text);
    const record = h.sandbox.state.cardTokens.get(reply.body.id);
    assert.ok(record, 'the card token is stored');
    assert.equal(record.bin, '503175');
    assert.equal(record.last_four, '0604');
    assert.equal(record.cardholder_name, 'CONT');
    assert.equal(record.expiration, '2029-11');
    assert.equal(record.user_id, seller.user_id);
    assert.equal(record.used, false);
  });

  test('seed 2.3: two tokenizations give two different tokens', async () => {
    const a = await tokenize();
    const b = await tokenize();
    assert.equal(a.status, 200, a.text);
    assert.equal(b.status, 200, b.text);
    assert.notEqual(a.body.id, b.body.id);
  });

  test('seed 2.4: device data is optional', async () => {
    const { device: _device, ...withoutDevice } = body();
    const reply = await tokenize({ body: withoutDevice });
    assert.equal(reply.status, 200, reply.text);
  });

  test('seed 4.2: X-Request-ID is echoed as x-request-id; without it one is made', async () => {
    const echoed = await tokenize({ headers: headers({ 'x-request-id': 'trace-123' }) });
    assert.equal(echoed.headers.get('x-request-id'), 'trace-123');
    const made = await tokenize({ headers: headers({ 'x-test-status': 'internal_server_error' }) });
    assert.match(made.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
  });
});

describe('seed 7.2: 401 unauthorized', () => {
  test('seed 7.2: 401 unauthorized without an Authorization header', async () => {
    const reply = await h.request('POST', PATH, { headers: headers(), body: body() });
    assertError(reply, 401, 'unauthorized');
  });

  test('seed 7.2: 401 unauthorized with an unknown bearer token', async () => {
    assertError(await tokenize({ token: `${seller.token}x` }), 401, 'unauthorized');
  });

  test('seed 7.2: 401 unauthorized when the access token has expired', async () => {
    const short = await startSandbox({ tokenLifetimeSeconds: 60 });
    try {
      const s = await short.seller('AR');
      await short.request('POST', '/sandbox/clock', { body: { advance_seconds: 61 } });
      const reply = await short.request('POST', PATH, { token: s.token, headers: { 'x-product-id': 'p', 'x-public-key': s.public_key }, body: body() });
      assertError(reply, 401, 'unauthorized');
    } finally {
      await short.close();
    }
  });

  test("seed 7.2: 401 unauthorized when X-Public-Key is not the application's", async () => {
    const reply = await tokenize({ headers: headers({ 'x-public-key': other.public_key }) });
    assertError(reply, 401, 'unauthorized', 'X-Public-Key');
  });
});

describe('seed 7.2: 400 invalid_request', () => {
  test('seed 7.2: 400 invalid_request when X-Product-ID is missing', async () => {
    const reply = await tokenize({ headers: { 'x-public-key': seller.public_key } });
    assertError(reply, 400, 'invalid_request', 'X-Product-ID');
  });

  test('seed 7.2: 400 invalid_request when X-Public-Key is missing', async () => {
    const reply = await tokenize({ headers: { 'x-product-id': 'qr-counter-kiosk' } });
    assertError(reply, 400, 'invalid_request', 'X-Public-Key');
  });

  test('seed 7.2: 400 invalid_request when the body is not JSON', async () => {
    assertError(await tokenize({ raw: '{"payment_method":' }), 400, 'invalid_request', 'body');
  });

  test('seed 7.2: 400 invalid_request when the body is empty or not an object', async () => {
    assertError(await tokenize({ raw: '' }), 400, 'invalid_request', 'body');
    assertError(await tokenize({ raw: '[1]' }), 400, 'invalid_request', 'body');
  });

  test('seed 7.2: 400 invalid_request when transaction_identifier is missing', async () => {
    const { transaction_identifier: _t, ...rest } = body();
    assertError(await tokenize({ body: rest }), 400, 'invalid_request', 'transaction_identifier');
  });

  test('seed 7.2: 400 invalid_request when payment_method.payment_data is missing', async () => {
    const reply = await tokenize({ body: { ...body(), payment_method: { type: 'apple_pay' } } });
    assertError(reply, 400, 'invalid_request', 'payment_method.payment_data');
  });

  test('seed 7.2: 400 invalid_request when payment_method is missing', async () => {
    const { payment_method: _p, ...rest } = body();
    assertError(await tokenize({ body: rest }), 400, 'invalid_request', 'payment_method');
  });

  test('seed 7.2: 400 invalid_request when the access token is sent in the query string', async () => {
    const reply = await h.request('POST', `${PATH}?access_token=${seller.token}`, { headers: headers(), body: body() });
    assertError(reply, 400, 'invalid_request', 'access_token');
  });
});

describe('seed 7.2: 400 invalid_parameter', () => {
  test('seed 7.2: 400 invalid_parameter when device.fingerprint.resolution is not <width>x<height>', async () => {
    const b = body();
    (b.device as { fingerprint: { resolution: string } }).fingerprint.resolution = '1179 by 2556';
    assertError(await tokenize({ body: b }), 400, 'invalid_parameter', 'device.fingerprint.resolution');
  });

  test('seed 7.2: 400 invalid_parameter when a field has the wrong type', async () => {
    assertError(await tokenize({ body: { ...body(), transaction_identifier: 12345 } }), 400, 'invalid_parameter', 'transaction_identifier');
  });

  test('seed 7.2: 400 invalid_parameter when payment_data is not a wallet token', async () => {
    const reply = await tokenize({ body: { ...body(), payment_method: { type: 'apple_pay', payment_data: 'bm90IGEgdG9rZW4=' } } });
    assertError(reply, 400, 'invalid_parameter', 'payment_method.payment_data');
    assert.ok(reply.body.errors[0].details.includes('malformed'), reply.text);
  });

  test('seed 7.2: 400 invalid_parameter when payment_data was encrypted to another merchant key', async () => {
    const stranger = generateMerchantKey();
    const wallet = encryptWalletPaymentData({ publicKeySpkiBase64: stranger.publicKeySpkiBase64, merchantIdentifier: stranger.merchantIdentifier });
    const reply = await tokenize({ body: { payment_method: { type: 'apple_pay', payment_data: wallet.paymentData }, transaction_identifier: wallet.transactionId } });
    assertError(reply, 400, 'invalid_parameter', 'payment_method.payment_data');
    assert.ok(reply.body.errors[0].details.includes('key_mismatch'), reply.text);
  });

  test('seed 7.2: 400 invalid_parameter when payment_data was tampered with', async () => {
    const wallet = encryptWalletPaymentData(merchant);
    const token = JSON.parse(Buffer.from(wallet.paymentData, 'base64').toString('utf8'));
    const data = Buffer.from(token.data, 'base64');
    data[0] = (data[0] ?? 0) ^ 0xff;
    token.data = data.toString('base64');
    const tampered = Buffer.from(JSON.stringify(token)).toString('base64');
    const reply = await tokenize({ body: { payment_method: { type: 'apple_pay', payment_data: tampered }, transaction_identifier: wallet.transactionId } });
    assertError(reply, 400, 'invalid_parameter', 'payment_method.payment_data');
    assert.ok(reply.body.errors[0].details.includes('decrypt_failed'), reply.text);
  });

  test('seed 7.2: 400 invalid_parameter when the decrypted card data lacks the card number', async () => {
    const wallet = encryptWalletPlaintext(merchant, JSON.stringify({ applicationExpirationDate: '301231' }));
    const reply = await tokenize({ body: { payment_method: { type: 'apple_pay', payment_data: wallet.paymentData }, transaction_identifier: wallet.transactionId } });
    assertError(reply, 400, 'invalid_parameter', 'payment_method.payment_data');
    assert.ok(reply.body.errors[0].details.includes('bad_plaintext'), reply.text);
  });

  test("seed 7.2: 400 invalid_parameter when transaction_identifier is not the wallet token's transactionId", async () => {
    const b = body({ transactionId: 'abcdef0123' });
    const before = h.sandbox.state.cardTokens.size;
    assertError(await tokenize({ body: { ...b, transaction_identifier: 'abcdef0124' } }), 400, 'invalid_parameter', 'transaction_identifier');
    assert.equal(h.sandbox.state.cardTokens.size, before, 'no card token is stored');
  });
});

describe('seed 4.2 / 7.2: X-Test-Status forces an error', () => {
  for (const [code, spec] of Object.entries(TOKENIZE_ERRORS) as Array<[TokenizeErrorCode, (typeof TOKENIZE_ERRORS)[TokenizeErrorCode]]>) {
    test(`seed 7.2: X-Test-Status ${code} answers ${spec.status} ${code} and stores nothing`, async () => {
      const before = h.sandbox.state.cardTokens.size;
      const reply = await tokenize({ headers: headers({ 'x-test-status': code }) });
      assertError(reply, spec.status, code, 'X-Test-Status');
      assert.equal(h.sandbox.state.cardTokens.size, before);
    });
  }

  test('seed 7.2: an unknown X-Test-Status is 400 invalid_parameter naming X-Test-Status', async () => {
    assertError(await tokenize({ headers: headers({ 'x-test-status': 'teapot' }) }), 400, 'invalid_parameter', 'X-Test-Status');
  });

  test('seed 7.2: X-Test-Status does not bypass the credentials check', async () => {
    const reply = await tokenize({ token: 'TEST-nope', headers: headers({ 'x-test-status': 'service_unavailable' }) });
    assertError(reply, 401, 'unauthorized');
  });
});
