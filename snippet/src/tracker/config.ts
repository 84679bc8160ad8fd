// The one configuration of this page's tracker, filled once by the tag or by `init()`.
import type { Config } from './options.js';

export const config = {} as Config;
