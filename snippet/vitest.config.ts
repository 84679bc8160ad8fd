import { defineConfig } from 'vitest/config';

// Browser code states `// @vitest-environment happy-dom` in its test files; the rest runs on Node.
export default defineConfig({
  test: {
    name: 'snippet',
    include: ['test/**/*.test.ts'],
    environment: 'node',
  },
});
