// The WebAuthn relying party of the dashboard: PUBLIC_BASE_URL's host name and origin (http://localhost:<port> when
// unset). Browsers use a site's passkeys only on pages of that origin, so the pages also name it when they are open
// at another address (127.0.0.1, say: an IP address is never a relying party).
import type { DashboardContext } from '../dashboardTypes.js';
import { DASHBOARD_WORDS } from '../dashboardWords.js';

export interface RelyingParty {
  /** The host name (`localhost`, `prayer-times.example`). */
  id: string;
  /** The only origin whose pages may run the ceremonies (`http://localhost:8080`). */
  origin: string;
  name: string;
}

export function relyingParty(context: DashboardContext): RelyingParty {
  const url = new URL(context.services.publicBaseUrl());
  return { id: url.hostname, origin: url.origin, name: DASHBOARD_WORDS[context.language].siteName };
}
