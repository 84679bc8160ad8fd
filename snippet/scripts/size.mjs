// Prints the size of the script-tag bundles: minified, gzip -9 and brotli (quality 11),
// with the gzip budget the build enforces. Numbers only: the build is what fails over budget.
import { readFileSync } from 'node:fs';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { gzipBudgets } from './budgets.mjs';

const dist = new URL('../dist/', import.meta.url);

const rows = Object.entries(gzipBudgets).map(([file, budget]) => {
  let code;
  try {
    code = readFileSync(new URL(file, dist));
  } catch {
    console.error(`snippet/dist/${file} is missing: run npm run build first`);
    process.exit(1);
  }
  const gzip = gzipSync(code, { level: 9 }).length;
  const brotli = brotliCompressSync(code, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
    },
  }).length;
  return { file, min: code.length, gzip, brotli, budget, left: budget - gzip };
});

const columns = ['file', 'min', 'gzip', 'brotli', 'budget', 'left'];
const header = columns.map((column) => (column === 'file' ? column : `${column} B`));
const widths = columns.map((column, i) =>
  Math.max(header[i].length, ...rows.map((row) => String(row[column]).length)),
);
const line = (cells) =>
  cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ');
console.log(line(header));
for (const row of rows) console.log(line(columns.map((column) => String(row[column]))));
