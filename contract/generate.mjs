#!/usr/bin/env node
// Writes the TypeScript module and the two PHP classes from contract/sitebeam-contract.json.
// `node contract/generate.mjs` rewrites them; `--check` only compares and exits 1 naming every
// stale file. No dependency: this runs before anything is installed or built.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = new URL('../', import.meta.url);
const SOURCE = 'contract/sitebeam-contract.json';
const contract = JSON.parse(readFileSync(new URL(SOURCE, root), 'utf8'));
const { api } = contract;
const contact = contract.protocols.contact;
const chat = contract.protocols.chat;
const { outbox } = contract;

// The address rule must refuse what the service's validator refuses, in any letter case.
const addressRule = new RegExp(contact.patterns.emailAddress, 'u');
for (const domain of api.specialUseDomains) {
  for (const address of [
    `a@${domain}`,
    `a@b.${domain}`,
    `a@B.${domain.toUpperCase()}`,
    `a.${domain}@b.${domain}`,
  ]) {
    if (addressRule.test(address)) {
      throw new Error(`${SOURCE}: emailAddress accepts ${address}, a special-use domain`);
    }
  }
  for (const address of [`a@${domain}x.com`, `a@x${domain}.com`, `${domain}@b.com`]) {
    if (!addressRule.test(address)) {
      throw new Error(`${SOURCE}: emailAddress refuses ${address}, not a special-use domain`);
    }
  }
}

// The conformance cases' outbox answers use the contract's own field for a queued message.
const contactCases = JSON.parse(
  readFileSync(new URL('contract/conformance/contact.cases.json', root), 'utf8'),
);
for (const { id, expectWithOutbox } of contactCases.cases) {
  if (expectWithOutbox && expectWithOutbox.json?.[contact.responseFields.queued] !== true) {
    throw new Error(
      `contract/conformance/contact.cases.json: ${id}'s expectWithOutbox lacks "${contact.responseFields.queued}": true`,
    );
  }
}

const notice = `Generated from ${SOURCE} by contract/generate.mjs — do not edit: change the JSON and run \`npm run contract\`.`;

const upperSnake = (name) =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .toUpperCase();

const withoutComments = (values) =>
  Object.fromEntries(Object.entries(values).filter(([key]) => !key.startsWith('$')));

// --- Answer shapes ----------------------------------------------------------------------------

// The field types of api.types are TypeScript type expressions; each answer's type becomes a plain
// description the run-time checks walk: { kind: 'string' | 'number' | 'boolean' | 'null' },
// { kind: 'unknown' } (anything), { kind: 'literal', value }, { kind: 'list', of }, { kind: 'object', fields: { name: { type,
// optional } } } or { kind: 'union', of: [...] }.
const stringAliases = new Set(['ErrorCode', 'OsName', 'DeviceClass']);

function splitTopLevel(text, separator) {
  const parts = [];
  let depth = 0;
  let start = 0;
  for (let index = 0; index < text.length; index += 1) {
    const character = text[index];
    if (character === '{' || character === '[') depth += 1;
    else if (character === '}' || character === ']') depth -= 1;
    else if (depth === 0 && character === separator) {
      parts.push(text.slice(start, index).trim());
      start = index + 1;
    }
  }
  parts.push(text.slice(start).trim());
  return parts.filter((part) => part !== '');
}

function shapeOf(expression) {
  const text = expression.trim();
  const members = splitTopLevel(text, '|');
  if (members.length > 1) {
    // Any string absorbs the string literals beside it (`'IPv4' | string` is a string).
    const shapes = members.map(shapeOf);
    const anyString = shapes.some(({ kind }) => kind === 'string');
    const kept = shapes.filter(({ kind }) => !(anyString && kind === 'literal'));
    const unique = [...new Map(kept.map((shape) => [JSON.stringify(shape), shape])).values()];
    return unique.length === 1 ? unique[0] : { kind: 'union', of: unique };
  }
  if (text.endsWith('[]')) return { kind: 'list', of: shapeOf(text.slice(0, -2)) };
  if (/^'[^']*'$/.test(text)) return { kind: 'literal', value: text.slice(1, -1) };
  if (['string', 'number', 'boolean', 'null', 'unknown'].includes(text)) return { kind: text };
  if (stringAliases.has(text)) return { kind: 'string' };
  if (text.startsWith('{')) {
    const fields = Object.fromEntries(
      splitTopLevel(text.slice(1, -1), ';').map((member) => {
        const colon = member.indexOf(':');
        return [member.slice(0, colon).trim(), member.slice(colon + 1).trim()];
      }),
    );
    return objectShape(fields);
  }
  const named = api.types[text];
  if (!named) throw new Error(`${SOURCE}: no type ${text} for an answer shape`);
  return objectShape(named.fields);
}

