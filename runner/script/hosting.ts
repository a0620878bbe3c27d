// Whether a script's VUs can share a thread (runner/vu-host.worker.ts) instead of one thread each, decided from the
// classic-script bundle (runner/script/bundle.ts) before any VU starts. A hosted VU must never block its thread, and
// the script must not be able to tell that the objects k6 modules hand it come from the host thread's realm. Verdicts:
//   - as-is: no VU code makes a blocking call (the async form; or blocking calls only in setup, teardown and
//     handleSummary, which run in their own threads): the bundle is hosted unchanged;
//   - awaits: synchronous k6 code whose every blocking call (http.get/post/..., http.batch, sleep, and the script's own
//     functions and methods that make them) is a direct call that can become `(await ...)` inside an async function,
//     with nothing else able to observe the change: the edits below do that, and the hosted modules answer those
//     calls with promises (ModuleHost.awaitsBlocking);
//   - threads: anything this analysis cannot prove (a blocking function passed as a callback, a getter that blocks,
//     `instanceof Array`, Node globals, eval, ...): one thread per VU, k6's model, with the reason.
// It is conservative by construction: whatever it does not recognise keeps the script on threads.
import { parse } from 'acorn';
import type * as EslintScope from 'eslint-scope';
import type { Reference, Scope, ScopeManager, Variable } from 'eslint-scope';
import type * as ES from 'estree';
import { requireCjs } from '../require-cjs';
import {
  HOSTED_WEB_GLOBALS,
  IMPORT_META_RESOLVE_GLOBAL,
  K6_MODULES,
  LIVE_KEY,
  TIMERS_GLOBAL,
} from './k6-modules';
import { THROWN_GLOBAL } from './thrown-values';

// Its CommonJS build by require (../require-cjs.ts): the ES build imports two CommonJS packages.
const { analyze } = requireCjs('eslint-scope') as typeof EslintScope;

export type HostingVerdict =
  | { kind: 'as-is' }
  | { kind: 'awaits'; edits: Insertion[] }
  | { kind: 'threads'; reason: string };

/** Text inserted into the bundle at an offset (never a newline: lines keep their numbers). */
export interface Insertion {
  at: number;
  text: string;
}

type Fn = (ES.FunctionDeclaration | ES.FunctionExpression | ES.ArrowFunctionExpression) & Span;
type Span = { start: number; end: number };
type Call = (ES.CallExpression | ES.NewExpression | ES.TaggedTemplateExpression) & Span;

/** k6 calls that block the calling VU until they are done. */
const BLOCKING: Record<string, ReadonlySet<string>> = {
  'k6/http': new Set(['request', 'get', 'head', 'post', 'put', 'patch', 'del', 'options', 'batch']),
  k6: new Set(['sleep']),
};
/** k6 exports whose use means the script already has async code of its own. */
const ASYNC: Record<string, ReadonlySet<string>> = {
  'k6/http': new Set(['asyncRequest']),
  'k6/timers': new Set(['setTimeout', 'setInterval']),
  // Their events run the script's handlers later, as timers do.
  'k6/websockets': new Set(['WebSocket']),
  'k6/experimental/websockets': new Set(['WebSocket']),
};
/** Exports that never run in a VU (each runs once, in its own thread). */
const REALM_ONLY_EXPORTS = new Set(['setup', 'teardown', 'handleSummary']);
/** Methods the language calls by itself: an async one would change what it gets back. */
const IMPLICIT_METHODS = new Set([
  'then',
  'toString',
  'valueOf',
  'toJSON',
  'next',
  'return',
  'throw',
  'constructor',
]);

/** esbuild's runtime helpers: their reflection and loops are the bundle's plumbing, not the script's. */
const HELPERS = new Set([
  '__create',
  '__freeze',
  '__defProp',
  '__defProps',
  '__getOwnPropDesc',
  '__getOwnPropDescs',
  '__getOwnPropNames',
  '__getOwnPropSymbols',
  '__getProtoOf',
  '__hasOwnProp',
  '__propIsEnum',
  '__knownSymbol',
  '__typeError',
  '__defNormalProp',
  '__spreadValues',
  '__spreadProps',
  '__markAsModule',
  '__name',
  '__require',
  '__esm',
  '__commonJS',
  '__export',
  '__copyProps',
  '__reExport',
  '__toESM',
  '__toCommonJS',
  '__toBinary',
  '__publicField',
  '__restKey',
  '__objRest',
  '__pow',
  '__template',
]);
/** Helpers of lowered async functions and generators. */
const ASYNC_HELPERS = new Set(['__async', '__await', '__asyncGenerator', '__yieldStar', '__forAwait']);

/**
 * Globals of a hosted VU's vm context besides the language's (runner/vu/realm.ts). A script that uses another one
 * (Node's process, Buffer, setImmediate, fetch...) finds it only on its own thread.
 */
