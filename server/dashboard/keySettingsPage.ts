// A key's settings page (issue 32), pure: its name, the web origins it may be used from and the client address
// ranges, in one form (POST to the same URL, CSRF field), in Turkish or English, every text escaped by `html`. A
// field the server could not read comes back with its text as typed, marked invalid, and the problem beside it.
import { KEY_NAME_MAX } from '../accounts/keys.js';
import { MAX_RESTRICTION_ENTRIES, type RestrictionProblem } from '../accounts/keyRestrictions.js';
import type { SiteLanguage } from '../links.js';
import { html, type Html } from '../web/html.js';
import { CSRF_FIELD } from './csrf.js';
import { DASHBOARD_PATHS } from './dashboardPaths.js';
import { keySettingsPath, type KeyView, type PageContent } from './keysPage.js';

/** The form's fields. */
export const SETTINGS_FIELDS = { name: 'name', origins: 'origins', ranges: 'ranges' } as const;

interface SettingsWords {
  title: (name: string) => string;
  lede: string;
  key: string;
  revoked: string;
  nameLabel: string;
  nameHint: string;
  originsLabel: string;
  originsHint: string;
  rangesLabel: string;
  rangesHint: string;
  save: string;
  saved: string;
  back: string;
  usage: string;
  nameMissing: string;
  problem: (problem: RestrictionProblem) => string;
  noneSet: string;
}

export const SETTINGS_WORDS: Readonly<Record<SiteLanguage, SettingsWords>> = {
  en: {
    title: (name) => `Key settings: ${name}`,
    lede: 'Rename the key, and restrict where it may be used from. A request from outside its restrictions is refused with 403 key_restricted, and not counted. Changes apply within a second.',
    key: 'Key',
    revoked: 'This key is revoked: it is refused whatever its settings.',
    nameLabel: 'Name',
    nameHint: `A name to tell it apart, up to ${KEY_NAME_MAX} characters.`,
    originsLabel: 'Web origins (HTTP referrers)',
    originsHint: `For a key used from web pages: the API answers any site (CORS *), so a key in a page is public. List the origins of your pages, one per line (https://example.com, http://localhost:3000, or https://*.example.com for its subdomains), up to ${MAX_RESTRICTION_ENTRIES}. A browser’s request from any other page is refused; requests that send no Origin (servers, curl) are not bound by this list. Empty: any origin.`,
    rangesLabel: 'Client address ranges (CIDR)',
    rangesHint: `For a server’s key: the addresses it calls from, one per line, IPv4 or IPv6 (203.0.113.7, 203.0.113.0/24, 2001:db8::/32), up to ${MAX_RESTRICTION_ENTRIES}. Any other address is refused, browsers’ too. Empty: any address.`,
    save: 'Save settings',
    saved: 'Saved. The settings apply to every request within a second.',
    back: 'Back to your keys',
    usage: 'This key’s usage',
    nameMissing: 'Give the key a name.',
    problem: (p) =>
      p.reason === 'too_many'
        ? `At most ${MAX_RESTRICTION_ENTRIES} entries; “${p.entry}” is one too many.`
        : p.reason === 'origin'
          ? `“${p.entry}” is not an origin: give the scheme and host (and port), like https://example.com, with no path.`
          : `“${p.entry}” is not an address or a CIDR range, like 203.0.113.0/24 or 2001:db8::/32.`,
    noneSet: 'none',
  },
  tr: {
    title: (name) => `Anahtar ayarları: ${name}`,
    lede: 'Anahtarın adını değiştirin ve nereden kullanılabileceğini sınırlayın. Sınırların dışından gelen istek 403 key_restricted ile reddedilir ve sayılmaz. Değişiklikler bir saniye içinde uygulanır.',
    key: 'Anahtar',
    revoked: 'Bu anahtar iptal edildi: ayarları ne olursa olsun reddedilir.',
    nameLabel: 'Ad',
    nameHint: `Anahtarı ayırt etmek için en çok ${KEY_NAME_MAX} karakterlik bir ad.`,
    originsLabel: 'Web kökenleri (HTTP yönlendirenleri)',
    originsHint: `Web sayfalarından kullanılan anahtar için: API her siteye yanıt verir (CORS *), bu yüzden sayfadaki anahtar herkese açıktır. Sayfalarınızın kökenlerini satır başına bir tane yazın (https://example.com, http://localhost:3000 ya da alt alan adları için https://*.example.com), en çok ${MAX_RESTRICTION_ENTRIES} tane. Başka bir sayfadan gelen tarayıcı isteği reddedilir; Origin göndermeyen istekler (sunucular, curl) bu listeye bağlı değildir. Boş: her köken.`,
    rangesLabel: 'İstemci adres aralıkları (CIDR)',
    rangesHint: `Sunucu anahtarı için: çağrı yaptığı adresler, satır başına bir tane, IPv4 ya da IPv6 (203.0.113.7, 203.0.113.0/24, 2001:db8::/32), en çok ${MAX_RESTRICTION_ENTRIES} tane. Başka her adres, tarayıcılar da, reddedilir. Boş: her adres.`,
    save: 'Ayarları kaydet',
    saved: 'Kaydedildi. Ayarlar bir saniye içinde her isteğe uygulanır.',
    back: 'Anahtarlarınıza dönün',
    usage: 'Bu anahtarın kullanımı',
    nameMissing: 'Anahtara bir ad verin.',
    problem: (p) =>
      p.reason === 'too_many'
        ? `En çok ${MAX_RESTRICTION_ENTRIES} giriş; “${p.entry}” bir fazla.`
        : p.reason === 'origin'
          ? `“${p.entry}” bir köken değil: https://example.com gibi şema ve ana makine (ve bağlantı noktası) verin, yol olmadan.`
          : `“${p.entry}” bir adres ya da CIDR aralığı değil; 203.0.113.0/24 ya da 2001:db8::/32 gibi olmalı.`,
    noneSet: 'yok',
  },
};

