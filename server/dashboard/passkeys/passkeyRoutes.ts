// Passkeys (contract, "Developer dashboard"; @simplewebauthn/server): the passkeys page, registering one (options,
// then the browser's response), removing one, and signing in with one (options with no credentials listed, so the
// browser offers the discoverable credentials it holds for this site; then the response, which opens a session as
// the e-mail sign-in does). The relying party is PUBLIC_BASE_URL's host (localhost when unset), the expected origin
// its origin.
//
// Every ceremony's challenge is single use and lives 5 minutes, bound to the session (registration) or to the
// browser's `__Host-signin` cookie (sign-in); it is taken from the store before the response is checked, so a
// response sent twice finds no challenge the second time. The credential's counter must grow (unless the
// authenticator keeps none). The JSON endpoints answer `{ error: { code, message } }` with a 4xx for anything a
// client can get wrong, never a 500.
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { sha256 } from '../../accounts/identityStore.js';
import { CHALLENGE_TTL_MS } from '../../accounts/passkeyStore.js';
import { log } from '../../log.js';

/** @simplewebauthn/server, loaded at the first ceremony: a thread that never sees one need not hold it (about 10 MB). */
let webAuthn: Promise<typeof import('@simplewebauthn/server')> | undefined;
const webAuthnPackage = () => (webAuthn ??= import('@simplewebauthn/server'));
import type { DashboardContext, DashboardReply, DashboardRequest, DashboardRoute } from '../dashboardTypes.js';
import { openSession } from '../signIn.js';
import { confirmed } from '../confirmPage.js';
import { askRemovePath, PASSKEY_PATHS, PASSKEY_SCRIPTS, passkeysContent, removeConfirmContent } from './passkeyPages.js';
import { PASSKEY_WORDS, type PasskeyWords } from './passkeyWords.js';
import { relyingParty } from './relyingParty.js';
import { landingPath, NEXT_FIELD } from '../nextPath.js';

/** Passkeys one account may have. */
export const MAX_PASSKEYS = 20;
/** Sign-in ceremonies one client address may start in an hour (each stores a challenge for 5 minutes). */
export const SIGN_IN_CEREMONIES_PER_CLIENT_PER_HOUR = 120;
const HOUR_MS = 3_600_000;
const MAX_NAME_LENGTH = 60;

export const JSON_TYPE = 'application/json; charset=utf-8';

export const jsonReply = (status: number, value: unknown, extra: Partial<DashboardReply> = {}): DashboardReply => ({
  status,
  body: JSON.stringify(value),
  contentType: JSON_TYPE,
  ...extra,
});

const jsonError = (status: number, code: string, message: string): DashboardReply => jsonReply(status, { error: { code, message } }, { code });

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isB64url = (value: unknown, max = 2048): value is string => typeof value === 'string' && value.length > 0 && value.length <= max && /^[A-Za-z0-9_-]+$/.test(value);

/** The shape @simplewebauthn/server expects of a response, checked before it is given to it. */
function credentialResponse(value: unknown, fields: readonly string[]): boolean {
  if (!isObject(value) || !isB64url(value.id) || value.rawId !== value.id || value.type !== 'public-key' || !isObject(value.response)) return false;
  const response = value.response;
  return fields.every((f) => isB64url(response[f], 32_768));
}

/** The user's name for a new passkey: one line, at most 60 characters; else "Passkey <n>". */
function passkeyName(given: unknown, w: PasskeyWords, count: number): string {
  const name = typeof given === 'string' ? given.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, ' ').replace(/\s+/g, ' ').trim() : '';
  return name === '' ? w.defaultName(count + 1) : [...name].slice(0, MAX_NAME_LENGTH).join('');
}

/** GET /dashboard/passkeys */
export async function passkeysPage(request: DashboardRequest, context: DashboardContext): Promise<DashboardReply> {
  const w = PASSKEY_WORDS[context.language];
  const credentials = await context.services.passkeys.credentials(context.account!.id);
  const notice = request.query.get('removed') === '1' ? { text: w.removed, alert: false } : undefined;
  return { status: 200, body: context.page({ title: w.title, main: passkeysContent(context, credentials, notice), scripts: PASSKEY_SCRIPTS }) };
}

/** The passkeys page again with a notice that the passkey named is not the account's: 404. */
async function passkeyNotFound(context: DashboardContext): Promise<DashboardReply> {
  const w = PASSKEY_WORDS[context.language];
  const main = passkeysContent(context, await context.services.passkeys.credentials(context.account!.id), { text: w.notFound, alert: true });
  return { status: 404, body: context.page({ title: w.title, main, scripts: PASSKEY_SCRIPTS }), code: 'passkey_not_found' };
}

