// Bounds on the Node command's sockets: a body that stops halfway, or a crowd of idle
// connections, must not hold the relay's sockets for Node's default five minutes.
import { envReader, RelayConfigError } from './env.js';

export interface SocketLimits {
  /** Seconds a client has to send its headers. */
  headersTimeoutS: number;
  /** Seconds a client has to send its whole request, body included (not the answer's time). */
  requestTimeoutS: number;
  /** Connections open at once; more are closed as they arrive. */
  maxConnections: number;
}

export const socketLimitDefaults: SocketLimits = {
  headersTimeoutS: 10,
  requestTimeoutS: 30,
  maxConnections: 512,
};

export const socketLimitEnvNames = {
  headersTimeoutS: 'SITEBEAM_HEADERS_TIMEOUT_S',
  requestTimeoutS: 'SITEBEAM_REQUEST_TIMEOUT_S',
  maxConnections: 'SITEBEAM_MAX_CONNECTIONS',
} as const;

export function socketLimitsFromEnv(env: Record<string, string | undefined>): SocketLimits {
  const read = envReader(env, socketLimitEnvNames);
  const limits = { ...socketLimitDefaults };
  for (const key of Object.keys(socketLimitEnvNames) as (keyof SocketLimits)[]) {
    const value = read.wholeNumber(key);
    if (value === 0) throw new RelayConfigError(socketLimitEnvNames[key], 'must be at least 1');
    if (value !== undefined) limits[key] = value;
  }
  if (limits.headersTimeoutS > limits.requestTimeoutS) {
    throw new RelayConfigError(
      socketLimitEnvNames.headersTimeoutS,
      `must not exceed ${socketLimitEnvNames.requestTimeoutS} (${limits.requestTimeoutS})`,
    );
  }
  return limits;
}

/** `createServer` options: Node checks the timeouts at this interval (default 30 s), so keep it short. */
export const serverOptions = (limits: SocketLimits) => ({
  connectionsCheckingInterval: Math.min(1000, limits.headersTimeoutS * 1000),
  headersTimeout: limits.headersTimeoutS * 1000,
  requestTimeout: limits.requestTimeoutS * 1000,
});