function objectShape(fields) {
  return {
    kind: 'object',
    fields: Object.fromEntries(
      Object.entries(fields).map(([name, type]) => {
        const optional = name.endsWith('?') || type.endsWith('?');
        const cleanType = type.endsWith('?') ? type.slice(0, -1) : type;
        const field = { type: shapeOf(cleanType) };
        return [name.replace(/\?$/, ''), optional ? { ...field, optional } : field];
      }),
    ),
  };
}

const answerShapes = Object.fromEntries(
  Object.entries(withoutComments(api.answers)).map(([answer, type]) => [answer, shapeOf(type)]),
);

// --- TypeScript -------------------------------------------------------------------------------

const tsString = (value) => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
const tsValue = (value, indent = '') => {
  if (typeof value === 'string') return tsString(value);
  if (typeof value === 'number')
    return value >= 10_000 ? value.toLocaleString('en').replace(/,/g, '_') : String(value);
  if (Array.isArray(value)) return `[${value.map((item) => tsValue(item)).join(', ')}]`;
  const inner = `${indent}  `;
  const rows = Object.entries(value).map(
    ([key, item]) => `${inner}${key}: ${tsValue(item, inner)},`,
  );
  return `{\n${rows.join('\n')}\n${indent}}`;
};
/** Like tsValue, with each object that fits on one line written on one line. */
const tsShape = (value, indent = '') => {
  if (typeof value !== 'object') return typeof value === 'boolean' ? String(value) : tsValue(value);
  const list = Array.isArray(value);
  const [open, close] = list ? ['[', ']'] : ['{ ', ' }'];
  const items = Object.entries(value).map(([key, item]) => {
    const text = tsShape(item, `${indent}  `);
    return list ? text : `${key}: ${text}`;
  });
  const inline = `${open}${items.join(', ')}${close}`;
  if (!inline.includes('\n') && indent.length + inline.length <= 80) return inline;
  return `${open.trim()}\n${items.map((item) => `${indent}  ${item},`).join('\n')}\n${indent}${close.trim()}`;
};
const tsConst = (name, value, doc) =>
  `${doc ? `/** ${doc} */\n` : ''}export const ${name} = ${tsValue(value)} as const;`;
/** A pattern as a regular-expression literal; characters outside printable ASCII as `\u{…}`. */
const tsRegExp = (source) => {
  const escaped = [...source]
    .map((character) => {
      const code = character.codePointAt(0);
      return code < 0x20 || code > 0x7e ? `\\u{${code.toString(16).toUpperCase()}}` : character;
    })
    .join('');
  return `/${escaped}/u`;
};
const tsInterface = (name, type) => {
  const rows = Object.entries(type.fields).map(([field, fieldType]) => {
    const optional = fieldType.endsWith('?');
    return `  ${field}${optional ? '?' : ''}: ${optional ? fieldType.slice(0, -1) : fieldType};`;
  });
  return `export interface ${name} {\n${rows.join('\n')}\n}`;
};
const tsErrors = (prefix, errors) => [
  tsConst(`${prefix}Codes`, Object.fromEntries(errors.map(({ name, code }) => [name, code]))),
  `export type ${prefix.charAt(0).toUpperCase()}${prefix.slice(1)}Code = (typeof ${prefix}Codes)[keyof typeof ${prefix}Codes];`,
  `/** The HTTP status that goes with each code. */\nexport const ${prefix}Status: Record<${prefix.charAt(0).toUpperCase()}${prefix.slice(1)}Code, number> = ${tsValue(
    Object.fromEntries(errors.map(({ code, status }) => [code, status])),
  )};`,
];

/** What every protocol begins with: its form fields, its answers' members, limits and defaults. */
const tsProtocolHead = (name, protocol) => [
  `// The ${name} endpoint protocol (contract/${name}-protocol.md)\n${tsConst(`${name}Fields`, protocol.fields)}`,
  tsConst(`${name}ResponseFields`, protocol.responseFields),
  tsConst(`${name}Limits`, protocol.limits),
  tsConst(`${name}Defaults`, protocol.defaults),
];

