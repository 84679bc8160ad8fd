// Prints the size of the script-tag bundles: minified, gzip -9 and brotli (quality 11), with the
// gzip budget the build enforces; then the tag's ceilings (issue #38: 1,240 B gzip, 1,080 B brotli)
// and whether its whole answer by brotli, headers and TLS record included, fits in the first TCP
// segment, each marked PASS or NOT MET. Exits 1 over a budget, a ceiling or the segment.
import { readFileSync } from 'node:fs';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { ceilings, firstSegmentBytes, gzipBudgets } from './budgets.mjs';

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

let missed = 0;
const verdict = (value, most) => {
  if (value > most) missed++;
  return value <= most ? 'PASS' : `NOT MET (${value - most} B over)`;
};
for (const [file, ceiling] of Object.entries(ceilings)) {
  const row = rows.find((candidate) => candidate.file === file);
  for (const [encoding, most] of Object.entries(ceiling)) {
    console.log(
      `${file} ${encoding}: ${row[encoding]} B, ceiling ≤ ${most} B: ${verdict(row[encoding], most)}`,
    );
  }
}

// The tag's answer from a typical server: HTTP/1.1 headers as nginx sends a static file, inside
// one TLS 1.3 record (5 B header, 1 B content type, 16 B tag). The first TCP segment of an IPv4
// Ethernet path carries 1460 B (1448 with TCP timestamps).
const headers = [
  'HTTP/1.1 200 OK',
  'Server: nginx',
  'Date: Fri, 27 Nov 2026 08:00:00 GMT',
  'Content-Type: application/javascript; charset=utf-8',
  'Content-Length: 1000',
  'Last-Modified: Fri, 27 Nov 2026 08:00:00 GMT',
  'Connection: keep-alive',
  'ETag: "6746d2c0-3e8"',
  'Cache-Control: public, max-age=86400',
  'Vary: Accept-Encoding',
  'Content-Encoding: br',
  '',
  '',
].join('\r\n').length;
const tls = 22;
const tag = rows.find((row) => row.file === 'sitebeam.min.js');
const answer = (body) => body + headers + tls;
console.log(
  `sitebeam.min.js by brotli, with ${headers} B of typical HTTP/1.1 headers and ${tls} B of TLS record: ${answer(tag.brotli)} B, in the first TCP segment (≤ ${firstSegmentBytes} B): ${verdict(answer(tag.brotli), firstSegmentBytes)}; ${answer(tag.brotli) <= 1448 ? 'also' : 'not'} within 1448 B (TCP timestamps)`,
);
console.log(
  `sitebeam.min.js by gzip, for reference: ${answer(tag.gzip)} B, ${answer(tag.gzip) <= firstSegmentBytes ? 'fits' : 'does not fit'} in ${firstSegmentBytes} B`,
);
const overBudget = rows.filter((row) => row.left < 0);
for (const row of overBudget) console.error(`${row.file}: ${-row.left} B over its gzip budget`);
if (overBudget.length > 0 || missed > 0) process.exit(1);
