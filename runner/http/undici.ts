// undici, loaded on first use rather than at import: every realm thread imports the k6/http code, but only threads
// that serve sockets (the HTTP I/O worker, VU host threads) need undici, and loading it costs each such thread a
// burst of CPU, more by `import` (docs/runner-measurements.md §4.2; see ../require-cjs.ts).
import { requireCjs } from '../require-cjs';

type Undici = typeof import('undici');

let loaded: Undici | undefined;

export function undici(): Undici {
  loaded ??= requireCjs('undici') as Undici;
  return loaded;
}
