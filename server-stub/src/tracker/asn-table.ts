// Autonomous-system ranges from @ip-location-db/asn (CSV: first, last, number, organisation),
// held as sorted arrays and searched by bisection. Loaded once, on first use.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

export interface AsnEntry {
  asn: number;
  org: string;
}

interface Table<N> {
  starts: N[] | Uint32Array;
  ends: N[] | Uint32Array;
  asns: Uint32Array;
  orgs: string[];
}

function splitCsvLine(line: string): [string, string, string, string] | undefined {
  const first = line.indexOf(',');
  const second = line.indexOf(',', first + 1);
  const third = line.indexOf(',', second + 1);
  if (third < 0) return undefined;
  let org = line.slice(third + 1);
  if (org.startsWith('"') && org.endsWith('"')) org = org.slice(1, -1).replaceAll('""', '"');
  return [line.slice(0, first), line.slice(first + 1, second), line.slice(second + 1, third), org];
}

async function loadTable<N>(
  file: string,
  parse: (text: string) => N,
  typed: boolean,
): Promise<Table<N>> {
  const text = await readFile(require.resolve(`@ip-location-db/asn/${file}`), 'utf8');
  const lines = text.split('\n').filter((line) => line.length > 0);
  const starts: N[] = [];
  const ends: N[] = [];
  const asns = new Uint32Array(lines.length);
  const orgs: string[] = [];
  const orgIndex = new Map<string, string>();
  lines.forEach((line, index) => {
    const fields = splitCsvLine(line);
    if (!fields) return;
    starts.push(parse(fields[0]));
    ends.push(parse(fields[1]));
    asns[index] = Number(fields[2]);
    const org = orgIndex.get(fields[3]) ?? fields[3];
    orgIndex.set(org, org);
    orgs.push(org);
  });
  return typed
    ? {
        starts: Uint32Array.from(starts as number[]),
        ends: Uint32Array.from(ends as number[]),
        asns,
        orgs,
      }
    : { starts, ends, asns, orgs };
}

function search<N>(table: Table<N>, value: N): AsnEntry | undefined {
  let low = 0;
  let high = table.starts.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const start = table.starts[middle] as N;
    if (start > value) high = middle - 1;
    else if ((table.ends[middle] as N) < value) low = middle + 1;
    else return { asn: table.asns[middle] ?? 0, org: table.orgs[middle] ?? '' };
  }
  return undefined;
}

export class AsnTable {
  private ipv4: Promise<Table<number>> | undefined;
  private ipv6: Promise<Table<bigint>> | undefined;

  async lookupIPv4(value: number): Promise<AsnEntry | undefined> {
    this.ipv4 ??= loadTable('asn-ipv4-num.csv', Number, true);
    return search(await this.ipv4, value);
  }

  async lookupIPv6(value: bigint): Promise<AsnEntry | undefined> {
    this.ipv6 ??= loadTable('asn-ipv6-num.csv', BigInt, false);
    return search(await this.ipv6, value);
  }

  /** Starts loading both tables now, so the first visit does not wait for them. */
  warmUp(): Promise<unknown> {
    return Promise.all([this.lookupIPv4(0), this.lookupIPv6(0n)]);
  }
}
