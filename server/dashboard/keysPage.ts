// The keys pages of the dashboard (contract, "Developer dashboard", Keys), pure: data in, the page's title and main
// content out, in Turkish or English, every text escaped by `html`. The list (name, display prefix and last four,
// created, last used, state) with a Revoke button per active key (a GET to the page that asks first, confirmPage.ts)
// and a create form; and the page that shows a new key this once (its caller answers it no-store, as every dashboard
// answer is). Every POST form carries the `csrf` field the caller passes in. No inline script or style.
import type { KeyRecord } from '../accounts/accountStore.js';
import { keyIdOf, KEY_NAME_MAX } from '../accounts/keys.js';
import { API_REFERENCE_PATH, DOCS_PATH, SAMPLE_API_REQUEST, type SiteLanguage } from '../links.js';
import type { AssetName } from '../web/assets.js';
import { html, type Html } from '../web/html.js';
import { confirmationContent } from './confirmPage.js';
import { CSRF_FIELD } from './csrf.js';
import { DASHBOARD_PATHS } from './dashboardPaths.js';

export const KEYS_PATH = DASHBOARD_PATHS.keys;
/** `/dashboard/keys/{id}/revoke` (GET asks, POST with the confirmation revokes), `{id}` the key record's non-secret id (keys.ts's keyIdOf). */
export const revokePath = (id: string): string => `${KEYS_PATH}/${encodeURIComponent(id)}/revoke`;
/** A key's settings page (keySettingsPage.ts): `GET` and `POST /dashboard/keys/{id}`. */
export const keySettingsPath = (id: string): string => `${KEYS_PATH}/${encodeURIComponent(id)}`;
/** The create form's field. */
export const NAME_FIELD = 'name';

export interface KeyView {
  /** Non-secret id for URLs: the first 16 hex digits of the key's SHA-256. */
  id: string;
  name: string;
  /** `mk_abc123…wxyz`, or `mk_abc123…` for a key made before last fours were kept. */
  shown: string;
  /** UTC `YYYY-MM-DD`. */
  createdDay: string;
  lastUsedDay: string | undefined;
  revokedDay: string | undefined;
}

export const shownKey = (prefix: string, lastFour: string): string => `${prefix}…${lastFour}`;

export const keyView = (record: KeyRecord): KeyView => ({
  id: keyIdOf(record.hash),
  name: record.name,
  shown: shownKey(record.prefix, record.lastFour),
  createdDay: record.createdAt.slice(0, 10),
  lastUsedDay: record.lastUsedDay,
  revokedDay: record.revokedAt?.slice(0, 10),
});

interface KeysWords {
  title: string;
  lede: string;
  caption: string;
  name: string;
  key: string;
  created: string;
  lastUsed: string;
  state: string;
  actions: string;
  never: string;
  unnamed: string;
  active: string;
  revokedOn: (day: string) => string;
  revoke: string;
  revokeLabel: (name: string, shown: string) => string;
  settingsLabel: (name: string, shown: string) => string;
  none: string;
  createTitle: string;
  nameLabel: string;
  nameHint: string;
  create: string;
  revokedNotice: (name: string, shown: string) => string;
  nameMissing: string;
  createdTitle: string;
  createdLede: string;
  createdName: (name: string) => string;
  howToUse: string;
  back: string;
  notYours: string;
  notYoursTitle: string;
  // Asking before revoking (confirmPage.ts).
  revokeQuestion: (name: string, shown: string) => string;
  revokeConsequence: string;
  revokeConfirm: string;
  keep: string;
  // The new key's page: Copy buttons (copySnippet.js), a ready request, the docs.
  copyKey: string;
  copyCurl: string;
  copied: string;
  copyFailed: string;
  curlLabel: string;
  docs: (gettingStarted: Html, reference: Html) => Html;
  gettingStarted: string;
  reference: string;
}