const HOSTED_GLOBALS = new Set<string>([
  ...HOSTED_WEB_GLOBALS,
  '__ENV',
  '__VU',
  '__ITER',
  'open',
  'require',
  'console',
  'global',
  TIMERS_GLOBAL,
  THROWN_GLOBAL,
  IMPORT_META_RESOLVE_GLOBAL,
]);
/** The language's own globals (every vm context has them). */
const LANGUAGE_GLOBALS = new Set(
  'globalThis Infinity NaN undefined isFinite isNaN parseFloat parseInt decodeURI decodeURIComponent encodeURI encodeURIComponent escape unescape Object Array Number Boolean String Symbol Date Promise RegExp Error AggregateError EvalError RangeError ReferenceError SyntaxError TypeError URIError JSON Math Intl ArrayBuffer SharedArrayBuffer Atomics Uint8Array Int8Array Uint16Array Int16Array Uint32Array Int32Array Float32Array Float64Array Uint8ClampedArray BigUint64Array BigInt64Array DataView Map BigInt Set WeakMap WeakSet FinalizationRegistry WeakRef'.split(
    ' ',
  ),
);
/** Globals that run code or reach objects in ways the analysis cannot follow. */
const OPAQUE_GLOBALS = new Set(['eval', 'Function', 'Proxy', 'Reflect']);
/** Members that cross realms' prototypes: false or different for the host realm's objects. */
const PROTOTYPE_MEMBERS = new Set([
  'constructor',
  '__proto__',
  'getPrototypeOf',
  'setPrototypeOf',
  'isPrototypeOf',
]);
/** Reflection that lists a script's own methods. */
const REFLECTION = new Set([
  'getOwnPropertyNames',
  'getOwnPropertyDescriptor',
  'getOwnPropertyDescriptors',
  'values',
  'entries',
]);

class Refusal extends Error {}

/** How the code can reach a function: it decides whether the function can become async. */
type Binding =
  | { kind: 'variable'; variable: Variable }
  | { kind: 'method'; name: string; objectLiteral: boolean }
  | { kind: 'group-callback' }
  | { kind: 'iife' }
  | { kind: 'export-getter'; name: string }
  | { kind: 'unsupported'; what: string }
  | { kind: 'value' };

interface FnInfo {
  node: Fn;
  binding: Binding;
  /** Where `async ` goes. */
  insertAt: number;
  blocking: boolean;
  /** Only setup/teardown/handleSummary reach it: it never runs in a VU. */
  realmOnly: boolean;
  /** The innermost function around it; undefined at the bundle's top level. */
  outer: FnInfo | undefined;
}

interface CallSite {
  node: Call;
  /** The function whose body the call is in; undefined: the script's init code. */
  fn: FnInfo | undefined;
  /** Why an await cannot go there (a default parameter, a class field initialiser), if it cannot. */
  problem: string | undefined;
  blocking: boolean;
}

/** Decides how the VUs of a classic-script bundle (`var X = (() => { ... })();`) can be placed. */
export function hostingVerdict(code: string): HostingVerdict {
  try {
    return new Analysis(code).verdict();
  } catch (error) {
    if (error instanceof Refusal) return { kind: 'threads', reason: error.message };
    throw error;
  }
}

class Analysis {
  private readonly program: ES.Program;
  private readonly manager: ScopeManager;
  /** The bundle's top-level function (the IIFE): its body is the script's init code. */
  private readonly top: Fn;
  private readonly parents = new Map<ES.Node, ES.Node>();
  private readonly fns = new Map<ES.Node, FnInfo>();
  private readonly calls: CallSite[] = [];
  private readonly helperNodes = new Set<ES.Node>();
  /** Identifier -> the variable it refers to. */
  private readonly resolved = new Map<ES.Node, Variable>();
  private readonly refs: Reference[] = [];
  /** k6 module object variables (`var m = globalThis[Symbol.for("bench.k6.require")]("k6/http")`) and aliases. */
  private readonly namespaces = new Map<Variable, string>();
  /** Variables holding one k6 export (`var get = m.get`). */
  private readonly primitives = new Map<Variable, { module: string; name: string }>();
  /** Functions bound to each variable, and member expressions by property name (filled by bind/index). */
  private readonly fnsOf = new Map<Variable, FnInfo[]>();
  private readonly membersNamed = new Map<string, ES.MemberExpression[]>();
  /** Names of methods that make blocking calls: every `x.name(...)` call is awaited. */
  private readonly blockingMethods = new Set<string>();
  /** Where the script shows async code of its own (then awaits would interleave it differently). */
  private asyncCode: string | undefined;

  constructor(private readonly code: string) {
    try {
      this.program = parse(code, {
        ecmaVersion: 'latest',
        sourceType: 'script',
        ranges: true,
      }) as unknown as ES.Program;
    } catch (error) {
      throw new Refusal(`the bundle could not be parsed for analysis (${(error as Error).message})`);
    }
    const first = this.program.body[0];
    const init = first?.type === 'VariableDeclaration' ? first.declarations[0]?.init : undefined;
    if (init?.type !== 'CallExpression' || init.callee.type !== 'ArrowFunctionExpression')
      throw new Refusal('the bundle is not the classic script the runner makes');
    this.top = init.callee as Fn;
    this.manager = analyze(this.program, { ecmaVersion: 2022, sourceType: 'script' });
  }

