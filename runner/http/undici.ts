// undici, loaded on first use rather than at import: every realm thread imports the k6/http code, but only threads
// that serve sockets (the HTTP I/O worker, VU host threads) need undici, and loading it costs 0.1-0.2 s of CPU per
// thread (process.cpuUsage around require('undici')), twice that by `import` (see ../require-cjs.ts).
import { requireCjs } from '../require-cjs';

type Undici = typeof import('undici');

let loaded: Undici | undefined;

export function undici(): Undici {
  loaded ??= requireCjs('undici') as Undici;
  return loaded;
}
