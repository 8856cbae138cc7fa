// What the passkey pages, buttons and JSON errors say, in Turkish and English (one table per language, so a missing
// translation is a type error).
import type { SiteLanguage } from '../../links.js';

export interface PasskeyWords {
  title: string;
  lede: string;
  none: string;
  caption: string;
  name: string;
  created: string;
  lastUsed: string;
  never: string;
  remove: string;
  removeLabel: (name: string) => string;
  removed: string;
  notFound: string;
  addTitle: string;
  addLede: string;
  nameLabel: string;
  add: string;
  defaultName: (n: number) => string;
  needsScript: string;
  unsupported: string;
  working: string;
  cancelled: string;
  failed: string;
  alreadyRegistered: string;
  // Sign-in
  signInTitle: string;
  signInLede: string;
  signInButton: string;
  signInNeedsScript: string;
  // At an address that is not the relying party's (127.0.0.1 for localhost): why passkeys cannot work, and where they do.
  elsewhere: (rpId: string) => string;
  openAt: string;
  // Asking before removing (confirmPage.ts).
  removeQuestion: (name: string) => string;
  removeConsequence: string;
  removeConfirm: string;
  keep: string;
  // JSON errors
  errors: {
    challenge: string;
    invalid: string;
    refused: string;
    unknown: string;
    replayed: string;
    exists: string;
    tooMany: string;
    limited: string;
  };
}