  verdict(): HostingVerdict {
    this.index(this.program, undefined, false);
    this.resolve(this.manager.globalScope as Scope);
    this.findModules();
    for (const info of this.fns.values()) {
      this.bind(info);
      if (info.binding.kind !== 'variable') continue;
      const list = this.fnsOf.get(info.binding.variable);
      if (list) list.push(info);
      else this.fnsOf.set(info.binding.variable, [info]);
    }
    this.checkRealm();
    for (const call of this.calls) this.place(call);
    this.propagate();
    this.markRealmOnly();
    const needed = [...this.fns.values()].filter((f) => f.blocking && !f.realmOnly);
    const sites = this.calls.filter((c) => c.blocking && !c.fn?.realmOnly);
    // A blocking k6 function handed to other code (['/a'].map(http.get)) blocks whatever the verdict.
    this.checkPrimitiveUses();
    if (needed.length === 0 && sites.length === 0) return { kind: 'as-is' };
    if (this.asyncCode)
      throw new Refusal(
        `it makes blocking calls and also has async code of its own (${this.asyncCode}), which awaits would interleave differently`,
      );
    this.checkSites(sites);
    this.checkFunctions(needed);
    if (this.blockingMethods.size > 0) this.checkMethodUses(needed);
    return { kind: 'awaits', edits: this.edits(needed, sites) };
  }

  private where(node: ES.Node): string {
    const start = (node as ES.Node & Span).start;
    let line = 1;
    let column = 1;
    for (let i = 0; i < start; i++) {
      if (this.code.charCodeAt(i) === 10) {
        line++;
        column = 1;
      } else column++;
    }
    return `bundle line ${line}:${column}`;
  }

  /** Parents, functions, call sites, helper declarations and the first sign of async code. */
  private index(node: ES.Node, parent: ES.Node | undefined, inHelper: boolean): void {
    if (parent) this.parents.set(node, parent);
    let helper = inHelper;
    if (node.type === 'VariableDeclarator' && node.id.type === 'Identifier') {
      if (ASYNC_HELPERS.has(node.id.name)) this.asyncCode ??= `${node.id.name} at ${this.where(node)}`;
      helper ||= HELPERS.has(node.id.name) || ASYNC_HELPERS.has(node.id.name);
    }
    if (helper) this.helperNodes.add(node);
    else this.noteAsync(node);
    if (isFunction(node) && node !== this.top)
      this.fns.set(node, {
        node: node as Fn,
        binding: { kind: 'value' },
        insertAt: (node as Fn).start,
        blocking: false,
        realmOnly: false,
        outer: undefined,
      });
    if (node.type === 'MemberExpression') {
      const name = staticName(node);
      if (name !== undefined) {
        const list = this.membersNamed.get(name);
        if (list) list.push(node);
        else this.membersNamed.set(name, [node]);
      }
    }
    if (
      !helper &&
      (node.type === 'CallExpression' ||
        node.type === 'NewExpression' ||
        node.type === 'TaggedTemplateExpression')
    )
      this.calls.push({ node: node as Call, fn: undefined, problem: undefined, blocking: false });
    for (const child of children(node)) this.index(child, node, helper);
  }

  private noteAsync(node: ES.Node): void {
    if (this.asyncCode) return;
    if (isFunction(node) && (node.async || node.generator))
      this.asyncCode = `${node.async ? 'an async function' : 'a generator'} at ${this.where(node)}`;
    else if (
      node.type === 'AwaitExpression' ||
      node.type === 'YieldExpression' ||
      (node.type === 'ForOfStatement' && node.await)
    )
      this.asyncCode = `${node.type === 'YieldExpression' ? 'yield' : 'await'} at ${this.where(node)}`;
    else if (node.type === 'MemberExpression' && staticName(node) === 'then')
      this.asyncCode = `.then at ${this.where(node)}`;
    else if (isMember(node) && keyName(node) === 'then')
      // `await x` calls x.then: a script's own `then` would run where it did not before.
      this.asyncCode = `a property named then at ${this.where(node)}`;
  }

  private resolve(scope: Scope): void {
    if (scope.type === 'with') throw new Refusal(`it uses with at ${this.where(scope.block)}`);
    for (const ref of scope.references) {
      this.refs.push(ref);
      if (ref.resolved) this.resolved.set(ref.identifier as ES.Identifier, ref.resolved);
    }
    for (const child of scope.childScopes) this.resolve(child);
  }

  private declared(node: ES.Node): Variable | undefined {
    return this.manager.getDeclaredVariables(node)[0];
  }