function typescript() {
  const parts = [
    `// ${notice}\n\n// The Sitebeam API\nexport const AUTH_HEADER = ${tsString(api.authHeader)};`,
    tsConst('apiPaths', api.paths),
    tsConst('limits', api.limits),
    ...tsErrors('error', api.errors),
    tsConst('statusValues', api.statusValues),
    tsConst('upstream', withoutComments(api.upstream), api.upstream.$comment),
    tsConst(
      'specialUseDomains',
      api.specialUseDomains,
      "Domains the service's address validator refuses, themselves and every name under them.",
    ),
    tsConst('knownModels', api.knownModels),
    tsConst('integerSettings', api.promptSettings.integer),
    tsConst('positiveNumberSettings', api.promptSettings.positiveNumber),
    tsConst('booleanSettings', api.promptSettings.boolean),
    tsConst(
      'promptSettingAliases',
      withoutComments(api.promptSettings.aliases),
      api.promptSettings.aliases.$comment,
    ),
    `export const UNKNOWN = ${tsString(api.tracker.unknown)};`,
    `export const NO_REFERRER = ${tsString(api.tracker.noReferrer)};`,
    tsConst('osNames', api.tracker.osNames),
    tsConst('deviceClasses', api.tracker.deviceClasses),
    'export type OsName = (typeof osNames)[number];',
    'export type DeviceClass = (typeof deviceClasses)[number];',
    tsConst('trackerAttributes', api.tracker.attributes, "The tracker tag's data-* attributes."),
    `// Every outbox: the plugin's, the module's and the relay's\n${tsConst(
      'outboxPassingStatusRanges',
      outbox.passingStatusRanges,
      outbox.$comment.split('\n\n')[1],
    )}`,
    tsConst('outboxDefaults', outbox.defaults),
    ...Object.entries(api.types).map(([name, type]) => tsInterface(name, type)),
    `/** ${api.answers.$comment} */\nexport const answerShapes = ${tsShape(answerShapes)} as const;`,
    ...tsProtocolHead('contact', contact),
    tsConst('contactTicket', { hmacPrefix: contact.ticket.hmacPrefix, hash: contact.ticket.hash }),
    ...Object.entries(contact.patterns)
      .filter(([key]) => !key.startsWith('$'))
      .map(([key, source]) => `export const ${key}Pattern = ${tsRegExp(source)};`),
    tsConst('consentAcceptedTexts', contact.consent.acceptedTexts, contact.consent.$comment),
    `export const CONSENT_MAIL_LINE = ${tsString(contact.consent.mailLine)};`,
    `export const CONTACT_ALLOWED_METHODS = ${tsString(contact.methods.allow)};`,
    `/** The query parameter a native (no JavaScript) post comes back with after success. */\nexport const SENT_QUERY_PARAM = ${tsString(contact.sentQueryParam)};`,
    ...tsErrors('contactError', contact.errors),
    ...Object.entries(contact.types).map(([name, type]) => tsInterface(name, type)),
    ...tsProtocolHead('chat', chat),
    tsConst('chatWidget', withoutComments(chat.widget), chat.widget.$comment),
    tsConst(
      'unscoredModels',
      chat.unscoredModels,
      'Models whose score is always 0: endpoints leave `score` out.',
    ),
    `export const CHAT_ALLOWED_METHODS = ${tsString(chat.methods.allow)};`,
    ...tsErrors('chatError', chat.errors),
    ...Object.entries(chat.types).map(([name, type]) => tsInterface(name, type)),
  ];
  return `${parts.join('\n\n')}\n`;
}

// --- PHP --------------------------------------------------------------------------------------

/** A PHP string literal: single-quoted when plain ASCII, else double-quoted with `\u{…}`. */
const phpString = (value) => {
  if (/^[\x20-\x7e]*$/.test(value)) return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  const escaped = [...value]
    .map((character) => {
      const code = character.codePointAt(0);
      if (code < 0x20 || code > 0x7e) return `\\u{${code.toString(16).toUpperCase()}}`;
      return character === '\\' || character === '"' || character === '$'
        ? `\\${character}`
        : character;
    })
    .join('');
  return `"${escaped}"`;
};
const phpPattern = (source) => phpString(`/${source}/uD`);

