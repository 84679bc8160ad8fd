// The Sitebeam HTTP contract on the TypeScript side. Every name, limit and code comes from
// contract/sitebeam-contract.json through the generated module; this file only adds the path
// builders. The stub, the relay, the widget and the tests import from here or from the module.
import { apiPaths } from './contract.generated.js';

export * from './contract.generated.js';

export const paths = {
  email: apiPaths.email,
  models: apiPaths.models,
  prompt: apiPaths.prompt,
  loadModel: (model: string) => `${apiPaths.modelPrefix}${encodeURIComponent(model)}`,
  trackerJson: (website: string) => `${apiPaths.trackerJsonPrefix}${encodeURIComponent(website)}`,
  trackerImg: (website: string) => `${apiPaths.trackerImgPrefix}${encodeURIComponent(website)}`,
} as const;
