// Adds up the JUnit XML files the layers wrote and prints one closing line.
// Usage: node summarize-results.mjs RESULTS_DIR [FAILED_LAYER ...]
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const [resultsDir, ...failedLayers] = process.argv.slice(2);
const totals = { passed: 0, failed: 0, skipped: 0 };
const skippedParts = [];

console.log('\n=== summary');
for (const file of readdirSync(resultsDir).sort()) {
  const path = join(resultsDir, file);
  if (file.endsWith('.skipped')) {
    skippedParts.push(file.replace(/\.skipped$/, ''));
    console.log(
      `${file.replace(/\.skipped$/, '')}: SKIPPED (${readFileSync(path, 'utf8').trim()})`,
    );
    continue;
  }
  if (!file.endsWith('.xml')) continue;
  const xml = readFileSync(path, 'utf8');
  const cases = xml.split(/<testcase\b/).slice(1);
  const bodies = cases.map((c) => c.split('</testcase>')[0]);
  const failed = bodies.filter((body) => /<failure\b|<error\b/.test(body)).length;
  const skipped = bodies.filter((body) => /<skipped\b/.test(body)).length;
  const passed = cases.length - failed - skipped;
  totals.passed += passed;
  totals.failed += failed;
  totals.skipped += skipped;
  console.log(
    `${file.replace(/\.xml$/, '')}: ${passed} passed, ${failed} failed, ${skipped} skipped`,
  );
}
if (failedLayers.length > 0) {
  console.log(`failed layers: ${failedLayers.join(', ')}`);
}
if (skippedParts.length > 0) {
  console.log(`skipped parts (not counted as passed): ${skippedParts.join(', ')}`);
}
console.log(`tests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(failedLayers.length > 0 || totals.failed > 0 ? 1 : 0);
