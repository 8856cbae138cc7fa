// The contract's security headers for every HTML answer (site and dashboard): a Content-Security-Policy that allows
// scripts, the web app manifest and the service worker from our own files only (no inline script, no eval), no
// framing (but for the widget), no sniffing, and a referrer kept to the origin across sites. As (name, value) pairs:
// each surface builds its header block from them.

/**
 * The policy but for who may frame the page: one declaration for framed and unframed pages alike. Forms go to the
 * site itself, or to a calendar app (`webcal:`: a place page's "Subscribe" button, calendarChoice.ts).
 */
const POLICY_WITHOUT_FRAMING =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; manifest-src 'self'; worker-src 'self'; form-action 'self' webcal:; base-uri 'none'";

export const CONTENT_SECURITY_POLICY = `${POLICY_WITHOUT_FRAMING}; frame-ancestors 'none'`;

export const SECURITY_HEADER_LINES: ReadonlyArray<readonly [string, string]> = [
  ['Content-Security-Policy', CONTENT_SECURITY_POLICY],
  ['X-Content-Type-Options', 'nosniff'],
  ['Referrer-Policy', 'strict-origin-when-cross-origin'],
  ['X-Frame-Options', 'DENY'],
];

/**
 * The same for the pages meant to be framed by any site (the widget, `/embed/…`): `frame-ancestors *` and no
 * X-Frame-Options (its DENY would win in browsers that read it); everything else as above.
 */
export const EMBEDDABLE_SECURITY_HEADER_LINES: ReadonlyArray<readonly [string, string]> = SECURITY_HEADER_LINES.filter(([name]) => name !== 'X-Frame-Options').map(
  ([name, value]) => (name === 'Content-Security-Policy' ? [name, `${POLICY_WITHOUT_FRAMING}; frame-ancestors *`] as const : [name, value] as const),
);

export const HTML_TYPE = 'text/html; charset=utf-8';
