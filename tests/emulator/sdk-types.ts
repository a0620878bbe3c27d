// Checks a raw JSON response against the type the official TypeScript SDK declares for it, read from the SDK's own
// .d.ts files with the TypeScript compiler: every required property present, no property the SDK does not declare
// (unless allowed by name), literals and unions matched exactly. TypeScript types cannot tell an integer from a
// fraction; the Python suite checks those.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import ts from 'typescript';

export interface SdkTypeOptions {
  /** Property names a response may carry although the SDK does not declare them. */
  mayAdd(name: string): boolean;
  /** Required property names a response may omit (fields the SDK fills in itself after parsing). */
  mayOmit(name: string): boolean;
  /** Optional property names a response may set to null although the SDK's type has no null. */
  mayBeNull(name: string): boolean;
}

export interface SdkTypes {
  /** Problems of `value` as the SDK's exported type `typeName` (empty when it conforms). */
  check(typeName: string, value: unknown): string[];
}

const SDK_DIR = dirname(createRequire(import.meta.url).resolve('@turbopuffer/turbopuffer'));
// Where the response types are declared (the first two), and what they are built from. Only these are loaded
// (noResolve): the rest of the SDK (client, requests) declares no response fields, and loading it takes seconds.
const SDK_FILES = [
  'resources/namespaces.d.ts',
  'resources/top-level.d.ts',
  'resources/custom.d.ts',
  'internal/custom/performance.d.ts',
].map((f) => join(SDK_DIR, f));

export function loadSdkTypes(options: SdkTypeOptions): SdkTypes {
  const program = ts.createProgram(SDK_FILES, {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    types: [],
    noResolve: true,
    // ES5's library is enough for the response types (arrays, records) and loads in a fraction of the default's time.
    lib: ['lib.es5.d.ts'],
  });
  const checker = program.getTypeChecker();
  const exported = new Map<string, ts.Type>();
  for (const file of SDK_FILES.slice(0, 2)) {
    const source = program.getSourceFile(file);
    const moduleSymbol = source && checker.getSymbolAtLocation(source);
    if (!moduleSymbol) throw new Error(`cannot read the SDK's declarations in ${file}`);
    for (const symbol of checker.getExportsOfModule(moduleSymbol))
      exported.set(symbol.getName(), checker.getDeclaredTypeOfSymbol(symbol));
  }

  const describe = (value: unknown) => JSON.stringify(value)?.slice(0, 60) ?? String(value);

  function check(type: ts.Type, value: unknown, path: string, out: string[]): void {
    const flags = type.flags;
    if (flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return;
    if (type.isUnion()) {
      const attempts = type.types.map((member) => {
        const problems: string[] = [];
        check(member, value, path, problems);
        return problems;
      });
      if (attempts.some((problems) => problems.length === 0)) return;
      // Report the member it came closest to; a wrong literal (the discriminant of a tagged union) counts as farther.
      const distance = (problems: string[]) =>
        problems.length + (problems.some((p) => p.includes(': expected "')) ? 0.5 : 0);
      out.push(...attempts.reduce((a, b) => (distance(b) < distance(a) ? b : a)));
      return;
    }
    const wrong = (expected: string) => out.push(`${path}: expected ${expected}, got ${describe(value)}`);
    if (type.isStringLiteral() || type.isNumberLiteral()) {
      if (value !== type.value) wrong(JSON.stringify(type.value));
      return;
    }
    if (flags & ts.TypeFlags.BooleanLiteral) {
      if (value !== (checker.typeToString(type) === 'true')) wrong(checker.typeToString(type));
      return;
    }
    if (flags & ts.TypeFlags.String) return void (typeof value !== 'string' && wrong('a string'));
    if (flags & ts.TypeFlags.Number) return void (typeof value !== 'number' && wrong('a number'));
    if (flags & ts.TypeFlags.Null) return void (value !== null && wrong('null'));
    if (flags & ts.TypeFlags.Undefined) return void (value !== undefined && wrong('nothing'));
    if (checker.isArrayType(type)) {
      if (!Array.isArray(value)) return void wrong('an array');
      const [element] = checker.getTypeArguments(type as ts.TypeReference);
      value.forEach((item, i) => {
        check(element, item, `${path}[${i}]`, out);
      });
      return;
    }
    if (flags & ts.TypeFlags.Object || type.isIntersection()) {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return void wrong('an object');
      const record = value as Record<string, unknown>;
      const declared = new Set<string>();
      for (const property of checker.getPropertiesOfType(type)) {
        const name = property.getName();
        declared.add(name);
        if (!(name in record)) {
          if (!(property.flags & ts.SymbolFlags.Optional) && !options.mayOmit(name))
            out.push(`${path}.${name}: missing (the SDK declares it required)`);
          continue;
        }
        if (record[name] === null && property.flags & ts.SymbolFlags.Optional && options.mayBeNull(name))
          continue;
        check(checker.getTypeOfSymbol(property), record[name], `${path}.${name}`, out);
      }
      const index = checker
        .getIndexInfosOfType(type)
        .find((info) => info.keyType.flags & ts.TypeFlags.String);
      for (const key of Object.keys(record)) {
        if (declared.has(key)) continue;
        if (index) check(index.type, record[key], `${path}.${key}`, out);
        else if (!options.mayAdd(key)) out.push(`${path}.${key}: not declared by the SDK`);
      }
      return;
    }
    out.push(`${path}: the checker does not handle the SDK type ${checker.typeToString(type)}`);
  }

  return {
    check(typeName, value) {
      const type = exported.get(typeName);
      if (!type) throw new Error(`the SDK exports no type ${typeName}`);
      const out: string[] = [];
      check(type, value, typeName, out);
      return out;
    },
  };
}
