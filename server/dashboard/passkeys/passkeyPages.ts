// The passkey parts of the dashboard's pages: the passkeys page (the list, Remove, which asks first, "Add a passkey")
// and the "Sign in with a passkey" block of the sign-in page, each with the note shown instead at an origin that is
// not the relying party's. The buttons are driven by /assets/passkeys.js (with the
// @simplewebauthn/browser bundle); the blocks carry what the script needs in data- attributes (the endpoints, the
// CSRF token for the X-CSRF-Token header, the messages in the page's language) and stay hidden until the script
// shows them, so without JavaScript a note says what to do instead.
import type { PasskeyCredential } from '../../accounts/passkeyStore.js';
import { DASHBOARD_PATH } from '../../links.js';
import { html, type Html } from '../../web/html.js';
import type { AssetName } from '../../web/assets.js';
import { confirmationContent } from '../confirmPage.js';
import { DASHBOARD_PATHS } from '../dashboardPaths.js';
import type { DashboardContext } from '../dashboardTypes.js';
import { withNext } from '../nextPath.js';
import { PASSKEY_WORDS, type PasskeyWords } from './passkeyWords.js';
import { relyingParty } from './relyingParty.js';

export const PASSKEY_PATHS = {
  page: `${DASHBOARD_PATH}/passkeys`,
  /** POST json: registration options for the signed-in account (a challenge bound to the session). */
  registerOptions: `${DASHBOARD_PATH}/passkeys/register/options`,
  /** POST json `{ name, response }`: the browser's registration response. */
  register: `${DASHBOARD_PATH}/passkeys/register`,
  /** POST form with the confirmation: removes one passkey (`:id` is the credential id). */
  remove: `${DASHBOARD_PATH}/passkeys/:id/remove`,
  /**
   * GET `?id=`: asks before removing. The id is in the query, not the path: the dashboard's GET paths are lower-cased
   * (a 301), and a credential id is base64url, in both cases.
   */
  askRemove: `${DASHBOARD_PATH}/passkeys/remove`,
  /** POST json: sign-in options (a challenge bound to the browser's `__Host-signin` cookie, no credentials listed). */
  signInOptions: `${DASHBOARD_PATH}/sign-in/passkey/options`,
  /** POST json: the browser's authentication response; signs in. */
  signIn: `${DASHBOARD_PATH}/sign-in/passkey`,
} as const;

export const removePath = (id: string): string => PASSKEY_PATHS.remove.replace(':id', encodeURIComponent(id));
export const askRemovePath = (id: string): string => `${PASSKEY_PATHS.askRemove}?id=${encodeURIComponent(id)}`;

/** The scripts a page with a passkey button loads: the library's bundle first, then ours. */
export const PASSKEY_SCRIPTS: readonly AssetName[] = ['simplewebauthn-browser.js', 'passkeys.js'];

/** The messages the script shows, in the page's language. */
function scriptWords(w: PasskeyWords): Html {
  return html`data-working="${w.working}" data-cancelled="${w.cancelled}" data-failed="${w.failed}" data-unsupported="${w.unsupported}" data-exists="${w.alreadyRegistered}"`;
}

/**
 * The relying party's origin for the script (`data-rp-origin`), and the note it shows instead of the button when the
 * page is open at another origin (127.0.0.1 where the relying party is localhost), with a link to this page there.
 */
function elsewhere(context: DashboardContext, w: PasskeyWords, path: string): { origin: Html; note: Html } {
  const rp = relyingParty(context);
  const there = `${rp.origin}${path}`;
  return {
    origin: html`data-rp-origin="${rp.origin}"`,
    note: html`<p class="note" data-passkey-elsewhere hidden>${w.elsewhere(rp.id)} ${w.openAt} <a href="${there}">${there}</a></p>`,
  };
}