export const PASSKEY_WORDS: Readonly<Record<SiteLanguage, PasskeyWords>> = {
  en: {
    title: 'Passkeys',
    lede: 'A passkey signs you in with this device’s screen lock or a security key, without a code by e-mail. Sign-in by e-mail keeps working.',
    none: 'You have no passkeys yet.',
    caption: 'Your passkeys',
    name: 'Name',
    created: 'Added',
    lastUsed: 'Last used',
    never: 'Never',
    remove: 'Remove',
    removeLabel: (name) => `Remove the passkey ${name}`,
    removed: 'The passkey was removed: it no longer signs in.',
    notFound: 'There is no such passkey on your account.',
    addTitle: 'Add a passkey',
    addLede: 'Your browser asks where to keep it: this device, a phone or a security key.',
    nameLabel: 'Name (optional, e.g. “Work laptop”)',
    add: 'Add a passkey',
    defaultName: (n) => `Passkey ${n}`,
    needsScript: 'Adding a passkey needs JavaScript, which is turned off in this browser.',
    unsupported: 'This browser cannot use passkeys.',
    working: 'Waiting for your browser…',
    cancelled: 'The passkey was not used (cancelled or timed out). Try again.',
    failed: 'That did not work. Reload the page and try again.',
    alreadyRegistered: 'This authenticator already holds a passkey for your account.',
    signInTitle: 'Or with a passkey',
    signInLede: 'No e-mail address needed: your browser offers the passkeys it holds for this site.',
    signInButton: 'Sign in with a passkey',
    signInNeedsScript: 'Signing in with a passkey needs JavaScript; sign in by e-mail above.',
    elsewhere: (rpId) =>
      `Passkeys cannot work on this page: this site’s passkeys belong to the address ${rpId}, and this page is open at another one, where the browser does not offer them (an IP address such as 127.0.0.1 never has passkeys).`,
    openAt: 'Open this page at',
    removeQuestion: (name) => `Remove the passkey “${name}”?`,
    removeConsequence: 'This cannot be undone: the passkey stops signing in to this account at once (the authenticator may still list it; delete it there too). Sign-in by e-mail keeps working.',
    removeConfirm: 'Remove the passkey',
    keep: 'Keep it: back to your passkeys',
    errors: {
      challenge: 'This passkey request has expired or was already answered. Try again.',
      invalid: 'The browser’s answer could not be read. Try again.',
      refused: 'The passkey could not be verified.',
      unknown: 'This passkey is not known here (it may have been removed). Sign in by e-mail.',
      replayed: 'This passkey answer was already used.',
      exists: 'This passkey is registered already.',
      tooMany: 'An account can have at most 20 passkeys. Remove one first.',
      limited: 'Too many passkey attempts from your network. Try again later.',
    },
  },
  tr: {
    title: 'Geçiş anahtarları',
    lede: 'Geçiş anahtarı, e-postayla kod beklemeden bu cihazın ekran kilidi ya da bir güvenlik anahtarıyla giriş yapmanızı sağlar. E-postayla giriş de çalışmaya devam eder.',
    none: 'Henüz geçiş anahtarınız yok.',
    caption: 'Geçiş anahtarlarınız',
    name: 'Ad',
    created: 'Eklenme',
    lastUsed: 'Son kullanım',
    never: 'Hiç',
    remove: 'Kaldır',
    removeLabel: (name) => `${name} geçiş anahtarını kaldır`,
    removed: 'Geçiş anahtarı kaldırıldı: artık giriş yapamaz.',
    notFound: 'Hesabınızda böyle bir geçiş anahtarı yok.',
    addTitle: 'Geçiş anahtarı ekle',
    addLede: 'Tarayıcınız nerede saklanacağını sorar: bu cihaz, bir telefon ya da bir güvenlik anahtarı.',
    nameLabel: 'Ad (isteğe bağlı, örneğin “İş bilgisayarı”)',
    add: 'Geçiş anahtarı ekle',
    defaultName: (n) => `Geçiş anahtarı ${n}`,
    needsScript: 'Geçiş anahtarı eklemek için JavaScript gerekir; bu tarayıcıda kapalı.',
    unsupported: 'Bu tarayıcı geçiş anahtarlarını kullanamıyor.',
    working: 'Tarayıcınız bekleniyor…',
    cancelled: 'Geçiş anahtarı kullanılmadı (iptal edildi ya da süre doldu). Yeniden deneyin.',
    failed: 'Olmadı. Sayfayı yenileyip yeniden deneyin.',
    alreadyRegistered: 'Bu doğrulayıcıda hesabınız için zaten bir geçiş anahtarı var.',
    signInTitle: 'Ya da geçiş anahtarıyla',
    signInLede: 'E-posta adresi gerekmez: tarayıcınız bu site için sakladığı geçiş anahtarlarını sunar.',
    signInButton: 'Geçiş anahtarıyla giriş yap',
    signInNeedsScript: 'Geçiş anahtarıyla giriş için JavaScript gerekir; yukarıdan e-postayla giriş yapın.',
    elsewhere: (rpId) =>
      `Geçiş anahtarları bu sayfada çalışamaz: bu sitenin geçiş anahtarları ${rpId} adresine aittir ve bu sayfa başka bir adreste açık; tarayıcı onları orada sunmaz (127.0.0.1 gibi bir IP adresinin hiç geçiş anahtarı olmaz).`,
    openAt: 'Bu sayfayı şu adreste açın:',
    removeQuestion: (name) => `“${name}” geçiş anahtarı kaldırılsın mı?`,
    removeConsequence: 'Bu geri alınamaz: geçiş anahtarı bu hesaba hemen giriş yapamaz olur (doğrulayıcı onu listelemeye devam edebilir; oradan da silin). E-postayla giriş çalışmaya devam eder.',
    removeConfirm: 'Geçiş anahtarını kaldır',
    keep: 'Vazgeç: geçiş anahtarlarınıza dönün',
    errors: {
      challenge: 'Bu geçiş anahtarı isteğinin süresi doldu ya da zaten yanıtlandı. Yeniden deneyin.',
      invalid: 'Tarayıcının yanıtı okunamadı. Yeniden deneyin.',
      refused: 'Geçiş anahtarı doğrulanamadı.',
      unknown: 'Bu geçiş anahtarı burada tanınmıyor (kaldırılmış olabilir). E-postayla giriş yapın.',
      replayed: 'Bu geçiş anahtarı yanıtı zaten kullanıldı.',
      exists: 'Bu geçiş anahtarı zaten kayıtlı.',
      tooMany: 'Bir hesabın en çok 20 geçiş anahtarı olabilir. Önce birini kaldırın.',
      limited: 'Ağınızdan çok fazla geçiş anahtarı denemesi yapıldı. Daha sonra yeniden deneyin.',
    },
  },
};
