// A client of one instance that also keeps the last answer as it came, for `--json` and for
// headers the typed client does not surface (`Retry-After` on a 202).
import { createClient, type RawAnswer, type SitebeamClient } from '../client/index.js';
import type { Instance } from './instance.js';

export type { RawAnswer };

export interface Connection {
  client: SitebeamClient;
  /** The last HTTP answer received, undefined when none came (network failure). */
  lastAnswer(): RawAnswer | undefined;
}

export function connect(
  instance: Instance,
  options: { timeoutMs: number; withToken: boolean },
): Connection {
  let last: RawAnswer | undefined;
  const client = createClient({
    baseUrl: instance.url,
    token: options.withToken ? instance.token : undefined,
    timeoutMs: options.timeoutMs,
    onAnswer: (answer) => {
      last = answer;
    },
  });
  return { client, lastAnswer: () => last };
}