  /** The k6 module bindings of the bundle's virtual modules (runner/script/k6-modules.ts virtualModuleSource). */
  private findModules(): void {
    const declarators = [...this.parents.keys()].filter(
      (n): n is ES.VariableDeclarator => n.type === 'VariableDeclarator',
    );
    for (const d of declarators) {
      const id = moduleId(d.init);
      const variable = id === undefined ? undefined : this.declared(d);
      if (!variable || id === undefined || !writtenOnce(variable)) continue;
      this.namespaces.set(variable, id);
      // The module lookup itself (a computed call on globalThis) is the bundle's plumbing.
      this.markHelper(d);
    }
    // The listener that keeps a live module's named imports bound to its members (virtualModuleSource) is plumbing:
    // its writes to them are not the script's.
    for (const node of this.parents.keys()) {
      if (node.type !== 'ExpressionStatement' || node.expression.type !== 'CallExpression') continue;
      const callee = node.expression.callee;
      if (callee.type !== 'MemberExpression' || this.namespaceOf(callee.object) === undefined) continue;
      const key = callee.property;
      if (
        key.type === 'CallExpression' &&
        key.arguments[0]?.type === 'Literal' &&
        key.arguments[0].value === LIVE_KEY
      )
        this.markHelper(node);
    }
    const writtenOnceByScript = (variable: Variable) =>
      variable.references.filter((r) => r.isWrite() && !this.helperNodes.has(r.identifier as ES.Node))
        .length <= 1;
    for (const d of declarators) {
      const variable = this.declared(d);
      if (!variable || !writtenOnceByScript(variable)) continue;
      const init = d.init;
      if (init?.type === 'Identifier') {
        const module = this.namespaceOf(init);
        if (module === undefined) continue;
        this.namespaces.set(variable, module);
        this.markHelper(d);
      } else if (init?.type === 'MemberExpression') {
        const module = this.namespaceOf(init.object);
        const name = staticName(init);
        if (module === undefined || name === undefined || !K6_MODULES[module]?.includes(name)) continue;
        this.primitives.set(variable, { module, name });
        this.markHelper(d);
      }
    }
    // k6/ws's connect() blocks while it runs the socket's handlers: no await can stand for that.
    if ([...this.namespaces.values()].includes('k6/ws'))
      throw new Refusal(
        "it uses k6/ws, whose connect() blocks its thread while it serves the socket's events",
      );
    // res.submitForm() and res.clickLink() send requests from a Response, an object the analysis does not follow.
    for (const name of ['submitForm', 'clickLink'])
      if (this.membersNamed.has(name))
        throw new Refusal(`it calls res.${name}(), which sends a request from a response object`);
    // A grpc Client's blocking methods are reached through objects the analysis does not follow.
    if ([...this.namespaces.values()].includes('k6/net/grpc'))
      throw new Refusal("it uses k6/net/grpc, whose Client's connect() and invoke() block its thread");
    for (const ref of this.refs) {
      const p = ref.resolved && this.primitives.get(ref.resolved);
      if (p && ASYNC[p.module]?.has(p.name) && !ref.init && !this.helperNodes.has(ref.identifier as ES.Node))
        this.asyncCode ??= `${p.name} at ${this.where(ref.identifier as ES.Node)}`;
    }
    // A k6 module with blocking functions reached any other way (the script's require('k6/http'), which the bundle
    // serves as a CommonJS module, or require() with a computed name) is one whose calls the analysis cannot follow.
    for (const node of this.parents.keys()) {
      if (node.type !== 'CallExpression') continue;
      const id = moduleId(node);
      if (id !== undefined && BLOCKING[id] && !this.helperNodes.has(node))
        throw new Refusal(`it reaches ${id} through require() at ${this.where(node)}`);
      const callee = node.callee;
      if (
        callee.type === 'Identifier' &&
        (callee.name === 'require' || callee.name === '__require') &&
        !this.helperNodes.has(node) &&
        node.arguments[0]?.type !== 'Literal'
      )
        throw new Refusal(`it calls require() with a computed module name at ${this.where(node)}`);
    }
  }

  private markHelper(node: ES.Node): void {
    this.helperNodes.add(node);
    for (const child of children(node)) this.markHelper(child);
  }

  private namespaceOf(node: ES.Node): string | undefined {
    const variable = node.type === 'Identifier' ? this.resolved.get(node) : undefined;
    return variable && this.namespaces.get(variable);
  }

  /** The k6 export a callee names: a primitive variable, or `namespace.name`. */
  private primitiveOf(callee: ES.Node): { module: string; name: string } | undefined {
    if (callee.type === 'Identifier') {
      const variable = this.resolved.get(callee);
      return variable && this.primitives.get(variable);
    }
    if (callee.type === 'MemberExpression') {
      const module = this.namespaceOf(callee.object);
      const name = staticName(callee);
      if (module !== undefined && name !== undefined) return { module, name };
    }
    return undefined;
  }

  private isGroup(callee: ES.Node): boolean {
    const p = this.primitiveOf(callee);
    return p?.module === 'k6' && p.name === 'group';
  }

