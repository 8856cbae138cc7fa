// The passkey parts of the dashboard's pages: the passkeys page (the list, Remove, "Add a passkey") and the "Sign in
// with a passkey" block of the sign-in page. The buttons are driven by /assets/passkeys.js (with the
// @simplewebauthn/browser bundle); the blocks carry what the script needs in data- attributes (the endpoints, the
// CSRF token for the X-CSRF-Token header, the messages in the page's language) and stay hidden until the script
// shows them, so without JavaScript a note says what to do instead.
import type { PasskeyCredential } from '../../accounts/passkeyStore.js';
import { DASHBOARD_PATH } from '../../links.js';
import { html, type Html } from '../../web/html.js';
import type { AssetName } from '../../web/assets.js';
import { CSRF_FIELD } from '../csrf.js';
import type { DashboardContext } from '../dashboardTypes.js';
import { PASSKEY_WORDS, type PasskeyWords } from './passkeyWords.js';

export const PASSKEY_PATHS = {
  page: `${DASHBOARD_PATH}/passkeys`,
  /** POST json: registration options for the signed-in account (a challenge bound to the session). */
  registerOptions: `${DASHBOARD_PATH}/passkeys/register/options`,
  /** POST json `{ name, response }`: the browser's registration response. */
  register: `${DASHBOARD_PATH}/passkeys/register`,
  /** POST form: removes one passkey (`:id` is the credential id). */
  remove: `${DASHBOARD_PATH}/passkeys/:id/remove`,
  /** POST json: sign-in options (a challenge bound to the browser's `__Host-signin` cookie, no credentials listed). */
  signInOptions: `${DASHBOARD_PATH}/sign-in/passkey/options`,
  /** POST json: the browser's authentication response; signs in. */
  signIn: `${DASHBOARD_PATH}/sign-in/passkey`,
} as const;

export const removePath = (id: string): string => PASSKEY_PATHS.remove.replace(':id', encodeURIComponent(id));

/** The scripts a page with a passkey button loads: the library's bundle first, then ours. */
export const PASSKEY_SCRIPTS: readonly AssetName[] = ['simplewebauthn-browser.js', 'passkeys.js'];

/** The messages the script shows, in the page's language. */
function scriptWords(w: PasskeyWords): Html {
  return html`data-working="${w.working}" data-cancelled="${w.cancelled}" data-failed="${w.failed}" data-unsupported="${w.unsupported}" data-exists="${w.alreadyRegistered}"`;
}

/** The "Sign in with a passkey" block of the sign-in page. */
export function passkeySignInBlock(context: DashboardContext): Html {
  const w = PASSKEY_WORDS[context.language];
  return html`<section id="passkey-sign-in" aria-labelledby="passkey-sign-in-title" data-passkey="sign-in" data-options="${PASSKEY_PATHS.signInOptions}" data-verify="${PASSKEY_PATHS.signIn}" data-csrf="${context.signinCsrfToken}" ${scriptWords(w)} hidden>
<h2 id="passkey-sign-in-title">${w.signInTitle}</h2>
<p>${w.signInLede}</p>
<p><button type="button" data-passkey-start>${w.signInButton}</button></p>
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
  const rows = credentials.map(
    (c) => html`<tr>
<th scope="row">${c.name}</th>
<td data-label="${w.created}">${day(c.createdAt)}</td>
<td data-label="${w.lastUsed}">${c.lastUsedAt === undefined ? w.never : day(c.lastUsedAt)}</td>
<td><form method="post" action="${removePath(c.id)}">
<input type="hidden" name="${CSRF_FIELD}" value="${context.csrfToken}">
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
}<section id="passkey-add" aria-labelledby="passkey-add-title" data-passkey="register" data-options="${PASSKEY_PATHS.registerOptions}" data-verify="${PASSKEY_PATHS.register}" data-csrf="${context.csrfToken}" ${scriptWords(w)} hidden>
<h2 id="passkey-add-title">${w.addTitle}</h2>
<p>${w.addLede}</p>
<p><label for="passkey-name">${w.nameLabel}</label><br>
<input id="passkey-name" name="name" type="text" maxlength="60" autocomplete="off"></p>
<p><button type="button" data-passkey-start>${w.add}</button></p>
<p class="note" role="status" data-passkey-status></p>
</section>
<noscript><p class="note">${w.needsScript}</p></noscript>`;
}
