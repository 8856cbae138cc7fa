// The addresses the start-up banner prints. The API answers at any address the server listens on, so its sample
// request uses the listening one (127.0.0.1 for every interface). The site and the dashboard are printed where a
// browser should open them: the dashboard's passkeys work only at the relying party's origin, PUBLIC_BASE_URL's, or
// with it unset http://localhost:<port> (WebAuthn refuses an IP address as the relying party), so on loopback the
// banner prints the `localhost` address rather than one where passkeys fail.

/** Hosts whose port is reached at localhost: the loopback ones, and every interface (which includes loopback). */
const LOCALHOST_REACHES = ['127.0.0.1', 'localhost', '::1', '0.0.0.0', '::', ''];
const EVERY_INTERFACE = ['0.0.0.0', '::', ''];

export interface BannerAddresses {
  /** For the API's sample request: the listening address (127.0.0.1 when listening on every interface). */
  api: string;
  /** For the site, the docs and the dashboard: where passkeys work (PUBLIC_BASE_URL, or localhost on loopback). */
  browser: string;
  /** Said after the dashboard's address: why not the other one, or what passkeys need. */
  note: string;
}

const hostInUrl = (host: string): string => (host.includes(':') ? `[${host}]` : host);

export function bannerAddresses(host: string, port: number, publicBaseUrl: string | undefined): BannerAddresses {
  const api = `http://${EVERY_INTERFACE.includes(host) ? '127.0.0.1' : hostInUrl(host)}:${port}`;
  if (publicBaseUrl) return { api, browser: publicBaseUrl, note: '' };
  if (LOCALHOST_REACHES.includes(host)) {
    return { api, browser: `http://localhost:${port}`, note: ' (localhost, not 127.0.0.1: passkeys work only at a host name, the relying party)' };
  }
  return { api, browser: api, note: ' (passkeys need PUBLIC_BASE_URL: they work only at its host name, never at an IP address)' };
}