  /** How `info`'s function can be reached, and where its `async ` goes. */
  private bind(info: FnInfo): void {
    const node = info.node;
    const parent = this.parents.get(node);
    info.outer = this.enclosingFn(node);
    if (node.generator) info.binding = { kind: 'unsupported', what: 'a generator' };
    else if (node.type === 'FunctionDeclaration') {
      const variable = this.declared(node);
      if (variable) info.binding = { kind: 'variable', variable };
    } else if (parent?.type === 'VariableDeclarator' && parent.init === node) {
      const variable = this.declared(parent);
      if (variable) info.binding = { kind: 'variable', variable };
    } else if (parent?.type === 'AssignmentExpression' && parent.right === node && parent.operator === '=') {
      const variable = parent.left.type === 'Identifier' ? this.resolved.get(parent.left) : undefined;
      const name = parent.left.type === 'MemberExpression' ? staticName(parent.left) : undefined;
      if (variable) info.binding = { kind: 'variable', variable };
      else if (name !== undefined) info.binding = { kind: 'method', name, objectLiteral: true };
    } else if (parent?.type === 'Property' && parent.value === node) {
      const name = keyName(parent);
      const object = this.parents.get(parent);
      const call = object && this.parents.get(object);
      if (parent.kind !== 'init') info.binding = { kind: 'unsupported', what: `a ${parent.kind}ter` };
      else if (
        call?.type === 'CallExpression' &&
        call.callee.type === 'Identifier' &&
        call.callee.name === '__export'
      )
        info.binding = { kind: 'export-getter', name: name ?? '' };
      else if (
        call?.type === 'CallExpression' &&
        call.callee.type === 'Identifier' &&
        HELPERS.has(call.callee.name)
      )
        // A CommonJS module's body (`__commonJS({ "path"(exports, module) { ... } })`): its init code.
        info.binding = { kind: 'unsupported', what: "a bundled module's top-level code" };
      else if (name !== undefined) {
        info.binding = { kind: 'method', name, objectLiteral: true };
        if (parent.method) info.insertAt = (parent as ES.Property & Span).start;
      }
    } else if (parent?.type === 'MethodDefinition') {
      const name = keyName(parent);
      if (parent.kind !== 'method') info.binding = { kind: 'unsupported', what: `a ${parent.kind}` };
      else if (name !== undefined) {
        info.binding = { kind: 'method', name, objectLiteral: false };
        info.insertAt = (parent.key as ES.Node & Span).start;
      }
    } else if (parent?.type === 'PropertyDefinition' && parent.value === node) {
      const name = keyName(parent);
      if (name !== undefined) info.binding = { kind: 'method', name, objectLiteral: false };
    } else if (parent?.type === 'CallExpression' && parent.callee === node) info.binding = { kind: 'iife' };
    else if (parent?.type === 'CallExpression' && parent.arguments[1] === node && this.isGroup(parent.callee))
      info.binding = { kind: 'group-callback' };
  }

  /** The innermost function around `node` (undefined: the init code). */
  private enclosingFn(node: ES.Node): FnInfo | undefined {
    for (let n = this.parents.get(node); n && n !== this.top; n = this.parents.get(n)) {
      const info = this.fns.get(n);
      if (info) return info;
    }
    return undefined;
  }

  /** A call's function, and whether an await could go where it is. */
  private place(call: CallSite): void {
    let child: ES.Node = call.node;
    for (let n = this.parents.get(child); n && n !== this.top; child = n, n = this.parents.get(n)) {
      const info = this.fns.get(n);
      if (info) {
        call.fn = info;
        if ((info.node.params as ES.Node[]).includes(child)) call.problem = 'a default parameter value';
        return;
      }
      if ((n.type === 'PropertyDefinition' && n.value === child) || n.type === 'StaticBlock') {
        call.problem = 'a class field initialiser';
        call.fn = this.enclosingFn(n);
        return;
      }
    }
  }

  /** Realm and global checks that hold for hosting in any form. */
  private checkRealm(): void {
    const foreign: string[] = [];
    for (const ref of this.refs) {
      const id = ref.identifier as ES.Identifier;
      if (ref.resolved || this.inHelper(id)) continue;
      if (OPAQUE_GLOBALS.has(id.name)) throw new Refusal(`it uses ${id.name} at ${this.where(id)}`);
      if (!LANGUAGE_GLOBALS.has(id.name) && !HOSTED_GLOBALS.has(id.name) && !foreign.includes(id.name))
        foreign.push(id.name);
      if (id.name === 'Promise' || id.name === 'queueMicrotask' || id.name === TIMERS_GLOBAL)
        this.asyncCode ??= `${id.name === TIMERS_GLOBAL ? 'timers' : id.name} at ${this.where(id)}`;
    }
    if (foreign.length > 0)
      throw new Refusal(
        `it uses global${foreign.length > 1 ? 's' : ''} a VU sharing a thread does not have: ${foreign.slice(0, 5).join(', ')}`,
      );
    for (const node of this.parents.keys()) {
      if (this.helperNodes.has(node)) continue;
      // Objects k6 modules return come from the host realm: `x instanceof Array` would be false for them.
      if (
        node.type === 'BinaryExpression' &&
        node.operator === 'instanceof' &&
        node.right.type === 'Identifier' &&
        !this.resolved.has(node.right)
      )
        throw new Refusal(`it tests instanceof ${node.right.name} at ${this.where(node)}`);
      if (node.type !== 'MemberExpression') continue;
      const name = staticName(node);
      if (name !== undefined && PROTOTYPE_MEMBERS.has(name))
        throw new Refusal(`it reads .${name} at ${this.where(node)}`);
      // A built-in's prototype changed by the script would not reach the host realm's objects.
      const parent = this.parents.get(node);
      const object = node.object;
      if (
        parent?.type === 'AssignmentExpression' &&
        parent.left === node &&
        object.type === 'MemberExpression' &&
        staticName(object) === 'prototype' &&
        object.object.type === 'Identifier' &&
        !this.resolved.has(object.object)
      )
        throw new Refusal(`it changes ${object.object.name}.prototype at ${this.where(node)}`);
    }
  }

