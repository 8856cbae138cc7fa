import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['pipeline/**/*.test.ts', 'server/**/*.test.ts', 'cli/**/*.test.ts', 'testing/**/*.test.ts', 'scripts/**/*.test.ts', 'deploy/**/*.test.ts', 'clients/**/*.test.ts'],
    globalSetup: ['testing/catalogSetup.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // A zone far from UTC with a 45-minute offset and DST: the results must not depend on the process's zone.
    env: { TZ: 'Pacific/Chatham' },
  },
});