/** GET /dashboard/passkeys/remove?id=…: asks first (confirmPage.ts). */
export async function removePasskeyPage(request: DashboardRequest, context: DashboardContext): Promise<DashboardReply> {
  const id = request.query.get('id');
  const credential = (await context.services.passkeys.credentials(context.account!.id)).find((c) => c.id === id);
  if (!credential) return passkeyNotFound(context);
  const main = removeConfirmContent(context, credential);
  return { status: 200, body: context.page({ title: PASSKEY_WORDS[context.language].removeQuestion(credential.name), main }) };
}

/**
 * POST /dashboard/passkeys/:id/remove (form, from the page that asked: its `confirm` field): the passkey no longer
 * signs in. Without the confirmation nothing changes: 303 to that page.
 */
export async function removePasskey(request: DashboardRequest, context: DashboardContext): Promise<DashboardReply> {
  const account = context.account!;
  const { passkeys } = context.services;
  const id = request.params.id ?? '';
  if (!confirmed(request.form)) {
    if (!(await passkeys.credentials(account.id)).some((c) => c.id === id)) return passkeyNotFound(context);
    return { status: 303, location: askRemovePath(id), code: 'not_confirmed' };
  }
  if (await passkeys.removeCredential(account.id, id)) {
    log('info', 'dashboard_passkey_removed', { requestId: request.requestId, accountId: account.id });
    return { status: 303, location: `${PASSKEY_PATHS.page}?removed=1` };
  }
  return passkeyNotFound(context);
}

/** POST /dashboard/passkeys/register/options (json): the options for navigator.credentials.create(). */
export async function registrationOptions(request: DashboardRequest, context: DashboardContext): Promise<DashboardReply> {
  const w = PASSKEY_WORDS[context.language];
  const account = context.account!;
  const { passkeys } = context.services;
  const existing = await passkeys.credentials(account.id);
  if (existing.length >= MAX_PASSKEYS) return jsonError(400, 'too_many_passkeys', w.errors.tooMany);
  const userHandle = await passkeys.userHandle(account.id);
  const rp = relyingParty(context);
  const options = await (await webAuthnPackage()).generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: account.email,
    userDisplayName: account.email,
    // A random handle of the account's, never the e-mail address: authenticators keep it and return it at sign-in.
    userID: new Uint8Array(Buffer.from(userHandle, 'base64url')),
    timeout: CHALLENGE_TTL_MS,
    attestationType: 'none',
    excludeCredentials: existing.map((c) => ({ id: c.id, transports: c.transports })),
    // Discoverable (resident) credentials: sign-in needs no e-mail address.
    authenticatorSelection: { residentKey: 'required', requireResidentKey: true, userVerification: 'preferred' },
  });
  await passkeys.putChallenge(context.session!.tokenHash, { challenge: options.challenge, purpose: 'register', expiresAt: context.services.now() + CHALLENGE_TTL_MS });
  return jsonReply(200, options);
}

/** POST /dashboard/passkeys/register (json `{ name, response }`): checks the response and keeps the credential. */
export async function register(request: DashboardRequest, context: DashboardContext): Promise<DashboardReply> {
  const w = PASSKEY_WORDS[context.language];
  const account = context.account!;
  const { passkeys } = context.services;
  const now = context.services.now();
  const body = request.json;
  if (!isObject(body) || !credentialResponse(body.response, ['clientDataJSON', 'attestationObject'])) return jsonError(400, 'invalid_response', w.errors.invalid);
  const challenge = await passkeys.takeChallenge(context.session!.tokenHash, 'register', now);
  if (!challenge) return jsonError(400, 'challenge_expired', w.errors.challenge);
  const rp = relyingParty(context);
  let verification;
  try {
    verification = await (await webAuthnPackage()).verifyRegistrationResponse({
      response: body.response as unknown as RegistrationResponseJSON,
      expectedChallenge: challenge.challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: false,
    });
  } catch (error) {
    log('warn', 'dashboard_passkey_register_refused', { requestId: request.requestId, accountId: account.id, error: String(error).slice(0, 300) });
    return jsonError(400, 'passkey_refused', w.errors.refused);
  }
  if (!verification.verified) return jsonError(400, 'passkey_refused', w.errors.refused);
  const info = verification.registrationInfo;
  const existing = await passkeys.credentials(account.id);
  if (existing.length >= MAX_PASSKEYS) return jsonError(400, 'too_many_passkeys', w.errors.tooMany);
  const response = body.response as unknown as RegistrationResponseJSON;
  const added = await passkeys.addCredential({
    id: info.credential.id,
    accountId: account.id,
    publicKey: Buffer.from(info.credential.publicKey).toString('base64url'),
    counter: info.credential.counter,
    transports: (response.response.transports ?? []).filter((t): t is string => typeof t === 'string').slice(0, 10),
    deviceType: info.credentialDeviceType,
    backedUp: info.credentialBackedUp,
    userHandle: await passkeys.userHandle(account.id),
    name: passkeyName(body.name, w, existing.length),
    createdAt: now,
  });
  if (!added) return jsonError(409, 'passkey_exists', w.errors.exists);
  log('info', 'dashboard_passkey_added', { requestId: request.requestId, accountId: account.id, deviceType: info.credentialDeviceType });
  return jsonReply(200, { ok: true });
}

