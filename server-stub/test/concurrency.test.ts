import { beforeAll, expect, it } from 'vitest';
import { startTestStub, useTestStub } from './helpers.js';

const stub = useTestStub();
beforeAll(async () => {
  await stub.stub.warmedUp;
});

it('500 concurrent tracker requests record 500 visits, each once', async () => {
  const answers = await Promise.all(
    Array.from({ length: 500 }, (_, index) =>
      stub
        .request(`/v1/tracker/${index % 2 ? 'json' : 'img'}/site-${index}`)
        .then((response) => response.status),
    ),
  );
  expect(answers.every((status) => status === 200)).toBe(true);
  const { visits } = (await (await stub.request('/__stub/visits')).json()) as {
    visits: Array<{ website: string; cid: string }>;
  };
  expect(visits).toHaveLength(500);
  expect(new Set(visits.map((visit) => visit.website)).size).toBe(500);
  expect(new Set(visits.map((visit) => visit.cid)).size).toBe(500);
  expect(stub.visitLines).toHaveLength(500);
});

it('keeps only the latest visits in memory (bounded history)', async () => {
  const small = await startTestStub({ historySize: 10 });
  try {
    for (let index = 0; index < 25; index += 1)
      await small.request(`/v1/tracker/json/site-${index}`);
    const { visits } = (await (await small.request('/__stub/visits')).json()) as {
      visits: Array<{ website: string }>;
    };
    expect(visits.map((visit) => visit.website)).toEqual(
      Array.from({ length: 10 }, (_, i) => `site-${i + 15}`),
    );
  } finally {
    await small.close();
  }
});
