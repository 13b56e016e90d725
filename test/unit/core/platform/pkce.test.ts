import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { challengeS256, createPkcePair, createState, createVerifier, isValidVerifier } from '../../../../electron/core/platform/pkce.ts';

// RFC 7636 Appendix B: the 32 random octets, the verifier they give, the SHA-256 octets of that verifier, and the
// challenge. (Copies of this vector often get the middle of the verifier wrong; these values are checked both ways.)
const RFC_OCTETS = [116, 24, 223, 180, 151, 153, 224, 37, 79, 250, 96, 125, 216, 173, 187, 186, 22, 212, 37, 77, 105, 214, 191, 240, 91, 88, 5, 88, 83, 132, 141, 121];
const RFC_VERIFIER = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
const RFC_SHA256_OCTETS = [19, 211, 30, 150, 26, 26, 216, 236, 47, 22, 177, 12, 76, 152, 46, 8, 118, 168, 120, 173, 109, 241, 68, 86, 110, 225, 137, 74, 203, 112, 249, 195];
const RFC_CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

const base64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

describe('PKCE (RFC 7636)', () => {
  it('Appendix B: the 32 octets give the RFC verifier', () => {
    assert.equal(createVerifier(32, () => Uint8Array.from(RFC_OCTETS)), RFC_VERIFIER);
  });

  it('Appendix B: S256 of the RFC verifier is the RFC challenge', () => {
    assert.equal(challengeS256(RFC_VERIFIER), RFC_CHALLENGE);
  });

  it('Appendix B, independently: the challenge is base64url (no padding) of the SHA-256 octets the RFC lists', () => {
    const digest = createHash('sha256').update(Buffer.from(RFC_VERIFIER, 'ascii')).digest();
    assert.deepEqual([...digest], RFC_SHA256_OCTETS);
    assert.equal(base64url(Uint8Array.from(RFC_SHA256_OCTETS)), RFC_CHALLENGE);
  });

  it('4.1: a verifier is 43 characters of the unreserved set by default, 128 at most, and new each time', () => {
    const a = createVerifier();
    const b = createVerifier();
    assert.match(a, /^[A-Za-z0-9._~-]{43}$/);
    assert.notEqual(a, b);
    assert.equal(createVerifier(96).length, 128);
    assert.throws(() => createVerifier(31), RangeError);
    assert.throws(() => createVerifier(97), RangeError);
  });

  it('4.1: verifiers shorter than 43, longer than 128 or outside the charset are refused', () => {
    assert.equal(isValidVerifier('a'.repeat(42)), false);
    assert.equal(isValidVerifier('a'.repeat(129)), false);
    assert.equal(isValidVerifier(`${'a'.repeat(42)}+`), false);
    assert.equal(isValidVerifier(`${'a'.repeat(40)}-._~`), true);
    assert.throws(() => challengeS256('short'), RangeError);
  });

  it('a pair is S256 and its challenge matches its verifier; state is 128 random bits, new each time', () => {
    const pair = createPkcePair();
    assert.equal(pair.method, 'S256');
    assert.equal(pair.challenge, challengeS256(pair.verifier));
    const s1 = createState();
    assert.match(s1, /^[A-Za-z0-9_-]{22}$/);
    assert.notEqual(s1, createState());
  });
});
