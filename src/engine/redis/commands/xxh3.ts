/**
 * XXH3-64 (xxHash 0.8, seed 0, default secret), the hash behind Redis 8.4's DIGEST command and
 * the IFDEQ/IFDNE conditions of SET and DELEX. A straight port of the reference scalar code in
 * BigInt: digests are rare in Lockstep (one per command that asks), so clarity wins over speed.
 */

const MASK64 = (1n << 64n) - 1n;

const PRIME32_1 = 0x9e3779b1n;
const PRIME32_2 = 0x85ebca77n;
const PRIME32_3 = 0xc2b2ae3dn;
const PRIME64_1 = 0x9e3779b185ebca87n;
const PRIME64_2 = 0xc2b2ae3d27d4eb4fn;
const PRIME64_3 = 0x165667b19e3779f9n;
const PRIME64_4 = 0x85ebca77c2b2ae63n;
const PRIME64_5 = 0x27d4eb2f165667c5n;
const PRIME_MX1 = 0x165667919e3779f9n;
const PRIME_MX2 = 0x9fb21c651e98df25n;

/** XXH3's default 192-byte secret (kSecret). */
const SECRET = Uint8Array.from(
  (
    'b8fe6c3923a44bbe7c01812cf721ad1cded46de9839097db7240a4a4b7b3671fcb79e64eccc0e578825ad07dccff7221b8084674f743248ee03590e6813a264c' +
    '3c2852bb91c300cb88d0658b1b532ea371644897a20df94e3819ef46a9deacd8a8fa763fe39c343ff9dcbbc7c70b4f1d8a51e04bcdb45931c89f7ec9d9787364' +
    'eac5ac8334d3ebc3c581a0fffa1363eb170ddd51b7f0da49d316552629d4689e2b16be587d47a1fc8ff8b8d17ad031ce45cb3a8f95160428afd7fbcabb4b407e'
  )
    .match(/../g)!
    .map((byte) => parseInt(byte, 16)),
);

const STRIPE_LEN = 64;
const SECRET_CONSUME_RATE = 8;
const ACC_NB = 8;

function readLE64(bytes: Uint8Array, offset: number): bigint {
  let value = 0n;
  for (let i = 7; i >= 0; i--) value = (value << 8n) | BigInt(bytes[offset + i]);
  return value;
}

function readLE32(bytes: Uint8Array, offset: number): bigint {
  return BigInt((bytes[offset] | (bytes[offset + 1] << 8) | (bytes[offset + 2] << 16) | (bytes[offset + 3] << 24)) >>> 0);
}

const mul = (a: bigint, b: bigint) => (a * b) & MASK64;
const add = (a: bigint, b: bigint) => (a + b) & MASK64;
const rotl64 = (x: bigint, r: bigint) => ((x << r) | (x >> (64n - r))) & MASK64;

function swap64(x: bigint): bigint {
  let out = 0n;
  for (let i = 0n; i < 8n; i++) out = (out << 8n) | ((x >> (8n * i)) & 0xffn);
  return out;
}

function mul128Fold64(a: bigint, b: bigint): bigint {
  const product = a * b;
  return (product & MASK64) ^ (product >> 64n);
}

function xxh64Avalanche(h: bigint): bigint {
  h ^= h >> 33n;
  h = mul(h, PRIME64_2);
  h ^= h >> 29n;
  h = mul(h, PRIME64_3);
  return h ^ (h >> 32n);
}

function avalanche(h: bigint): bigint {
  h ^= h >> 37n;
  h = mul(h, PRIME_MX1);
  return h ^ (h >> 32n);
}

function rrmxmx(h: bigint, length: number): bigint {
  h ^= rotl64(h, 49n) ^ rotl64(h, 24n);
  h = mul(h, PRIME_MX2);
  h ^= (h >> 35n) + BigInt(length);
  h = mul(h, PRIME_MX2);
  return h ^ (h >> 28n);
}

function mix16B(input: Uint8Array, inputOffset: number, secretOffset: number): bigint {
  return mul128Fold64(readLE64(input, inputOffset) ^ readLE64(SECRET, secretOffset), readLE64(input, inputOffset + 8) ^ readLE64(SECRET, secretOffset + 8));
}

function len1to3(input: Uint8Array): bigint {
  const length = input.length;
  const combined = (BigInt(input[0]) << 16n) | (BigInt(input[length >> 1]) << 24n) | BigInt(input[length - 1]) | (BigInt(length) << 8n);
  const bitflip = readLE32(SECRET, 0) ^ readLE32(SECRET, 4);
  return xxh64Avalanche(combined ^ bitflip);
}

function len4to8(input: Uint8Array): bigint {
  const length = input.length;
  const input1 = readLE32(input, 0);
  const input2 = readLE32(input, length - 4);
  const bitflip = readLE64(SECRET, 8) ^ readLE64(SECRET, 16);
  return rrmxmx((input2 + (input1 << 32n)) ^ bitflip, length);
}

