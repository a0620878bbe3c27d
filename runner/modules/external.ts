// Wires the k6 modules built in their own files (k6/http, and later k6/encoding, k6/crypto) into the realm table.
import { createHttpModule } from './http';
import { registerModule } from './index';

registerModule('k6/http', (rt) => createHttpModule(rt));