/** A nested PHP array of strings and booleans; small ones on one line (WordPress: one key at most). */
const phpNested = (value, style, unit) => {
  if (typeof value === 'boolean') return style.keyword(String(value));
  if (typeof value === 'string') return phpString(value);
  const list = Array.isArray(value);
  const entries = Object.entries(value);
  const keyWidth = style.align ? Math.max(...entries.map(([key]) => phpString(key).length)) : 0;
  const items = (pad) =>
    entries.map(([key, item]) => {
      const text = phpNested(item, style, unit).replace(/\n/g, `\n${unit}`);
      return list ? text : `${phpString(key).padEnd(pad)} => ${text}`;
    });
  const inline = style.inlineArray(items(0).join(', '));
  const mayInline = list || entries.length === 1 || !style.align;
  if (mayInline && !inline.includes('\n') && inline.length <= 70) return inline;
  return style.blockArray(
    items(keyWidth)
      .map((item) => `${unit}${item},`)
      .join('\n'),
  );
};

// The answer checks' and visible_controls()' methods, written once in WordPress's style and turned into Drupal's.
const answerChecksTemplate = readFileSync(new URL('contract/answer-checks.php.tmpl', root), 'utf8');
const camelCase = (name) => name.replace(/_([a-z])/g, (_, letter) => letter.toUpperCase());
const phpAnswerChecks = (style, indent) => {
  const code = style.align
    ? answerChecksTemplate.replace(/\b(NULL|TRUE|FALSE)\b/g, (word) => word.toLowerCase())
    : answerChecksTemplate
        .replace(/\t/g, '  ')
        .replace(/([([]) /g, '$1')
        .replace(/(?<=\S) ([)\]])/g, '$1')
        .replace(/! /g, '!')
        .replace(/array\(\)/g, '[]')
        .replace(/^( \* @param \S+) +(\$\S+) +(.+)$/gm, '$1 $2\n *   $3')
        .replace(/^( \* @return \S+) (.+)$/gm, '$1\n *   $2')
        .replace(
          /\b(answer_problem|shape_problem|shape_fits|value_kind|shape_kind|is_list|visible_controls|visible_control|is_passing_status)\b/g,
          camelCase,
        );
  return code
    .trimEnd()
    .split('\n')
    .map((line) => (line ? `${indent}${line}` : line))
    .join('\n');
};