function len9to16(input: Uint8Array): bigint {
  const length = input.length;
  const low = readLE64(input, 0) ^ (readLE64(SECRET, 24) ^ readLE64(SECRET, 32));
  const high = readLE64(input, length - 8) ^ (readLE64(SECRET, 40) ^ readLE64(SECRET, 48));
  const acc = (BigInt(length) + swap64(low) + high + mul128Fold64(low, high)) & MASK64;
  return avalanche(acc);
}

function len17to128(input: Uint8Array): bigint {
  const length = input.length;
  let acc = mul(BigInt(length), PRIME64_1);
  if (length > 32) {
    if (length > 64) {
      if (length > 96) {
        acc = add(acc, mix16B(input, 48, 96));
        acc = add(acc, mix16B(input, length - 64, 112));
      }
      acc = add(acc, mix16B(input, 32, 64));
      acc = add(acc, mix16B(input, length - 48, 80));
    }
    acc = add(acc, mix16B(input, 16, 32));
    acc = add(acc, mix16B(input, length - 32, 48));
  }
  acc = add(acc, mix16B(input, 0, 0));
  acc = add(acc, mix16B(input, length - 16, 16));
  return avalanche(acc);
}

function len129to240(input: Uint8Array): bigint {
  const length = input.length;
  const roundCount = Math.floor(length / 16);
  let acc = mul(BigInt(length), PRIME64_1);
  for (let i = 0; i < 8; i++) acc = add(acc, mix16B(input, 16 * i, 16 * i));
  acc = avalanche(acc);
  for (let i = 8; i < roundCount; i++) acc = add(acc, mix16B(input, 16 * i, 16 * (i - 8) + 3));
  acc = add(acc, mix16B(input, length - 16, 136 - 17));
  return avalanche(acc);
}

function accumulate512(acc: bigint[], input: Uint8Array, inputOffset: number, secretOffset: number): void {
  for (let i = 0; i < ACC_NB; i++) {
    const dataValue = readLE64(input, inputOffset + 8 * i);
    const dataKey = dataValue ^ readLE64(SECRET, secretOffset + 8 * i);
    acc[i ^ 1] = add(acc[i ^ 1], dataValue);
    acc[i] = add(acc[i], (dataKey & 0xffffffffn) * (dataKey >> 32n));
  }
}

function scrambleAcc(acc: bigint[], secretOffset: number): void {
  for (let i = 0; i < ACC_NB; i++) {
    let value = acc[i];
    value ^= value >> 47n;
    value ^= readLE64(SECRET, secretOffset + 8 * i);
    acc[i] = mul(value, PRIME32_1);
  }
}

function long(input: Uint8Array): bigint {
  const length = input.length;
  const acc = [PRIME32_3, PRIME64_1, PRIME64_2, PRIME64_3, PRIME64_4, PRIME32_2, PRIME64_5, PRIME32_1];
  const stripesPerBlock = (SECRET.length - STRIPE_LEN) / SECRET_CONSUME_RATE;
  const blockLength = STRIPE_LEN * stripesPerBlock;
  const blockCount = Math.floor((length - 1) / blockLength);
  for (let n = 0; n < blockCount; n++) {
    for (let s = 0; s < stripesPerBlock; s++) accumulate512(acc, input, n * blockLength + s * STRIPE_LEN, s * SECRET_CONSUME_RATE);
    scrambleAcc(acc, SECRET.length - STRIPE_LEN);
  }
  const lastStripes = Math.floor((length - 1 - blockLength * blockCount) / STRIPE_LEN);
  for (let s = 0; s < lastStripes; s++) accumulate512(acc, input, blockCount * blockLength + s * STRIPE_LEN, s * SECRET_CONSUME_RATE);
  accumulate512(acc, input, length - STRIPE_LEN, SECRET.length - STRIPE_LEN - 7);
  let result = mul(BigInt(length), PRIME64_1);
  for (let i = 0; i < 4; i++) {
    result = add(result, mul128Fold64(acc[2 * i] ^ readLE64(SECRET, 11 + 16 * i), acc[2 * i + 1] ^ readLE64(SECRET, 11 + 16 * i + 8)));
  }
  return avalanche(result);
}

/** XXH3_64bits(input) with seed 0, as an unsigned 64-bit BigInt. */
export function xxh3(input: Uint8Array): bigint {
  const length = input.length;
  if (length === 0) return xxh64Avalanche(readLE64(SECRET, 56) ^ readLE64(SECRET, 64));
  if (length <= 3) return len1to3(input);
  if (length <= 8) return len4to8(input);
  if (length <= 16) return len9to16(input);
  if (length <= 128) return len17to128(input);
  if (length <= 240) return len129to240(input);
  return long(input);
}
