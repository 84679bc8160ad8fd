// The user agent in the contract's vocabulary (os, device, browser, details), from ua-parser-js 1.x
// (MIT) and isbot's maintained crawler list.
import { list as crawlerPatterns, createIsbotFromList, isbotPatterns } from 'isbot';
import { type DeviceClass, type OsName, UNKNOWN } from 'sitebeam/client';
import { UAParser } from 'ua-parser-js';

export interface UserAgentFacts {
  os: OsName;
  device: DeviceClass;
  browser: string;
  details: { brand: string; type: string };
}

// isbot counts any one-word agent as a crawler; the contract wants such text ("whatever") to stay unknown.
const oneWordPatterns = new Set(isbotPatterns('whatever'));
const isCrawler = createIsbotFromList(crawlerPatterns.filter((p) => !oneWordPatterns.has(p)));

const OS_NAMES: Record<string, OsName> = {
  windows: 'windows',
  'mac os': 'macos',
  macos: 'macos',
  ios: 'ios',
  ipados: 'ios',
  android: 'android',
  'chromium os': 'chromeos',
  'chrome os': 'chromeos',
};
// Linux distributions and Linux-based TV systems all report as `linux`.
const LINUX_FAMILY =
  /^(linux|ubuntu|debian|fedora|mint|arch|gentoo|centos|red hat|suse|opensuse|kubuntu|manjaro|deepin|elementary os|zenwalk|slackware|mandriva|pclinuxos|tizen|webos|netcast|kaios|sailfish|meego|maemo|harmonyos)$/;

const DEVICE_TYPES: Record<string, DeviceClass> = {
  mobile: 'mobile',
  tablet: 'tablet',
  smarttv: 'smarttv',
  console: 'console',
  wearable: 'wearable',
};

const BROWSER_FAMILIES: Array<[RegExp, string]> = [
  [/^samsung/, 'samsung'],
  [/^(mobile |chrome )?safari$/, 'safari'],
  [/^chrom(e|ium)\b/, 'chrome'],
  [/^(mobile )?firefox\b|^firefox (focus|reality)/, 'firefox'],
  [/^edge\b/, 'edge'],
  [/^opera\b/, 'opera'],
  [/^(ie|iemobile)$/, 'ie'],
];

function osName(name: string | undefined): OsName {
  if (!name) return UNKNOWN;
  const lower = name.toLowerCase();
  return OS_NAMES[lower] ?? (LINUX_FAMILY.test(lower) ? 'linux' : UNKNOWN);
}

function browserFamily(name: string | undefined): string {
  if (!name) return UNKNOWN;
  const lower = name.toLowerCase();
  for (const [pattern, family] of BROWSER_FAMILIES) if (pattern.test(lower)) return family;
  return lower.replace(/^mobile | mobile$| webview$| headless$| browser$/g, '');
}

function deviceType(os: OsName, device: DeviceClass, model: string | undefined): string {
  const lowerModel = model?.toLowerCase();
  if (lowerModel === 'iphone' || lowerModel === 'ipad' || lowerModel === 'ipod') return lowerModel;
  if (device === 'smarttv' || device === 'console' || device === 'wearable') return device;
  if (os === UNKNOWN || os === 'ios') return UNKNOWN;
  return os;
}

export function describeUserAgent(userAgent: string): UserAgentFacts {
  const parsed = new UAParser(userAgent).getResult();
  const rawOs = parsed.os.name?.toLowerCase();
  const os = osName(parsed.os.name);
  const bot = userAgent !== '' && isCrawler(userAgent);
  let device: DeviceClass = bot ? 'bot' : (DEVICE_TYPES[parsed.device.type ?? ''] ?? UNKNOWN);
  if (
    device === UNKNOWN &&
    (os === 'windows' || os === 'macos' || os === 'linux' || os === 'chromeos')
  ) {
    device = 'computer';
  }
  let brand =
    parsed.device.vendor?.toLowerCase() ?? (os === 'macos' || os === 'ios' ? 'apple' : UNKNOWN);
  let browser = browserFamily(parsed.browser.name);
  // Tizen runs on Samsung's televisions, whose built-in browser is Samsung Internet.
  if (rawOs === 'tizen') {
    brand = 'samsung';
    if (browser === UNKNOWN || browser === 'safari' || browser === 'chrome') browser = 'samsung';
  }
  return {
    os,
    device,
    browser,
    details: { brand, type: deviceType(os, device, parsed.device.model) },
  };
}
