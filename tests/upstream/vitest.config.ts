import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// The `upstream` layer: the project's clients against the stub and the real service (tests/upstream/README.md).
export default defineConfig({
  test: {
    name: 'upstream',
    root: import.meta.dirname,
    include: ['**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 90_000,
    // Each file serves its own stub and releases on free ports and mostly waits on them (as in the root config).
    maxWorkers: availableParallelism() + 1,
    minWorkers: 1,
  },
});
