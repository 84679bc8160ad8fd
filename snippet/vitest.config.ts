import { defineConfig } from 'vitest/config';

// Browser code states `// @vitest-environment happy-dom` in its test files; the rest runs on Node.
export default defineConfig({
  test: {
    name: 'snippet',
    include: ['test/**/*.test.ts'],
    environment: 'node',
    // Tests that start the stub or a process over HTTP need more than 5 s on a loaded 2-core CI machine.
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
