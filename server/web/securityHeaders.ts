// The contract's security headers for every HTML answer (site and dashboard): a Content-Security-Policy that allows
// scripts from our own files only (no inline script, no eval), no framing, no sniffing, and a referrer kept to the
// origin across sites. As (name, value) pairs: each surface builds its header block from them.

// Forms go to the site itself, or to a calendar app (`webcal:`: a place page's "Subscribe" button, calendarChoice.ts).
export const CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self' webcal:; base-uri 'none'; frame-ancestors 'none'";

export const SECURITY_HEADER_LINES: ReadonlyArray<readonly [string, string]> = [
  ['Content-Security-Policy', CONTENT_SECURITY_POLICY],
  ['X-Content-Type-Options', 'nosniff'],
  ['Referrer-Policy', 'strict-origin-when-cross-origin'],
  ['X-Frame-Options', 'DENY'],
];

export const HTML_TYPE = 'text/html; charset=utf-8';
