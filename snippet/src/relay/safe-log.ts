// The relay's log lines carry what the instance said (error texts, codes, cids): each event is
// written on one line, with control characters visible and no token in it.
import { AUTH_HEADER, visibleControls } from '../client/index.js';

const echoedAuthHeader = new RegExp(`(${AUTH_HEADER}["']?\\s*[:=]\\s*["']?)[^\\s"',;]+`, 'gi');

/** `write`, given lines with the configured token and any `X-Auth-Token` value as `[token]`. */
export function safeLog(write: (line: string) => void, token: string): (line: string) => void {
  return (line) => {
    const redacted = line.split(token).join('[token]').replace(echoedAuthHeader, '$1[token]');
    write(visibleControls(redacted, { oneLine: true }));
  };
}
