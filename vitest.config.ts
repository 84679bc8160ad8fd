import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: ['snippet', 'server-stub'],
    // Most test files wait on processes they start (the stub, relays, the CLI, workerd, Deno), so one
    // worker more than the cores keeps them busy: on 2 cores, vitest's default (cores − 1) ran the unit
    // layer in 187 s with the CPU 40 % idle, 3 workers in 96 s.
    maxWorkers: availableParallelism() + 1,
    minWorkers: 1,
  },
});