/** Every constant of the class, in order: [name, value, doc], value being a PHP expression. */
function phpConstants(style) {
  const list = (items) => style.array(items.map(phpString));
  const map = (entries) => style.map(entries);
  const constants = [];
  const add = (name, value, doc) => constants.push([name, value, doc]);
  const group = (prefix, values, doc) => {
    let first = true;
    for (const [key, value] of Object.entries(values)) {
      if (key.startsWith('$')) continue;
      add(
        `${prefix}_${upperSnake(key)}`,
        typeof value === 'number' ? String(value) : phpString(value),
        first ? doc : undefined,
      );
      first = false;
    }
  };
  const errors = (prefix, items, doc) => {
    for (const [index, { code }] of items.entries()) {
      add(`${prefix}_${upperSnake(code)}`, phpString(code), index === 0 ? doc : undefined);
    }
    add(
      `${prefix}_STATUS`,
      map(items.map(({ code, status }) => [`self::${prefix}_${upperSnake(code)}`, String(status)])),
      'The HTTP status of each code.',
    );
  };

  /** What every protocol begins with: its form fields, its answers' members, limits and defaults. */
  const protocolHead = (name, protocol, defaultsDoc) => {
    const prefix = name.toUpperCase();
    group(`${prefix}_FIELD`, protocol.fields, `The ${name} protocol's form fields.`);
    group(
      `${prefix}_RESPONSE_FIELD`,
      protocol.responseFields,
      `Members of the ${name} endpoint's JSON answers.\n\nBesides status, error and i18n_code.`,
    );
    group(prefix, protocol.limits, `Limits of the ${name} protocol (characters are code points).`);
    group(prefix, protocol.defaults, defaultsDoc);
  };

  add('AUTH_HEADER', phpString(api.authHeader), 'The header that carries the API token.');
  group(
    'PATH',
    api.paths,
    'API paths; a *_PREFIX is followed by the percent-encoded model or website.',
  );
  group('LIMIT', api.limits, "The API's limits.");
  errors('ERROR', api.errors, "The API's error codes (i18n_code).");
  group('STATUS', api.statusValues, 'Values of the `status` member of every answer.');
  group('UPSTREAM', api.upstream, api.upstream.$comment);
  add(
    'SPECIAL_USE_DOMAINS',
    list(api.specialUseDomains),
    "Domains the service's address validator refuses.\n\nThemselves and every name under them.",
  );
  for (const [name, type] of Object.entries(api.types)) {
    if (!type.phpPrefix) continue;
    group(
      type.phpPrefix,
      Object.fromEntries(Object.keys(type.fields).map((field) => [field, field])),
      `Field names of ${name}.`,
    );
  }
  add('KNOWN_MODELS', list(api.knownModels), 'Models every instance lists.');
  add('PROMPT_INTEGER_SETTINGS', list(api.promptSettings.integer), 'Prompt settings by type.');
  add('PROMPT_POSITIVE_NUMBER_SETTINGS', list(api.promptSettings.positiveNumber));
  add('PROMPT_BOOLEAN_SETTINGS', list(api.promptSettings.boolean));
  add(
    'PROMPT_SETTING_ALIASES',
    map(
      Object.entries(withoutComments(api.promptSettings.aliases)).map(([alias, name]) => [
        phpString(alias),
        phpString(name),
      ]),
    ),
    api.promptSettings.aliases.$comment,
  );
  group('TRACKER_ATTR', api.tracker.attributes, "The tracker tag's data-* attributes.");
  add(
    'OUTBOX_PASSING_STATUS_RANGES',
    style.array(outbox.passingStatusRanges.map((range) => style.array(range.map(String)))),
    outbox.$comment,
  );
  group('OUTBOX', outbox.defaults, 'Timing of every outbox (seconds, hours, counts).');

  protocolHead(
    'contact',
    contact,
    'Defaults of the contact protocol.\n\nAn endpoint may make the rate limit configurable.',
  );
  add(
    'CONTACT_TICKET_HMAC_PREFIX',
    phpString(contact.ticket.hmacPrefix),
    'A fill-time ticket is `<issued_ms>.<sig>`.\n\nThe signature is base64url(hash_hmac(CONTACT_TICKET_HASH, prefix . issued_ms, secret, true)) without padding.',
  );
  add('CONTACT_TICKET_HASH', phpString(contact.ticket.hash));
  add(
    'CONSENT_ACCEPTED_TEXTS',
    list(contact.consent.acceptedTexts),
    'Texts of a consent field that give consent, besides JSON true.\n\nTrimmed and compared without case; contact and chat protocols alike; anything else does not.',
  );
  add(
    'CONSENT_MAIL_LINE',
    phpString(contact.consent.mailLine),
    "Begins the owner's mail line saying the visitor agreed.\n\nThe owner's label follows it.",
  );
  add('CONTACT_ALLOWED_METHODS', phpString(contact.methods.allow), 'The Allow header of a 405.');
  add(
    'CONTACT_SENT_QUERY_PARAM',
    phpString(contact.sentQueryParam),
    'Added (=1) to the page a native post returns to after success.',
  );
  for (const [key, doc] of Object.entries({
    emailAddress: 'The address rule (ASCII dot-atom, lengths included), for preg_match.',
    singleLineForbidden:
      'A single-line value matching this is refused: C0, DEL, C1, U+2028, U+2029.',
    multiLineForbidden: 'The same for a multi-line value, which may hold TAB, LF and CR.',
  })) {
    add(`${upperSnake(key)}_PATTERN`, phpPattern(contact.patterns[key]), doc);
  }
  errors('CONTACT_ERROR', contact.errors, "The contact protocol's error codes (i18n_code).");

  protocolHead('chat', chat, 'Defaults of the chat protocol (the rate limit is configurable).');
  group('CHAT_WIDGET', chat.widget, chat.widget.$comment);
  add(
    'CHAT_UNSCORED_MODELS',
    list(chat.unscoredModels),
    'Models whose score is always 0.\n\nEndpoints leave `score` out of their answers.',
  );
  add('CHAT_ALLOWED_METHODS', phpString(chat.methods.allow), 'The Allow header of a 405.');
  errors('CHAT_ERROR', chat.errors, "The chat protocol's error codes (i18n_code).");
  add(
    'ANSWER_SHAPES',
    phpNested(answerShapes, style, style.unit),
    'The shape of each answer of the API, checked by answer_problem().\n\nA shape is a kind (string, number, boolean, null, literal, list, object, union) and its parts.',
  );
  return constants;
}

/** Words of `text` in lines that fit `width` characters after `prefix`. */
function wrap(text, prefix, width) {
  const lines = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && prefix.length + line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  lines.push(line);
  return lines.map((words) => `${prefix}${words}`).join('\n');
}

