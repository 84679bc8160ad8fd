// The one configuration of this page's tracker, set once by the tag or by `init()`.
import type { Config } from './options.js';

export let config: Config;

export const configure = (value: Config): void => {
  config = value;
};
