import { describe, expect, it } from 'vitest';
import { importedModules, snippetsFromMarkdown } from './k6-doc-snippets';

const page = [
  '# SharedArray',
  '',
  '```javascript',
  "import { SharedArray } from 'k6/data';",
  "const data = new SharedArray('d', () => [1]);",
  'export default function () {}',
  '```',
  '',
  'Not a whole script:',
  '',
  '```javascript',
  "const res = http.get('https://example.com');",
  '```',
  '',
  '{{< code >}}',
  '',
  '  ```js',
  "  import http from 'k6/http';",
  "  import { randomString } from 'https://jslib.k6.io/k6-utils/1.2.0/index.js';",
  '  export default function () {}',
  '  ```',
  '',
  '  ```js',
  "  import redis from 'k6/x/redis';",
  '  export default function () {}',
  '  ```',
  '',
  '  ```javascript',
  "  import http from 'k6/http';",
  "  const lib = require('k6/encoding');",
  '  export default function () {',
  "    http.get('http://localhost');",
  '  }',
  '  ```',
  '',
  '{{< /code >}}',
  '',
  '```bash',
  'k6 run script.js',
  '```',
].join('\n');

describe('snippetsFromMarkdown', () => {
  it("keeps the blocks that export default and import only k6's own modules, unindented, named after the page", () => {
    expect(snippetsFromMarkdown(page, 'javascript-api/k6-data/sharedarray.md')).toEqual([
      {
        name: 'javascript_api_k6_data_sharedarray_0.js',
        code: "import { SharedArray } from 'k6/data';\nconst data = new SharedArray('d', () => [1]);\nexport default function () {}\n",
      },
      {
        name: 'javascript_api_k6_data_sharedarray_1.js',
        code: "import http from 'k6/http';\nconst lib = require('k6/encoding');\nexport default function () {\n  http.get('http://localhost');\n}\n",
      },
    ]);
  });

  it('names an _index page after its folder', () => {
    expect(snippetsFromMarkdown(page, 'javascript-api/k6-data/_index.md').map((s) => s.name)).toEqual([
      'javascript_api_k6_data_0.js',
      'javascript_api_k6_data_1.js',
    ]);
  });
});

describe('importedModules', () => {
  it('reads default, named, namespace, side-effect and multi-line imports and require()', () => {
    const code = [
      "import http from 'k6/http';",
      'import * as enc from "k6/encoding";',
      "import 'k6/experimental/streams';",
      'import {',
      '  check,',
      '  sleep,',
      "} from 'k6';",
      "const x = require('./lib.js');",
    ].join('\n');
    expect(importedModules(code)).toEqual([
      'k6/http',
      'k6/encoding',
      'k6/experimental/streams',
      'k6',
      './lib.js',
    ]);
  });
});