export const KEYS_WORDS: Readonly<Record<SiteLanguage, KeysWords>> = {
  en: {
    title: 'API keys',
    lede: 'Every key of your account shares its plan’s limits. A revoked key is refused (403) within a second, for good.',
    caption: 'Your API keys',
    name: 'Name',
    key: 'Key',
    created: 'Created (UTC)',
    lastUsed: 'Last used (UTC)',
    state: 'State',
    actions: 'Actions',
    never: 'never',
    unnamed: '(unnamed)',
    active: 'active',
    revokedOn: (day) => `revoked on ${day}`,
    revoke: 'Revoke',
    revokeLabel: (name, shown) => `Revoke ${name} (${shown})`,
    settingsLabel: (name, shown) => `${name} (${shown}): name and restrictions`,
    none: 'You have no keys yet. Create one below.',
    createTitle: 'Create a key',
    nameLabel: 'Name',
    nameHint: `A name to tell it apart, up to ${KEY_NAME_MAX} characters (for example “Production server”).`,
    create: 'Create key',
    revokedNotice: (name, shown) => `Revoked ${name} (${shown}). It is refused from now on.`,
    nameMissing: 'Give the key a name.',
    createdTitle: 'Your new API key',
    createdLede: 'Copy it now: this is the only time it is shown. We keep only its SHA-256, so no one can show it again.',
    createdName: (name) => `Key “${name}”:`,
    howToUse: 'Send it with every request as “Authorization: Bearer <key>” or “X-API-Key: <key>”.',
    back: 'Back to your keys',
    notYours: 'There is no such key in your account.',
    notYoursTitle: 'Key not found',
    revokeQuestion: (name, shown) => `Revoke the key “${name}” (${shown})?`,
    revokeConsequence: 'This cannot be undone: from the next second the API refuses the key (403) wherever it is used, and it cannot be turned on again. Make a new key first if something still uses this one.',
    revokeConfirm: 'Revoke the key',
    keep: 'Keep it: back to your keys',
    copyKey: 'Copy the key',
    copyCurl: 'Copy the command',
    copied: 'Copied.',
    copyFailed: 'Could not copy: select the text and copy it.',
    curlLabel: 'Try it now: a request with this key',
    docs: (gettingStarted, reference) => html`Next: ${gettingStarted} and the ${reference}.`,
    gettingStarted: 'Getting started',
    reference: 'API reference',
  },
  tr: {
    title: 'API anahtarları',
    lede: 'Hesabınızın bütün anahtarları planının sınırlarını paylaşır. İptal edilen anahtar bir saniye içinde ve kalıcı olarak reddedilir (403).',
    caption: 'API anahtarlarınız',
    name: 'Ad',
    key: 'Anahtar',
    created: 'Oluşturulma (UTC)',
    lastUsed: 'Son kullanım (UTC)',
    state: 'Durum',
    actions: 'İşlemler',
    never: 'hiç',
    unnamed: '(adsız)',
    active: 'etkin',
    revokedOn: (day) => `${day} tarihinde iptal edildi`,
    revoke: 'İptal et',
    revokeLabel: (name, shown) => `İptal et: ${name} (${shown})`,
    settingsLabel: (name, shown) => `${name} (${shown}): ad ve sınırlar`,
    none: 'Henüz anahtarınız yok. Aşağıdan oluşturabilirsiniz.',
    createTitle: 'Anahtar oluştur',
    nameLabel: 'Ad',
    nameHint: `Anahtarı ayırt etmek için en çok ${KEY_NAME_MAX} karakterlik bir ad (örneğin “Üretim sunucusu”).`,
    create: 'Anahtar oluştur',
    revokedNotice: (name, shown) => `${name} (${shown}) iptal edildi. Bundan sonra reddedilir.`,
    nameMissing: 'Anahtara bir ad verin.',
    createdTitle: 'Yeni API anahtarınız',
    createdLede: 'Şimdi kopyalayın: yalnızca bu kez gösterilir. Yalnızca SHA-256 özetini saklıyoruz; kimse onu yeniden gösteremez.',
    createdName: (name) => `“${name}” anahtarı:`,
    howToUse: 'Her istekte “Authorization: Bearer <anahtar>” ya da “X-API-Key: <anahtar>” olarak gönderin.',
    back: 'Anahtarlarınıza dönün',
    notYours: 'Hesabınızda böyle bir anahtar yok.',
    notYoursTitle: 'Anahtar bulunamadı',
    revokeQuestion: (name, shown) => `“${name}” (${shown}) anahtarı iptal edilsin mi?`,
    revokeConsequence: 'Bu geri alınamaz: bir sonraki saniyeden itibaren API anahtarı kullanıldığı her yerde reddeder (403) ve anahtar yeniden açılamaz. Hâlâ bu anahtarı kullanan bir şey varsa önce yeni bir anahtar oluşturun.',
    revokeConfirm: 'Anahtarı iptal et',
    keep: 'Vazgeç: anahtarlarınıza dönün',
    copyKey: 'Anahtarı kopyala',
    copyCurl: 'Komutu kopyala',
    copied: 'Kopyalandı.',
    copyFailed: 'Kopyalanamadı: metni seçip kopyalayın.',
    curlLabel: 'Hemen deneyin: bu anahtarla bir istek',
    docs: (gettingStarted, reference) => html`Sonra: ${gettingStarted} ve ${reference}.`,
    gettingStarted: 'Başlarken',
    reference: 'API başvurusu',
  },
};

