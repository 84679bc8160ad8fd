// The plugin's added front-end cost on a real WordPress page. The same page is requested alternately with
// and without the plugin (tests/wordpress/bench/sitebeam-bench.php switches it per request and reports each
// page's PHP time, queries, and the time spent in the plugin's own code). Prints medians.
const siteUrl = process.env.SITEBEAM_WP_URL;
const rounds = Number(process.env.SITEBEAM_BENCH_ROUNDS ?? 300);
if (!siteUrl) throw new Error('SITEBEAM_WP_URL is not set: run tests/wordpress/bench.sh');

async function measure(withPlugin) {
  const response = await fetch(`${siteUrl}/`, {
    headers: withPlugin ? {} : { 'X-Sitebeam-Bench': 'off' },
  });
  const html = await response.text();
  const match = /<!-- sitebeam-bench ms=([\d.]+) queries=(\d+) plugin_ms=([\d.]+) -->/.exec(html);
  if (!response.ok || !match) throw new Error(`unexpected answer ${response.status}`);
  const hasTracker = html.includes('sitebeam-tracker-js');
  if (hasTracker !== withPlugin) throw new Error('the plugin switch did not work');
  return { ms: Number(match[1]), queries: Number(match[2]), pluginMs: Number(match[3]) };
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

for (let i = 0; i < 20; i++) await measure(i % 2 === 0); // warm the opcode cache both ways
const samples = { with: [], without: [] };
for (let i = 0; i < rounds; i++) {
  // Alternate which goes first so drift in machine load falls on both sides equally.
  const order = i % 2 === 0 ? [true, false] : [false, true];
  for (const withPlugin of order)
    samples[withPlugin ? 'with' : 'without'].push(await measure(withPlugin));
}

const withMs = median(samples.with.map((s) => s.ms));
const withoutMs = median(samples.without.map((s) => s.ms));
const withQueries = Math.max(...samples.with.map((s) => s.queries));
const withoutQueries = Math.max(...samples.without.map((s) => s.queries));
// Median of the paired differences: each pair was measured back to back.
const pairedMs = median(samples.with.map((s, i) => s.ms - samples.without[i].ms));
const ownMs = median(samples.with.map((s) => s.pluginMs));

console.log(
  `WordPress front page, logged-out visitor, ${rounds} requests each way (PHP time to shutdown)`,
);
console.log(`  without plugin: median ${withoutMs.toFixed(3)} ms, ${withoutQueries} queries`);
console.log(`  with plugin:    median ${withMs.toFixed(3)} ms, ${withQueries} queries`);
console.log(
  `  plugin's own code (main file include + its hook callbacks): median ${ownMs.toFixed(3)} ms (target < 1 ms)`,
);
console.log(
  `  whole-page difference: ${pairedMs.toFixed(3)} ms (median of back-to-back pairs; noisy on a busy machine)`,
);
console.log(`  extra queries per page: ${withQueries - withoutQueries} (target 0)`);