/** POST /dashboard/sign-in/passkey/options (json): options for navigator.credentials.get(), no credentials listed. */
export async function signInOptions(request: DashboardRequest, context: DashboardContext): Promise<DashboardReply> {
  const w = PASSKEY_WORDS[context.language];
  const { identity, passkeys } = context.services;
  const now = context.services.now();
  if (!(await identity.hit([{ key: `passkey:client:${request.clientAddress}`, limit: SIGN_IN_CEREMONIES_PER_CLIENT_PER_HOUR }], HOUR_MS, now))) {
    return jsonError(429, 'passkey_limited', w.errors.limited);
  }
  const rp = relyingParty(context);
  const options = await (await webAuthnPackage()).generateAuthenticationOptions({ rpID: rp.id, userVerification: 'preferred', timeout: CHALLENGE_TTL_MS, allowCredentials: [] });
  await passkeys.putChallenge(sha256(context.signinCookie), { challenge: options.challenge, purpose: 'authenticate', expiresAt: now + CHALLENGE_TTL_MS });
  return jsonReply(200, options);
}

/** POST /dashboard/sign-in/passkey (json): checks the response; a new session, as the e-mail sign-in gives. */
export async function signInWithPasskey(request: DashboardRequest, context: DashboardContext): Promise<DashboardReply> {
  const w = PASSKEY_WORDS[context.language];
  const { accounts, passkeys } = context.services;
  const now = context.services.now();
  const body = request.json;
  if (!credentialResponse(body, ['clientDataJSON', 'authenticatorData', 'signature'])) return jsonError(400, 'invalid_response', w.errors.invalid);
  const response = body as unknown as AuthenticationResponseJSON;
  // Taken (removed) first: whatever follows, this challenge answers once.
  const challenge = await passkeys.takeChallenge(sha256(context.signinCookie), 'authenticate', now);
  if (!challenge) return jsonError(400, 'challenge_expired', w.errors.challenge);
  const credential = await passkeys.credential(response.id);
  if (!credential) return jsonError(400, 'unknown_passkey', w.errors.unknown);
  const userHandle = response.response.userHandle;
  if (userHandle !== undefined && userHandle !== credential.userHandle) return jsonError(400, 'passkey_refused', w.errors.refused);
  const rp = relyingParty(context);
  let verification;
  try {
    verification = await (await webAuthnPackage()).verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge.challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      credential: { id: credential.id, publicKey: new Uint8Array(Buffer.from(credential.publicKey, 'base64url')), counter: credential.counter, transports: credential.transports as never },
      requireUserVerification: false,
    });
  } catch (error) {
    const message = String(error);
    log('warn', 'dashboard_passkey_sign_in_refused', { requestId: request.requestId, accountId: credential.accountId, error: message.slice(0, 300) });
    if (/counter/i.test(message)) return jsonError(400, 'passkey_replayed', w.errors.replayed);
    return jsonError(400, 'passkey_refused', w.errors.refused);
  }
  if (!verification.verified) return jsonError(400, 'passkey_refused', w.errors.refused);
  const info = verification.authenticationInfo;
  const used = await passkeys.recordUse(credential.id, info.newCounter, info.credentialBackedUp, now);
  if (!used.ok) return used.reason === 'gone' ? jsonError(400, 'unknown_passkey', w.errors.unknown) : jsonError(400, 'passkey_replayed', w.errors.replayed);
  const account = accounts.accountById(credential.accountId);
  if (!account) return jsonError(400, 'unknown_passkey', w.errors.unknown);
  const cookies = await openSession(account.id, request, context, 'passkey');
  // The page asked for before signing in (`?next=` on the verify URL, nextPath.ts), else the dashboard's home.
  return jsonReply(200, { ok: true, location: landingPath(request.query.get(NEXT_FIELD)) }, { cookies });
}

export const PASSKEY_ROUTES: readonly DashboardRoute[] = [
  { method: 'GET', path: PASSKEY_PATHS.page, session: true, csrf: 'none', body: 'none', handler: passkeysPage },
  { method: 'POST', path: PASSKEY_PATHS.registerOptions, session: true, csrf: 'session', body: 'json', handler: registrationOptions },
  { method: 'POST', path: PASSKEY_PATHS.register, session: true, csrf: 'session', body: 'json', handler: register },
  { method: 'GET', path: PASSKEY_PATHS.askRemove, session: true, csrf: 'none', body: 'none', handler: removePasskeyPage },
  { method: 'POST', path: PASSKEY_PATHS.remove, session: true, csrf: 'session', body: 'form', handler: removePasskey },
  { method: 'POST', path: PASSKEY_PATHS.signInOptions, session: false, csrf: 'signin', body: 'json', handler: signInOptions },
  { method: 'POST', path: PASSKEY_PATHS.signIn, session: false, csrf: 'signin', body: 'json', handler: signInWithPasskey },
];