export interface PageContent {
  title: string;
  main: Html;
  /** Scripts of server/web/assets/ the page loads. */
  scripts?: readonly AssetName[];
}

const csrfField = (csrf: string): Html => html`<input type="hidden" name="${CSRF_FIELD}" value="${csrf}">`;

export interface KeysPageOptions {
  language: SiteLanguage;
  keys: readonly KeyView[];
  csrf: string;
  /** A notice above the list (after a revocation), shown as a status message. */
  notice?: string;
  /** The create form's problem (an empty name), shown beside it, and the value to keep in the field. */
  nameError?: string;
  nameValue?: string;
}

/** GET /dashboard/keys: the list with a revoke form per active key, and the create form. */
export function keysPage(options: KeysPageOptions): PageContent {
  const w = KEYS_WORDS[options.language];
  const rows = options.keys.map((k) => {
    const name = k.name === '' ? w.unnamed : k.name;
    return html`<tr>
<th scope="row"><a href="${keySettingsPath(k.id)}" aria-label="${w.settingsLabel(name, k.shown)}">${name}</a></th>
<td data-label="${w.key}"><code>${k.shown}</code></td>
<td data-label="${w.created}">${k.createdDay}</td>
<td data-label="${w.lastUsed}">${k.lastUsedDay ?? w.never}</td>
<td data-label="${w.state}">${k.revokedDay === undefined ? w.active : w.revokedOn(k.revokedDay)}</td>
<td>${
      k.revokedDay === undefined
        ? html`<form class="inline" method="get" action="${revokePath(k.id)}">
<button type="submit" aria-label="${w.revokeLabel(name, k.shown)}">${w.revoke}</button>
</form>`
        : ''
    }</td>
</tr>
`;
  });
  const list =
    options.keys.length === 0
      ? html`<p>${w.none}</p>`
      : html`<div class="table-wrap">
<table class="keys stack">
<caption>${w.caption}</caption>
<thead><tr><th scope="col">${w.name}</th><th scope="col">${w.key}</th><th scope="col">${w.created}</th><th scope="col">${w.lastUsed}</th><th scope="col">${w.state}</th><th scope="col">${w.actions}</th></tr></thead>
<tbody>
${rows}</tbody>
</table>
</div>`;
  const invalid = options.nameError !== undefined;
  const main = html`<h1>${w.title}</h1>
<p class="lede">${w.lede}</p>
${options.notice !== undefined && html`<p class="note" role="status">${options.notice}</p>\n`}${list}
<h2 id="create-key">${w.createTitle}</h2>
<form class="choose" method="post" action="${KEYS_PATH}" aria-labelledby="create-key">
${csrfField(options.csrf)}
<label for="key-name">${w.nameLabel}</label>
<input id="key-name" name="${NAME_FIELD}" type="text" required maxlength="${KEY_NAME_MAX}" autocomplete="off" value="${options.nameValue ?? ''}" aria-describedby="key-name-hint${invalid ? ' key-name-error' : ''}"${invalid ? html` aria-invalid="true"` : ''}>
<p class="note" id="key-name-hint">${w.nameHint}</p>
${invalid && html`<p class="note" id="key-name-error" role="alert">${options.nameError}</p>\n`}<button type="submit">${w.create}</button>
</form>`;
  return { title: w.title, main };
}

