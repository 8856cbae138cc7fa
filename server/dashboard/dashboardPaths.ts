// The dashboard's URLs (contract, "Developer dashboard"), declared once: the route table, the pages' links and the
// tests take them from here.
import { DASHBOARD_PATH } from '../links.js';

export const DASHBOARD_PATHS = {
  home: DASHBOARD_PATH,
  signIn: `${DASHBOARD_PATH}/sign-in`,
  signInEmail: `${DASHBOARD_PATH}/sign-in/email`,
  signInCode: `${DASHBOARD_PATH}/sign-in/code`,
  signInLink: `${DASHBOARD_PATH}/sign-in/link`,
  signOut: `${DASHBOARD_PATH}/sign-out`,
  keys: `${DASHBOARD_PATH}/keys`,
  usage: `${DASHBOARD_PATH}/usage`,
  billing: `${DASHBOARD_PATH}/billing`,
  passkeys: `${DASHBOARD_PATH}/passkeys`,
} as const;

/** The provider's events arrive under this prefix (`POST /webhooks/billing`, raw body, no CSRF: a signature). */
export const WEBHOOKS_PREFIX = '/webhooks';