/** The "Sign in with a passkey" block of the sign-in page; `next`, the page to land on (nextPath.ts). */
export function passkeySignInBlock(context: DashboardContext, next?: string): Html {
  const w = PASSKEY_WORDS[context.language];
  const rp = elsewhere(context, w, withNext(DASHBOARD_PATHS.signIn, next));
  return html`<section id="passkey-sign-in" aria-labelledby="passkey-sign-in-title" data-passkey="sign-in" data-options="${PASSKEY_PATHS.signInOptions}" data-verify="${withNext(PASSKEY_PATHS.signIn, next)}" data-csrf="${context.signinCsrfToken}" ${rp.origin} ${scriptWords(w)} hidden>
<h2 id="passkey-sign-in-title">${w.signInTitle}</h2>
<p>${w.signInLede}</p>
<p><button type="button" data-passkey-start>${w.signInButton}</button></p>
${rp.note}
<p class="note" role="status" data-passkey-status></p>
</section>
<noscript><p class="note">${w.signInNeedsScript}</p></noscript>`;
}

const day = (ms: number): Html => {
  const iso = new Date(ms).toISOString();
  return html`<time datetime="${iso}">${iso.slice(0, 10)}</time>`;
};

/** The passkeys page's content. */
export function passkeysContent(context: DashboardContext, credentials: readonly PasskeyCredential[], notice?: { text: string; alert: boolean }): Html {
  const w = PASSKEY_WORDS[context.language];
  const rp = elsewhere(context, w, PASSKEY_PATHS.page);
  const rows = credentials.map(
    (c) => html`<tr>
<th scope="row">${c.name}</th>
<td data-label="${w.created}">${day(c.createdAt)}</td>
<td data-label="${w.lastUsed}">${c.lastUsedAt === undefined ? w.never : day(c.lastUsedAt)}</td>
<td><form method="get" action="${PASSKEY_PATHS.askRemove}">
<input type="hidden" name="id" value="${c.id}">
<button type="submit" aria-label="${w.removeLabel(c.name)}">${w.remove}</button>
</form></td>
</tr>
`,
  );
  return html`<h1>${w.title}</h1>
${notice && html`<p class="note" role="${notice.alert ? 'alert' : 'status'}">${notice.text}</p>\n`}<p class="lede">${w.lede}</p>
${
  credentials.length === 0
    ? html`<p>${w.none}</p>\n`
    : html`<table class="stack">
<caption>${w.caption}</caption>
<thead><tr><th scope="col">${w.name}</th><th scope="col">${w.created}</th><th scope="col">${w.lastUsed}</th><th scope="col"><span class="visually-hidden">${w.remove}</span></th></tr></thead>
<tbody>
${rows}</tbody>
</table>
`
}<section id="passkey-add" aria-labelledby="passkey-add-title" data-passkey="register" data-options="${PASSKEY_PATHS.registerOptions}" data-verify="${PASSKEY_PATHS.register}" data-csrf="${context.csrfToken}" ${rp.origin} ${scriptWords(w)} hidden>
<h2 id="passkey-add-title">${w.addTitle}</h2>
<p>${w.addLede}</p>
<p><label for="passkey-name">${w.nameLabel}</label><br>
<input id="passkey-name" name="name" type="text" maxlength="60" autocomplete="off"></p>
<p><button type="button" data-passkey-start>${w.add}</button></p>
${rp.note}
<p class="note" role="status" data-passkey-status></p>
</section>
<noscript><p class="note">${w.needsScript}</p></noscript>`;
}

/** GET /dashboard/passkeys/remove?id=…: asks before removing (the POST form carries the confirmation). */
export function removeConfirmContent(context: DashboardContext, credential: PasskeyCredential): Html {
  const w = PASSKEY_WORDS[context.language];
  return confirmationContent({
    question: w.removeQuestion(credential.name),
    consequence: w.removeConsequence,
    action: removePath(credential.id),
    confirmLabel: w.removeConfirm,
    back: { href: PASSKEY_PATHS.page, label: w.keep },
    csrf: context.csrfToken,
  });
}
