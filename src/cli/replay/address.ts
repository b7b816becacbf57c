/**
 * The server a replay talks to, from --redis. Pure (no ioredis), so the argument parser can check
 * it and name the problem before anything connects.
 */
export interface ServerAddress {
  /** As given, for messages; without a password. */
  readonly display: string;
  readonly url: string;
}

export function parseServerUrl(text: string): ServerAddress | { readonly problem: string } {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { problem: `--redis must be a URL such as redis://127.0.0.1:6379, got "${text}"` };
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') return { problem: `--redis must start with redis:// or rediss://, got "${text}"` };
  if (url.hostname === '') return { problem: `--redis needs a host, got "${text}"` };
  if (url.pathname !== '' && url.pathname !== '/' && !/^\/(0|[1-9][0-9]?)$/.test(url.pathname)) {
    return { problem: `--redis: the path must be a database number (/0 to /99), got "${url.pathname}"` };
  }
  const shown = new URL(url.href);
  if (shown.password !== '') shown.password = '***';
  return { display: shown.href.replace(/\/$/, ''), url: url.href };
}