  private inHelper(node: ES.Node): boolean {
    for (let n: ES.Node | undefined = node; n; n = this.parents.get(n))
      if (this.helperNodes.has(n)) return true;
    return false;
  }

  /** Marks blocking calls and the functions making them until nothing changes. */
  private propagate(): void {
    for (let changed = true; changed; ) {
      changed = false;
      for (const call of this.calls) {
        if (call.blocking || !this.blocks(call)) continue;
        call.blocking = true;
        changed = true;
        const fn = call.fn;
        if (fn && !fn.blocking) {
          fn.blocking = true;
          if (fn.binding.kind === 'method') this.blockingMethods.add(fn.binding.name);
        }
      }
    }
  }

  private blocks(call: CallSite): boolean {
    const node = call.node;
    const callee = node.type === 'TaggedTemplateExpression' ? node.tag : node.callee;
    const primitive = this.primitiveOf(callee);
    if (primitive) {
      if (BLOCKING[primitive.module]?.has(primitive.name)) return true;
      if (!this.isGroup(callee) || node.type !== 'CallExpression') return false;
      const fn = node.arguments[1];
      if (!fn) return false;
      return this.fns.get(fn)?.blocking ?? (fn.type === 'Identifier' && this.variableBlocks(fn));
    }
    if (callee.type === 'Identifier') return this.variableBlocks(callee);
    if (callee.type === 'MemberExpression') {
      const name = staticName(callee);
      return name !== undefined && this.blockingMethods.has(name);
    }
    return this.fns.get(callee)?.blocking ?? false;
  }

  /** Whether a call through this identifier can reach a blocking function. */
  private variableBlocks(id: ES.Identifier): boolean {
    const variable = this.resolved.get(id);
    return variable !== undefined && (this.fnsOf.get(variable)?.some((f) => f.blocking) ?? false);
  }

  /**
   * Functions only setup/teardown/handleSummary reach: the greatest set in which every use of each function is one of
   * those exports or lies inside a function of the set; whatever is nested in them is never run by a VU either.
   */
  private markRealmOnly(): void {
    const set = new Set(
      [...this.fns.values()].filter((f) => f.binding.kind === 'variable' || f.binding.kind === 'method'),
    );
    const insideSet = (node: ES.Node) => {
      for (let info = this.enclosingFn(node); info; info = info.outer) if (set.has(info)) return true;
      return false;
    };
    const realmExport = (id: ES.Node) => {
      const getter = this.fns.get(this.parents.get(id) as ES.Node);
      return getter?.binding.kind === 'export-getter' && REALM_ONLY_EXPORTS.has(getter.binding.name);
    };
    const uses = (info: FnInfo): ES.Node[] => {
      const b = info.binding;
      if (b.kind === 'variable')
        return b.variable.references.filter((r) => r.isRead()).map((r) => r.identifier as ES.Node);
      if (b.kind === 'method') return this.membersNamed.get(b.name) ?? [];
      return [];
    };
    for (let changed = true; changed; ) {
      changed = false;
      for (const info of set) {
        if (uses(info).every((use) => realmExport(use) || insideSet(use))) continue;
        set.delete(info);
        changed = true;
      }
    }
    // A function a factory returns (`export const teardown = makeTeardown(...)`): realm-only when every call of the
    // factory initialises a variable that only such exports or realm-only code read.
    const onlyRealmReads = (variable: Variable) =>
      variable.references.every(
        (r) => !r.isRead() || realmExport(r.identifier as ES.Node) || insideSet(r.identifier as ES.Node),
      );
    for (const info of this.fns.values()) {
      if (info.binding.kind !== 'value') continue;
      const parent = this.parents.get(info.node);
      const factory = parent?.type === 'ReturnStatement' ? info.outer : parent && this.fns.get(parent);
      if (!factory || factory !== info.outer || factory.binding.kind !== 'variable') continue;
      const fed = factory.binding.variable.references
        .filter((r) => r.isRead())
        .map((r) => {
          const call = this.isCallee(r.identifier as ES.Node)
            ? this.parents.get(r.identifier as ES.Node)
            : undefined;
          const declarator = call && this.parents.get(call);
          return declarator?.type === 'VariableDeclarator' && declarator.init === call
            ? this.declared(declarator)
            : undefined;
        });
      if (fed.length > 0 && fed.every((v) => v !== undefined && onlyRealmReads(v))) set.add(info);
    }
    const realmOnly = (info: FnInfo | undefined): boolean =>
      info !== undefined && (set.has(info) || realmOnly(info.outer));
    for (const info of this.fns.values()) info.realmOnly = realmOnly(info);
    this.blockingMethods.clear();
    for (const info of this.fns.values())
      if (info.blocking && !info.realmOnly && info.binding.kind === 'method')
        this.blockingMethods.add(info.binding.name);
  }

