// The tracker tag's cost in Debian's Chromium, read from Chromium's own performance trace over
// 20 cold page loads: how long evaluating sitebeam.min.js takes (compile + run), and how long
// from the start of that evaluation until the visit request is dispatched. Prints medians.

import { expect, test } from '@playwright/test';
import { startStaticSite } from '../../support/static-site.ts';
import { startStub } from '../../support/stub-server.ts';

const loads = 20;

interface TraceEvent {
  name: string;
  ts: number;
  dur?: number;
  args?: { data?: { url?: string } };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};

const ms = (microseconds: number) => `${(microseconds / 1000).toFixed(3)} ms`;

test('tracker tag: evaluation time and script start to request dispatched', async ({ browser }) => {
  const stub = await startStub();
  const site = await startStaticSite({
    '/': `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Bench</title>
<link rel="icon" href="data:,">
<script defer src="/sitebeam.min.js" data-api="${stub.url}" data-website="bench.example"
        data-track-localhost data-track-automation></script></head>
<body><main><h1>Bench</h1></main></body></html>`,
  });
  const evaluation: number[] = [];
  const toRequest: number[] = [];
  try {
    for (let load = 0; load < loads; load += 1) {
      const context = await browser.newContext();
      const page = await context.newPage();
      await browser.startTracing(page, { categories: ['devtools.timeline'] });
      const sent = page.waitForRequest((request) => request.url().includes('/v1/tracker/json/'));
      await page.goto(`${site.url}/`);
      await sent;
      const trace = JSON.parse((await browser.stopTracing()).toString()) as {
        traceEvents: TraceEvent[];
      };
      const script = trace.traceEvents.find(
        (event) =>
          event.name === 'EvaluateScript' && event.args?.data?.url?.endsWith('/sitebeam.min.js'),
      );
      const request = trace.traceEvents.find(
        (event) =>
          event.name === 'ResourceSendRequest' &&
          event.args?.data?.url?.includes('/v1/tracker/json/'),
      );
      expect(script?.dur, 'EvaluateScript of sitebeam.min.js in the trace').toBeDefined();
      expect(request, 'ResourceSendRequest of the visit in the trace').toBeDefined();
      if (!script?.dur || !request) continue;
      evaluation.push(script.dur);
      toRequest.push(request.ts - script.ts);
      await context.close();
    }
  } finally {
    await site.close();
    await stub.stop();
  }
  const row = (label: string, values: number[]) =>
    `${label.padEnd(42)} median ${ms(median(values))}  min ${ms(Math.min(...values))}  max ${ms(Math.max(...values))}`;
  console.log(`sitebeam.min.js in Chromium ${browser.version()}, ${evaluation.length} cold loads`);
  console.log(row('script evaluation (compile + run)', evaluation));
  console.log(row('script start -> visit request dispatched', toRequest));
});
