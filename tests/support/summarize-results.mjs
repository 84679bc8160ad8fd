// Adds up the JUnit XML files the layers wrote and prints one closing line.
// Usage: node summarize-results.mjs RESULTS_DIR [FAILED_LAYER ...]
// A part that could not run leaves RESULTS_DIR/<part>.skipped (one line: why, and how to get it).
// It counts as skipped, never as passed; with SITEBEAM_REQUIRE_ALL=1 (CI) any skip fails the run but
// one whose line starts "registry unreachable:": a PHP 8.5 part whose Debian suite could not be fetched
// (tests/support/php-root.sh exit status 2, from apt's own fetch errors), the registry's, not our code's.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const [resultsDir, ...failedLayers] = process.argv.slice(2);
const requireAll = process.env.SITEBEAM_REQUIRE_ALL === '1';
const totals = { passed: 0, failed: 0, skippedCases: 0 };
const skippedParts = [];
const registrySkips = [];
const REGISTRY_UNREACHABLE = 'registry unreachable:';
const failedCases = [];

const xmlText = (text) =>
  text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
const attribute = (tag, name) => xmlText(tag.match(new RegExp(`\\b${name}="([^"]*)"`))?.[1] ?? '');

/** One line naming a failed case and the first line of why, for a log whose tail is all one sees. */
function describeFailure(part, testcase) {
  const openTag = testcase.slice(0, testcase.indexOf('>'));
  const failure = testcase.match(/<(?:failure|error)\b([^>]*)>?/);
  const why = failure
    ? attribute(failure[1], 'message') || xmlText(testcase.split(failure[0])[1] ?? '')
    : '';
  const firstLine = why
    .replace(/<!\[CDATA\[/, '')
    .trim()
    .split('\n')[0]
    .slice(0, 200);
  return `${part}: ${attribute(openTag, 'classname')} › ${attribute(openTag, 'name')}${firstLine ? ` — ${firstLine}` : ''}`;
}

console.log('\n=== summary');
for (const file of readdirSync(resultsDir).sort()) {
  const path = join(resultsDir, file);
  if (file.endsWith('.skipped')) {
    const part = file.replace(/\.skipped$/, '');
    const why = readFileSync(path, 'utf8').trim();
    skippedParts.push(part);
    if (why.startsWith(REGISTRY_UNREACHABLE)) registrySkips.push(part);
    console.log(`${part}: SKIPPED (${why})`);
    continue;
  }
  if (!file.endsWith('.xml')) continue;
  const xml = readFileSync(path, 'utf8');
  const cases = xml.split(/<testcase\b/).slice(1);
  const bodies = cases.map((c) => c.split('</testcase>')[0]);
  const failedBodies = bodies.filter((body) => /<failure\b|<error\b/.test(body));
  const failed = failedBodies.length;
  const part = file.replace(/\.xml$/, '');
  for (const body of failedBodies) failedCases.push(describeFailure(part, body));
  const skipped = bodies.filter((body) => /<skipped\b/.test(body)).length;
  const passed = cases.length - failed - skipped;
  totals.passed += passed;
  totals.failed += failed;
  totals.skippedCases += skipped;
  console.log(
    `${file.replace(/\.xml$/, '')}: ${passed} passed, ${failed} failed, ${skipped} skipped`,
  );
}

const problems = [];
if (failedLayers.length > 0) problems.push(`failed layers: ${failedLayers.join(', ')}`);
if (skippedParts.length > 0) {
  console.log(`skipped parts (not counted as passed): ${skippedParts.join(', ')}`);
}
if (requireAll) {
  const notAllowed = skippedParts.filter((part) => !registrySkips.includes(part));
  if (notAllowed.length > 0) {
    problems.push(`SITEBEAM_REQUIRE_ALL=1 and these parts did not run: ${notAllowed.join(', ')}`);
  }
  if (registrySkips.length > 0) {
    console.log(
      `allowed by SITEBEAM_REQUIRE_ALL (Debian's registry could not be fetched): ${registrySkips.join(', ')}`,
    );
  }
  if (totals.skippedCases > 0) {
    problems.push(`SITEBEAM_REQUIRE_ALL=1 and ${totals.skippedCases} test cases were skipped`);
  }
}
if (failedCases.length > 0) console.log(`failed test cases:\n  ${failedCases.join('\n  ')}`);
for (const problem of problems) console.log(problem);

// "N skipped" counts the parts (layers or platforms) that did not run and the skipped test cases.
const skipped = skippedParts.length + totals.skippedCases;
const count = (n, noun) => `${n} ${noun}${n === 1 ? '' : 's'}`;
console.log(
  `skipped: ${count(skippedParts.length, 'part')}, ${count(totals.skippedCases, 'test case')}`,
);
console.log(`tests: ${totals.passed} passed, ${totals.failed} failed, ${skipped} skipped`);
process.exit(problems.length > 0 || totals.failed > 0 ? 1 : 0);
