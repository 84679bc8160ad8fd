// The script-tag bundles (IIFE, ES2017, minified). Node modules and type declarations come from tsc.
import { gzipSync } from 'node:zlib';
import terser from '@rollup/plugin-terser';
import typescript from '@rollup/plugin-typescript';
import { gzipBudgets } from './scripts/budgets.mjs';

function enforceGzipBudgets() {
  return {
    name: 'sitebeam-gzip-budget',
    generateBundle(_outputOptions, bundle) {
      for (const [fileName, chunk] of Object.entries(bundle)) {
        const budget = gzipBudgets[fileName];
        if (budget === undefined || chunk.type !== 'chunk') continue;
        const bytes = gzipSync(chunk.code, { level: 9 }).length;
        if (bytes > budget)
          this.error(`${fileName} is ${bytes} B gzip, over its ${budget} B budget`);
      }
    },
  };
}

const scriptTagBundle = (input, file, preamble) => ({
  input,
  output: { file, format: 'iife', strict: false },
  plugins: [
    typescript({ tsconfig: './tsconfig.browser.json' }),
    terser({
      ecma: 2017,
      compress: { passes: 3, unsafe_arrows: true, pure_getters: true },
      format: { comments: false, preamble },
    }),
    enforceGzipBudgets(),
  ],
});

export default [
  // A V8 compile hint (Chromium 136+; a plain comment elsewhere), read on a file's first line:
  // every function is compiled with the file, off the main thread while it streams in, not
  // lazily at its first call. Those first calls came before the request: 5 lazy compiles, ~2 ms
  // of main-thread time in Chromium's trace on a busy machine.
  scriptTagBundle(
    'src/tracker/script-tag.ts',
    'dist/sitebeam.min.js',
    '//# allFunctionsCalledOnLoad',
  ),
  scriptTagBundle('src/form/script-tag.ts', 'dist/sitebeam-form.min.js'),
  scriptTagBundle('src/chat/script-tag.ts', 'dist/sitebeam-chat.min.js'),
];
