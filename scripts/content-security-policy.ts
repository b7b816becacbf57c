/**
 * The page's Content Security Policy, written once: vite.config.ts puts it in the built page as a
 * `<meta>` (so hosts that cannot set headers, such as GitHub Pages, still enforce it), sends it as
 * a header from `vite preview` (what the end-to-end tests load), and writes Netlify's `_headers`;
 * docs/DEPLOY.md gives it for nginx. Nothing inline, nothing evaluated: scripts, styles, workers
 * and the service worker come from the page's own origin only. `frame-ancestors *` keeps the embed
 * (docs/AUTOMATION.md, "Embed mode") open to any course page; a `<meta>` cannot carry it, so it is
 * a header only.
 */
const directives: readonly (readonly [string, string])[] = [
  ['default-src', "'self'"],
  ['script-src', "'self'"],
  ['style-src', "'self'"],
  ['img-src', "'self' data:"],
  ['font-src', "'self'"],
  ['connect-src', "'self'"],
  ['worker-src', "'self'"],
  ['manifest-src', "'self'"],
  ['object-src', "'none'"],
  ['base-uri', "'self'"],
  ['form-action', "'none'"],
];

/** Directives a `<meta>` policy ignores (the browser warns about them there). */
const headerOnly: readonly (readonly [string, string])[] = [['frame-ancestors', '*']];

function format(list: readonly (readonly [string, string])[]): string {
  return list.map(([name, value]) => `${name} ${value}`).join('; ');
}

/** The policy as an HTTP header value. */
export const cspHeader = format([...directives, ...headerOnly]);

/** The policy as a `<meta http-equiv="Content-Security-Policy">` carries it. */
export const cspMeta = format(directives);