/** A shell command that asks the API with `key` (single-quoted: a key is letters and digits, the URL has `&`). */
export const sampleCurl = (apiBase: string, key: string): string => `curl -H 'X-API-Key: ${key}' '${apiBase}${SAMPLE_API_REQUEST}'`;

/** A Copy button for the element `target` (copySnippet.js shows it; without JavaScript the text is selected by hand). */
const copyButton = (w: KeysWords, target: string, label: string): Html =>
  html`<p class="copy-row"><button type="button" data-copy="${target}" data-status="${target}-status" data-copied="${w.copied}" data-failed="${w.copyFailed}" hidden>${label}</button> <span id="${target}-status" role="status"></span></p>`;

/**
 * The answer to POST /dashboard/keys: the new key, this once (the surface answers no-store), with a Copy button, a
 * request with it ready to paste (`apiBase`: PUBLIC_BASE_URL, or the server's own), and the way to the docs.
 */
export function createdKeyPage(options: { language: SiteLanguage; key: string; name: string; apiBase: string }): PageContent {
  const w = KEYS_WORDS[options.language];
  const main = html`<h1>${w.createdTitle}</h1>
<p class="lede">${w.createdLede}</p>
<p>${w.createdName(options.name)}</p>
<p id="new-key"><code class="new-key">${options.key}</code></p>
${copyButton(w, 'new-key', w.copyKey)}
<p>${w.howToUse}</p>
<label for="new-key-curl">${w.curlLabel}</label>
<textarea id="new-key-curl" class="snippet" rows="3" readonly spellcheck="false" autocomplete="off">${sampleCurl(options.apiBase, options.key)}</textarea>
${copyButton(w, 'new-key-curl', w.copyCurl)}
<p>${w.docs(html`<a href="${DOCS_PATH}">${w.gettingStarted}</a>`, html`<a href="${API_REFERENCE_PATH}">${w.reference}</a>`)}</p>
<p><a href="${KEYS_PATH}">${w.back}</a></p>`;
  return { title: w.createdTitle, main, scripts: ['copySnippet.js'] };
}

/** GET /dashboard/keys/{id}/revoke: asks before revoking (the POST form carries the confirmation). */
export function revokeConfirmPage(options: { language: SiteLanguage; key: KeyView; csrf: string }): PageContent {
  const w = KEYS_WORDS[options.language];
  const name = options.key.name === '' ? w.unnamed : options.key.name;
  const main = confirmationContent({
    question: w.revokeQuestion(name, options.key.shown),
    consequence: w.revokeConsequence,
    action: revokePath(options.key.id),
    confirmLabel: w.revokeConfirm,
    back: { href: KEYS_PATH, label: w.keep },
    csrf: options.csrf,
  });
  return { title: w.revokeQuestion(name, options.key.shown), main };
}

/** A revoke form naming a key that is not the account's (or no key at all). */
export function keyNotFoundPage(language: SiteLanguage): PageContent {
  const w = KEYS_WORDS[language];
  return { title: w.notYoursTitle, main: html`<h1>${w.notYoursTitle}</h1>\n<p class="lede">${w.notYours}</p>\n<p><a href="${KEYS_PATH}">${w.back}</a></p>` };
}