  private inRealmOnly(node: ES.Node): boolean {
    return this.enclosingFn(node)?.realmOnly ?? false;
  }

  private checkSites(sites: CallSite[]): void {
    for (const call of sites) {
      const node = call.node;
      if (node.type !== 'CallExpression')
        throw new Refusal(
          `a blocking function is called with ${node.type === 'NewExpression' ? 'new' : 'a tagged template'} at ${this.where(node)}`,
        );
      if (call.problem)
        throw new Refusal(`it makes a blocking call in ${call.problem} at ${this.where(node)}`);
      if (!call.fn) throw new Refusal(`its init code makes a blocking call at ${this.where(node)}`);
      if (this.inChain(node) && this.parents.get(node)?.type !== 'ChainExpression')
        throw new Refusal(`it makes a blocking call inside an optional chain at ${this.where(node)}`);
    }
  }

  private inChain(node: ES.Node): boolean {
    for (let n = this.parents.get(node); n; n = this.parents.get(n)) {
      if (n.type === 'ChainExpression') return true;
      if (n.type !== 'MemberExpression' && n.type !== 'CallExpression') return false;
    }
    return false;
  }

  private checkFunctions(needed: FnInfo[]): void {
    for (const info of needed) {
      const b = info.binding;
      if (b.kind === 'value' || b.kind === 'export-getter')
        throw new Refusal(
          `a function that makes blocking calls is passed or kept as a value at ${this.where(info.node)}`,
        );
      if (b.kind === 'unsupported')
        throw new Refusal(`${b.what} makes blocking calls at ${this.where(info.node)}`);
      if (b.kind === 'method' && IMPLICIT_METHODS.has(b.name))
        throw new Refusal(
          `method ${b.name}, which the language calls by itself, makes blocking calls at ${this.where(info.node)}`,
        );
      if (b.kind !== 'variable') continue;
      for (const ref of b.variable.references) {
        const id = ref.identifier as ES.Identifier;
        if (!ref.isRead() || this.inRealmOnly(id) || this.isCallee(id)) continue;
        const parent = this.parents.get(id);
        if (parent?.type === 'CallExpression' && parent.arguments[1] === id && this.isGroup(parent.callee))
          continue;
        const getter = parent && this.fns.get(parent);
        if (getter?.binding.kind === 'export-getter') continue;
        throw new Refusal(
          `${b.variable.name}, which makes blocking calls, is used as a value at ${this.where(id)}`,
        );
      }
    }
  }

  /** A blocking k6 export can only be reached as a direct call, which becomes an await. */
  private checkPrimitiveUses(): void {
    for (const ref of this.refs) {
      const variable = ref.resolved;
      const id = ref.identifier as ES.Identifier;
      if (!variable || ref.init || this.helperNodes.has(id) || this.inRealmOnly(id)) continue;
      const p = this.primitives.get(variable);
      if (p && BLOCKING[p.module]?.has(p.name) && !this.isCallee(id))
        throw new Refusal(`${p.name} is used as a value at ${this.where(id)}`);
      const module = this.namespaces.get(variable);
      const blocking = module === undefined ? undefined : BLOCKING[module];
      if (!blocking) continue;
      const parent = this.parents.get(id);
      const name =
        parent?.type === 'MemberExpression' && parent.object === id ? staticName(parent) : undefined;
      if (name === undefined)
        throw new Refusal(`the ${module} module object is used as a value at ${this.where(id)}`);
      if (blocking.has(name) && parent && !this.isCallee(parent))
        throw new Refusal(`${name} is used as a value at ${this.where(id)}`);
    }
  }

