// The k6-operator manifests in deploy/k6-operator/ against k6-operator's own TestRun CRD (vendored beside them):
// every TestRun validates against the CRD's schema (unknown fields refused, as a typo would be lost on a cluster),
// points at a bundle the build makes, and sets only knobs the experiments read.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv from 'ajv';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DIR = join(ROOT, 'deploy/k6-operator');

type Schema = Record<string, unknown>;

/**
 * A Kubernetes structural schema as JSON Schema: int-or-string becomes either type, objects with listed properties
 * refuse others unless they preserve unknown fields, and the x-kubernetes-* and format hints are dropped.
 */
function jsonSchema(s: Schema): Schema {
  const out: Schema = {};
  for (const [k, v] of Object.entries(s)) {
    if (k.startsWith('x-kubernetes-') || k === 'format') continue;
    if (k === 'properties')
      out.properties = Object.fromEntries(
        Object.entries(v as Record<string, Schema>).map(([p, ps]) => [p, jsonSchema(ps)]),
      );
    else if (k === 'items' || k === 'additionalProperties')
      out[k] = typeof v === 'object' ? jsonSchema(v as Schema) : v;
    else out[k] = v;
  }
  if (s['x-kubernetes-int-or-string']) {
    delete out.type;
    out.anyOf = [{ type: 'integer' }, { type: 'string' }];
  }
  if (s.properties && !s['x-kubernetes-preserve-unknown-fields'] && out.additionalProperties === undefined)
    out.additionalProperties = false;
  return out;
}

function testRunSchema(): Schema {
  const [crd] = parseAllDocuments(readFileSync(join(DIR, 'crd/k6.io_testruns.yaml'), 'utf8')).map((d) =>
    d.toJS(),
  );
  const version = crd.spec.versions.find((v: { name: string }) => v.name === 'v1alpha1');
  const schema = jsonSchema(version.schema.openAPIV3Schema);
  // metadata is validated by the API server itself, not by the CRD.
  (schema.properties as Record<string, Schema>).metadata = { type: 'object' };
  return schema;
}

const validate = new Ajv({ allErrors: true, strict: false }).compile(testRunSchema());

interface Doc {
  kind: string;
  apiVersion: string;
  metadata: { name: string };
  spec: Record<string, unknown>;
}

const manifests = readdirSync(DIR).filter((f) => f.endsWith('.yaml'));
const docs = manifests.flatMap((file) =>
  parseAllDocuments(readFileSync(join(DIR, file), 'utf8')).map((d) => ({ file, doc: d.toJS() as Doc })),
);
const testRuns = docs.filter(({ doc }) => doc.kind === 'TestRun');

/** Every knob the experiments read: the keys of their knob tables. */
const KNOBS = new Set(
  ['lib/common-knobs.ts', 'lib/backlog/config.ts', 'lib/filter-cost/config.ts'].flatMap((f) =>
    [...readFileSync(join(ROOT, f), 'utf8').matchAll(/^ +([A-Z][A-Z0-9_]*): knob\(/gm)].map((m) => m[1]),
  ),
);
/** Env vars of the runner pods that are not the experiments' knobs: k6's own and the pod's. */
const NOT_KNOBS = new Set(['POD_NAME', 'K6_OUT']);

describe('deploy/k6-operator', () => {
  it('has a TestRun for each experiment', () => {
    expect(testRuns.map(({ doc }) => doc.metadata.name).sort()).toEqual([
      'bench-backlog',
      'bench-filter-cost',
    ]);
  });

  it.each(testRuns.map(({ file, doc }) => [doc.metadata.name, file, doc] as const))(
    '%s (%s) validates against the k6-operator TestRun CRD',
    (_name, _file, doc) => {
      expect(doc.apiVersion).toBe('k6.io/v1alpha1');
      const ok = validate(doc);
      expect(validate.errors ?? [], JSON.stringify(validate.errors)).toEqual([]);
      expect(ok).toBe(true);
    },
  );

  it('catches a misspelt field (the check is not vacuous)', () => {
    const { doc } = testRuns[0];
    expect(validate({ ...doc, spec: { ...doc.spec, paralelism: 3 } })).toBe(false);
    expect(validate({ ...doc, spec: { ...doc.spec, parallelism: 'three' } })).toBe(false);
  });

  it.each(testRuns.map(({ doc }) => [doc.metadata.name, doc] as const))(
    '%s runs a bundle of build/ from a ConfigMap, in parallel, collecting every runner’s results',
    (name, doc) => {
      const spec = doc.spec as {
        parallelism: number;
        script: { configMap: { name: string; file: string } };
        arguments?: string;
        runner: {
          env: Array<{ name: string; value?: string }>;
          volumeMounts: Array<{ mountPath: string; subPathExpr?: string }>;
        };
      };
      expect(spec.parallelism).toBeGreaterThan(1);
      expect(spec.script.configMap.name).toBe(name);
      expect(readdirSync(join(ROOT, 'scenarios'))).toContain(
        spec.script.configMap.file.replace(/\.js$/, '.ts'),
      );
      // The operator chooses each runner's segment.
      expect(spec.arguments ?? '').not.toMatch(/execution-segment/);
      const env = Object.fromEntries(spec.runner.env.map((e) => [e.name, e.value]));
      expect(env.K6_OUT).toMatch(/^json=\/results\//);
      expect(env.RESULTS_DIR).toBe('/results');
      expect(spec.runner.volumeMounts).toContainEqual(
        expect.objectContaining({ mountPath: '/results', subPathExpr: '$(POD_NAME)' }),
      );
      for (const e of spec.runner.env) if (!NOT_KNOBS.has(e.name)) expect(KNOBS, e.name).toContain(e.name);
    },
  );

  it('copies what the runners wrote into a folder git ignores, so collecting a run leaves the tree clean', () => {
    const copies = ['deploy/k6-operator/results-reader.yaml', 'runner/README.md'].flatMap((f) =>
      [
        ...readFileSync(join(ROOT, f), 'utf8').matchAll(/kubectl cp bench-results-reader:\/results (\S+)/g),
      ].map((m) => ({ file: f, dest: m[1] })),
    );
    expect(copies.length).toBeGreaterThanOrEqual(2);
    for (const { file, dest } of copies) {
      // git check-ignore exits 1 (and execFileSync throws) for a path git would track.
      const ignored = execFileSync('git', ['check-ignore', `${dest}/runner-1/samples.json.gz`], {
        cwd: ROOT,
        encoding: 'utf8',
      });
      expect(ignored.trim(), `${file}: ${dest}`).not.toBe('');
    }
  });
});
