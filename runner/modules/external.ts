// Wires the k6 modules built in their own files (k6/http, k6/encoding, k6/crypto) into the realm module table.
import { createCryptoModule } from './crypto';
import { createEncodingModule } from './encoding';
import { createHtmlModule } from './html';
import { createHttpModule } from './http';
import { registerModule } from './index';
import { createSecretsModule } from './secrets';
import { createX509Module } from './x509';

registerModule('k6/http', (rt) => createHttpModule(rt));
registerModule('k6/encoding', () => createEncodingModule());
registerModule('k6/crypto', () => createCryptoModule());
registerModule('k6/html', () => createHtmlModule());
registerModule('k6/secrets', () => createSecretsModule());
registerModule('k6/crypto/x509', () => createX509Module());