  /**
   * Blocking methods are reached by name: every `x.name(...)` is awaited, so any other way to reach one (read as a
   * value, destructured, called by a computed name, bound, listed by reflection) is refused.
   */
  private checkMethodUses(needed: FnInfo[]): void {
    const names = this.blockingMethods;
    const objectMethods = needed.some((f) => f.binding.kind === 'method' && f.binding.objectLiteral);
    for (const node of this.parents.keys()) {
      if (this.helperNodes.has(node) || this.inRealmOnly(node)) continue;
      if (node.type === 'ObjectPattern')
        for (const p of node.properties)
          if (p.type === 'Property' && names.has(keyName(p) ?? ''))
            throw new Refusal(
              `method ${keyName(p)}, which makes blocking calls, is destructured at ${this.where(node)}`,
            );
      if (node.type === 'ForInStatement' && objectMethods)
        throw new Refusal(`for...in at ${this.where(node)} can list methods that make blocking calls`);
      if (node.type !== 'MemberExpression') continue;
      const name = staticName(node);
      const parent = this.parents.get(node);
      const written = parent?.type === 'AssignmentExpression' && parent.left === node;
      if (name !== undefined && names.has(name) && !this.isCallee(node) && !written)
        throw new Refusal(
          `method ${name}, which makes blocking calls, is read as a value at ${this.where(node)}`,
        );
      if (name === 'call' || name === 'apply' || name === 'bind')
        throw new Refusal(
          `.${name} at ${this.where(node)} can call a method that makes blocking calls without an await`,
        );
      if (name === undefined && (this.isCallee(node) || objectMethods))
        throw new Refusal(
          `a member is accessed by a computed name at ${this.where(node)}, and methods make blocking calls`,
        );
      if (
        name !== undefined &&
        REFLECTION.has(name) &&
        node.object.type === 'Identifier' &&
        node.object.name === 'Object' &&
        !this.resolved.has(node.object) &&
        (objectMethods || name.startsWith('getOwn'))
      )
        throw new Refusal(`Object.${name} at ${this.where(node)} can list methods that make blocking calls`);
    }
  }

  private isCallee(node: ES.Node): boolean {
    const parent = this.parents.get(node);
    return parent?.type === 'CallExpression' && parent.callee === node;
  }

  private edits(needed: FnInfo[], sites: CallSite[]): Insertion[] {
    const edits: Array<Insertion & { order: number }> = [];
    for (const info of needed) edits.push({ at: info.insertAt, text: 'async ', order: 0 });
    // `a?.b()` is awaited as a whole chain; at one offset, outer calls open first and close last (f()() or f(g())).
    const wrapped = sites
      .map((c) => {
        const parent = this.parents.get(c.node);
        return (parent?.type === 'ChainExpression' ? parent : c.node) as ES.Node & Span;
      })
      .sort((a, b) => a.start - b.start || b.end - a.end);
    wrapped.forEach((node, i) => {
      edits.push({ at: node.start, text: '(await ', order: 1 + i });
      edits.push({ at: node.end, text: ')', order: 1 + wrapped.length * 2 - i });
    });
    edits.sort((a, b) => a.at - b.at || a.order - b.order);
    return edits.map(({ at, text }) => ({ at, text }));
  }
}

function isFunction(
  node: ES.Node,
): node is ES.FunctionDeclaration | ES.FunctionExpression | ES.ArrowFunctionExpression {
  return (
    node.type === 'FunctionDeclaration' ||
    node.type === 'FunctionExpression' ||
    node.type === 'ArrowFunctionExpression'
  );
}

function isMember(node: ES.Node): node is ES.Property | ES.MethodDefinition | ES.PropertyDefinition {
  return node.type === 'Property' || node.type === 'MethodDefinition' || node.type === 'PropertyDefinition';
}

/** `var m = globalThis[Symbol.for("bench.k6.require")]("k6/http")`: the module id, else undefined. */
function moduleId(init: ES.Expression | null | undefined): string | undefined {
  if (init?.type !== 'CallExpression' || init.arguments.length !== 1) return undefined;
  const [arg] = init.arguments;
  const callee = init.callee;
  if (arg.type !== 'Literal' || typeof arg.value !== 'string') return undefined;
  if (callee.type !== 'MemberExpression' || !callee.computed) return undefined;
  if (callee.object.type !== 'Identifier' || callee.object.name !== 'globalThis') return undefined;
  const key = callee.property;
  if (key.type !== 'CallExpression' || key.arguments[0]?.type !== 'Literal') return undefined;
  return key.arguments[0].value === 'bench.k6.require' ? arg.value : undefined;
}

function writtenOnce(variable: Variable): boolean {
  return variable.references.filter((r) => r.isWrite()).length <= 1;
}

/** `x.name` or `x['name']`: the property name when the source says it. */
function staticName(node: ES.MemberExpression): string | undefined {
  if (!node.computed && node.property.type === 'Identifier') return node.property.name;
  if (node.property.type === 'Literal' && typeof node.property.value === 'string') return node.property.value;
  return undefined;
}

function keyName(node: ES.Property | ES.MethodDefinition | ES.PropertyDefinition): string | undefined {
  const key = node.key;
  if (!node.computed && key.type === 'Identifier') return key.name;
  if (key.type === 'Literal' && (typeof key.value === 'string' || typeof key.value === 'number'))
    return String(key.value);
  return undefined;
}

function children(node: ES.Node): ES.Node[] {
  const out: ES.Node[] = [];
  for (const [key, value] of Object.entries(node)) {
    if (key === 'type' || key === 'loc' || key === 'range') continue;
    if (Array.isArray(value)) {
      for (const v of value) if (v && typeof v === 'object' && typeof v.type === 'string') out.push(v);
    } else if (value && typeof value === 'object' && typeof (value as ES.Node).type === 'string')
      out.push(value as ES.Node);
  }
  return out;
}