export interface KeySettingsOptions {
  language: SiteLanguage;
  key: KeyView;
  csrf: string;
  /** The fields' text: the stored lists one per line, or what was typed when it could not be read. */
  values: { name: string; origins: string; ranges: string };
  /** Problems by field, shown beside it. */
  errors?: Partial<Record<keyof typeof SETTINGS_FIELDS, string>>;
  /** After a save: the status message. */
  saved?: boolean;
  /** Where the key's usage is shown. */
  usageHref: string;
}

/** A labelled field with its hint and, when it could not be read, its problem (aria-invalid, role="alert"). */
function field(id: string, label: string, hint: Html | string, error: string | undefined, control: (describedBy: string, invalid: Html | '') => Html): Html {
  const describedBy = `${id}-hint${error !== undefined ? ` ${id}-error` : ''}`;
  return html`<label for="${id}">${label}</label>
${control(describedBy, error !== undefined ? html` aria-invalid="true"` : '')}
<p class="note" id="${id}-hint">${hint}</p>
${error !== undefined && html`<p class="note" id="${id}-error" role="alert">${error}</p>\n`}`;
}

/** GET /dashboard/keys/{id}: the settings form (or, for a revoked key, what it was). */
export function keySettingsPage(options: KeySettingsOptions): PageContent {
  const w = SETTINGS_WORDS[options.language];
  const { key, values, errors = {} } = options;
  const shownName = key.name === '' ? '—' : key.name;
  const title = w.title(shownName);
  const action = keySettingsPath(key.id);
  const form = html`<form class="key-settings" method="post" action="${action}" aria-labelledby="settings-title">
<input type="hidden" name="${CSRF_FIELD}" value="${options.csrf}">
${field('key-name', w.nameLabel, w.nameHint, errors.name, (d, invalid) => html`<input id="key-name" name="${SETTINGS_FIELDS.name}" type="text" required maxlength="${KEY_NAME_MAX}" autocomplete="off" value="${values.name}" aria-describedby="${d}"${invalid}>`)}
${field('key-origins', w.originsLabel, w.originsHint, errors.origins, (d, invalid) => html`<textarea id="key-origins" name="${SETTINGS_FIELDS.origins}" rows="4" spellcheck="false" autocomplete="off" aria-describedby="${d}"${invalid}>${values.origins}</textarea>`)}
${field('key-ranges', w.rangesLabel, w.rangesHint, errors.ranges, (d, invalid) => html`<textarea id="key-ranges" name="${SETTINGS_FIELDS.ranges}" rows="4" spellcheck="false" autocomplete="off" aria-describedby="${d}"${invalid}>${values.ranges}</textarea>`)}
<button type="submit">${w.save}</button>
</form>`;
  const main = html`<h1 id="settings-title">${title}</h1>
<p class="lede">${w.lede}</p>
${options.saved === true && html`<p class="note" role="status">${w.saved}</p>\n`}<p>${w.key}: <code>${key.shown}</code></p>
${key.revokedDay !== undefined ? html`<p class="note">${w.revoked}</p>\n` : ''}${form}
<p><a href="${options.usageHref}">${w.usage}</a></p>
<p><a href="${DASHBOARD_PATHS.keys}">${w.back}</a></p>`;
  return { title, main };
}
