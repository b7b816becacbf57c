/**
 * A whole scenario definition inside a share link: its JSON text, UTF-8, compressed with raw
 * DEFLATE (the platform's CompressionStream: Chromium, Firefox, Safari 16.4+, Node 18+) and written
 * in base64url, so it sits in a URL hash unescaped. Bounded both ways: a payload longer than
 * `definitionLinkCharsMax` is not made (the page offers the JSON file instead), and inflating stops
 * at the definition's own size bound, so a small link cannot expand into an unbounded one.
 * Decoding never throws and never returns part of a definition.
 */
import { definitionBounds, definitionLinkCharsMax } from './bounds';
import { parseDefinitionText, type DefinitionResult } from './index';
import type { ScenarioDefinition } from './schema';


const BASE64URL = /^[A-Za-z0-9_-]*$/;

function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  const chunk = 0x8000;
  for (let i = 0; i < bytes.length; i += chunk) binary += String.fromCharCode(...bytes.subarray(i, i + chunk));
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array | null {
  if (!BASE64URL.test(text) || text.length % 4 === 1) return null;
  try {
    const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4));
    const out = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
    return out;
  } catch {
    return null;
  }
}

async function collect(stream: ReadableStream<Uint8Array>, bytesMax: number): Promise<Uint8Array | 'too-big'> {
  const reader = stream.getReader();
  const parts: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > bytesMax) {
      await reader.cancel().catch(() => undefined);
      return 'too-big';
    }
    parts.push(value);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

async function transform(bytes: Uint8Array, stream: CompressionStream | DecompressionStream, bytesMax: number): Promise<Uint8Array | 'too-big'> {
  const source = new Blob([bytes as BlobPart]).stream();
  return collect(source.pipeThrough(stream as unknown as ReadableWritablePair<Uint8Array, Uint8Array>), bytesMax);
}

export type DefinitionPayload = { readonly ok: true; readonly payload: string } | { readonly ok: false; readonly chars: number };

/** The link payload of a definition, or how long it would be when over `definitionLinkCharsMax`. */
export async function encodeDefinitionPayload(definition: ScenarioDefinition): Promise<DefinitionPayload> {
  const json = new TextEncoder().encode(JSON.stringify(definition));
  const packed = await transform(json, new CompressionStream('deflate-raw'), Number.MAX_SAFE_INTEGER);
  if (packed === 'too-big') return { ok: false, chars: Number.MAX_SAFE_INTEGER };
  const payload = toBase64Url(packed);
  return payload.length > definitionLinkCharsMax ? { ok: false, chars: payload.length } : { ok: true, payload };
}

/** The definition a link payload carries, validated; or every problem, the link's own first. */
export async function decodeDefinitionPayload(payload: string): Promise<DefinitionResult> {
  const fail = (message: string): DefinitionResult => ({ ok: false, problems: [{ path: '', message }] });
  if (payload.length > definitionLinkCharsMax) return fail(`the scenario in the link is ${payload.length} characters long; at most ${definitionLinkCharsMax} are read`);
  const bytes = fromBase64Url(payload);
  if (bytes === null) return fail('the scenario in the link is not base64url text (cut short or changed?)');
  let inflated: Uint8Array | 'too-big';
  try {
    // UTF-8 takes at most 3 bytes per UTF-16 unit of the definition's bound.
    inflated = await transform(bytes, new DecompressionStream('deflate-raw'), definitionBounds.definitionCharsMax * 3);
  } catch (error) {
    return fail(`the scenario in the link does not decompress (cut short or changed?): ${error instanceof Error ? error.message : String(error)}`);
  }
  if (inflated === 'too-big') return fail(`the scenario in the link expands past ${definitionBounds.definitionCharsMax} characters`);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(inflated);
  } catch {
    return fail('the scenario in the link is not UTF-8 text');
  }
  return parseDefinitionText(text);
}
