// Settings read from environment variables, and the error that names the one at fault: the
// bottom of the relay's configuration modules, importing none of them.

export class RelayConfigError extends Error {
  override readonly name = 'RelayConfigError';
  /** The option (or environment variable) at fault. */
  readonly setting: string;
  readonly problem: string;

  constructor(setting: string, problem: string) {
    super(`${setting} ${problem}`);
    this.setting = setting;
    this.problem = problem;
  }
}

/** Reads `names`' variables from `env`, refusing a missing or malformed one by its name. */
export function envReader<Key extends string>(
  env: Record<string, string | undefined>,
  names: Record<Key, string>,
) {
  const optional = (key: Key) => env[names[key]]?.trim() || undefined;
  return {
    optional,
    required(key: Key): string {
      const value = optional(key);
      if (!value) throw new RelayConfigError(names[key], 'is not set');
      return value;
    },
    wholeNumber(key: Key): number | undefined {
      const value = optional(key);
      if (value === undefined) return undefined;
      if (!/^\d+$/.test(value)) throw new RelayConfigError(names[key], 'must be a whole number');
      return Number(value);
    },
  };
}

/** Runs `check`, naming the environment variable behind any option it refuses. */
export function withEnvNames<T>(names: Record<string, string>, check: () => T): T {
  try {
    return check();
  } catch (error) {
    if (!(error instanceof RelayConfigError)) throw error;
    throw new RelayConfigError(names[error.setting] ?? error.setting, error.problem);
  }
}
