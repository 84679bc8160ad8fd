// The relay's client of the instance, made the same way by the contact and chat endpoints and the
// outbox's delivery: the configured instance, token and time-out, and the site's fetch if it gave one.
import { createClient, type SitebeamClient } from '../client/index.js';

/** The instance as the relay's configuration names it. */
export interface InstanceSettings {
  apiUrl: string;
  apiToken: string;
  apiTimeoutMs: number;
  fetch?: typeof fetch | undefined;
}

export function instanceClient(settings: InstanceSettings): SitebeamClient {
  return createClient({
    baseUrl: settings.apiUrl,
    token: settings.apiToken,
    timeoutMs: settings.apiTimeoutMs,
    ...(settings.fetch ? { fetch: settings.fetch } : {}),
  });
}
