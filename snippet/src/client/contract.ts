// The Sitebeam HTTP contract on the TypeScript side. Every name, limit and code comes from
// contract/sitebeam-contract.json through the generated module; this file only adds the path
// builders. The stub, the relay, the widget and the tests import from here or from the module.
import { answerShapes, apiPaths, outboxPassingStatusRanges } from './contract.generated.js';

export * from './contract.generated.js';

export const paths = {
  email: apiPaths.email,
  models: apiPaths.models,
  prompt: apiPaths.prompt,
  loadModel: (model: string) => `${apiPaths.modelPrefix}${encodeURIComponent(model)}`,
  trackerJson: (website: string) => `${apiPaths.trackerJsonPrefix}${encodeURIComponent(website)}`,
  trackerImg: (website: string) => `${apiPaths.trackerImgPrefix}${encodeURIComponent(website)}`,
} as const;

/** Whether a failed send may succeed later, so that an outbox keeps the mail (0: no answer came). */
export const isPassingStatus = (status: number): boolean =>
  outboxPassingStatusRanges.some(([from, to]) => status >= from && status <= to);

/** The members of a visit record's `infos` that a successful lookup fills: every field of
 * GeoInfos but the failure's `reason`. */
export const geoInfoFields = Object.keys(answerShapes.tracker.fields.infos.type.fields).filter(
  (field) => field !== 'reason',
);