function php({ namespace, indent, guard, style }) {
  // A blank line ends the one-line summary; what follows is wrapped as further paragraphs.
  const docComment = (text, lead = indent) => {
    const [summary, ...rest] = text.split('\n\n');
    // Drupal's coder refuses a summary over two lines, WordPress reads only the first line.
    if (`${lead} * ${summary}`.length > style.width) {
      throw new Error(`a doc comment's summary is wider than ${style.width} columns: ${summary}`);
    }
    return `${lead}/**\n${[summary, ...rest]
      .map((paragraph) => wrap(paragraph, `${lead} * `, style.width))
      .join(`\n${lead} *\n`)}\n${lead} */\n`;
  };
  const constants = phpConstants(style);
  // WordPress aligns the `=` of consecutive constants; a doc comment starts a new run.
  const runWidth = [];
  for (let start = 0; start < constants.length; ) {
    let end = start + 1;
    while (end < constants.length && !constants[end][2]) end += 1;
    const width = Math.max(...constants.slice(start, end).map(([name]) => name.length));
    for (let index = start; index < end; index += 1) runWidth[index] = width;
    start = end;
  }
  const body = constants
    .map(([name, value, doc], index) => {
      const comment = doc ? docComment(doc) : '';
      const indented = value.replace(/\n/g, `\n${indent}`);
      const padded = style.align ? name.padEnd(runWidth[index]) : name;
      return `${doc ? '\n' : ''}${comment}${indent}public const ${padded} = ${indented};`;
    })
    .join('\n')
    .replace(/^\n/, '');
  const head = guard
    ? `<?php\n/**\n * ${notice}\n *\n * @package Sitebeam\n */\n\nnamespace ${namespace};\n\nif ( ! defined( 'ABSPATH' ) ) {\n\texit;\n}\n`
    : `<?php\n\ndeclare(strict_types=1);\n\nnamespace ${namespace};\n`;
  const summary =
    'The Sitebeam contract, generated.\n\nAPI paths, field names, limits and codes, and the contact and chat protocols.';
  return `${head}
${docComment(guard ? summary : `${summary}\n\n${notice}`, '')}final class Contract {

${body}

${phpAnswerChecks(style, indent)}
${style.align ? '' : '\n'}}
`;
}

const wordpressStyle = {
  width: 100,
  align: true,
  unit: '\t',
  keyword: (word) => word,
  inlineArray: (items) => `array( ${items} )`,
  blockArray: (lines) => `array(\n${lines}\n)`,
  array: (items) => `array( ${items.join(', ')} )`,
  map: (entries) => {
    const width = Math.max(...entries.map(([key]) => key.length));
    return `array(\n${entries.map(([key, value]) => `\t${key.padEnd(width)} => ${value},`).join('\n')}\n)`;
  },
};
const drupalStyle = {
  width: 80,
  unit: '  ',
  keyword: (word) => word.toUpperCase(),
  inlineArray: (items) => `[${items}]`,
  blockArray: (lines) => `[\n${lines}\n]`,
  array: (items) =>
    items.join(', ').length > 60
      ? `[\n${items.map((item) => `  ${item},`).join('\n')}\n]`
      : `[${items.join(', ')}]`,
  map: (entries) => `[\n${entries.map(([key, value]) => `  ${key} => ${value},`).join('\n')}\n]`,
};

const outputs = {
  'snippet/src/client/contract.generated.ts': typescript(),
  'wordpress-plugin/src/Contract.php': php({
    namespace: 'Sitebeam',
    indent: '\t',
    guard: true,
    style: wordpressStyle,
  }),
  'drupal-module/src/Contract.php': php({
    namespace: 'Drupal\\sitebeam',
    indent: '  ',
    guard: false,
    style: drupalStyle,
  }),
};

/** Files whose committed text differs from what the JSON gives. */
export function staleFiles() {
  return Object.entries(outputs)
    .filter(([path, text]) => {
      try {
        return readFileSync(new URL(path, root), 'utf8') !== text;
      } catch {
        return true;
      }
    })
    .map(([path]) => path);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--check')) {
    const stale = staleFiles();
    for (const path of stale) console.error(`${path} is stale: run npm run contract`);
    if (stale.length > 0) process.exit(1);
    console.log(`contract: ${Object.keys(outputs).length} generated files are up to date`);
  } else {
    for (const [path, text] of Object.entries(outputs)) writeFileSync(new URL(path, root), text);
    console.log(`contract: wrote ${Object.keys(outputs).join(', ')}`);
  }
}
