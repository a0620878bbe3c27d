// The k6/html module (parseHTML, Selection, Element) and res.html(), over cheerio: a jQuery-like API as k6's, which
// wraps goquery. Selection methods are k6's (docs: javascript-api/k6-html/selection); Element exposes k6's DOM-like
// members as methods (el.nodeName(), el.textContent()), as k6 maps its Go methods.

import type * as CheerioModule from 'cheerio';
import type { AnyNode, Element as DomElement } from 'domhandler';
import { requireCjs } from '../require-cjs';

type Cheerio = CheerioModule.Cheerio<AnyNode>;
type CheerioAPI = CheerioModule.CheerioAPI;

// Loaded on the first parse: most scripts never parse HTML, and every VU would pay for loading it.
let cheerio: typeof CheerioModule | undefined;
function loadCheerio(): typeof CheerioModule {
  cheerio ??= requireCjs('cheerio') as typeof CheerioModule;
  return cheerio;
}

type Callback = (index: number, element: unknown) => unknown;

function isElement(node: AnyNode | undefined): node is DomElement {
  return node !== undefined && (node.type === 'tag' || node.type === 'script' || node.type === 'style');
}

/** An `until` argument: a selector or a Selection of elements. */
function untilOf(until: unknown): string | CheerioModule.Cheerio<DomElement> | undefined {
  if (until instanceof Selection) return until.sel as CheerioModule.Cheerio<DomElement>;
  return until === undefined || until === null ? undefined : String(until);
}

export class Selection {
  constructor(
    private readonly $: CheerioAPI,
    readonly sel: Cheerio,
    readonly url: string,
    private readonly previous?: Selection,
  ) {}

  private wrap(sel: Cheerio): Selection {
    return new Selection(this.$, sel, this.url, this);
  }

  /** A selector string, a Selection, or a matcher function (index, element) => boolean, as k6 accepts them. */
  private matcher(arg: unknown): string | Cheerio | ((i: number, el: AnyNode) => boolean) {
    if (typeof arg === 'string') return arg;
    if (arg instanceof Selection) return arg.sel;
    if (typeof arg === 'function') {
      const fn = arg as Callback;
      // k6 hands filter/is/not callbacks a Selection of each element.
      return (i, el) => Boolean(fn(i, this.wrap(this.$(el))));
    }
    throw new Error('the argument must be a selector, a selection or a function');
  }

  add(arg: unknown): Selection {
    return this.wrap(this.sel.add(arg instanceof Selection ? arg.sel : String(arg)));
  }
  find(selector: unknown): Selection {
    return this.wrap(
      this.sel.find(
        selector instanceof Selection
          ? (selector.sel as CheerioModule.Cheerio<DomElement>)
          : String(selector),
      ),
    );
  }
  /** The first element the selector matches (k6's single()). */
  single(selector: unknown): Selection {
    return this.wrap(this.sel.find(String(selector)).first());
  }
  closest(selector: unknown): Selection {
    return this.wrap(this.sel.closest(String(selector)));
  }
  has(selector: unknown): Selection {
    return this.wrap(this.sel.has(String(selector)));
  }
  not(arg: unknown): Selection {
    return this.wrap(this.sel.not(this.matcher(arg) as string));
  }
  next(selector?: string): Selection {
    return this.wrap(this.sel.next(selector));
  }
  nextAll(selector?: string): Selection {
    return this.wrap(this.sel.nextAll(selector));
  }
  prev(selector?: string): Selection {
    return this.wrap(this.sel.prev(selector));
  }
  prevAll(selector?: string): Selection {
    return this.wrap(this.sel.prevAll(selector));
  }
  parent(selector?: string): Selection {
    return this.wrap(this.sel.parent(selector));
  }
  parents(selector?: string): Selection {
    return this.wrap(this.sel.parents(selector));
  }
  siblings(selector?: string): Selection {
    return this.wrap(this.sel.siblings(selector));
  }
  nextUntil(until?: unknown, filter?: string): Selection {
    return this.wrap(this.sel.nextUntil(untilOf(until), filter));
  }
  prevUntil(until?: unknown, filter?: string): Selection {
    return this.wrap(this.sel.prevUntil(untilOf(until), filter));
  }
  parentsUntil(until?: unknown, filter?: string): Selection {
    return this.wrap(this.sel.parentsUntil(untilOf(until), filter));
  }
  size(): number {
    return this.sel.length;
  }
  end(): Selection {
    return this.previous ?? this;
  }
  eq(index: number): Selection {
    return this.wrap(this.sel.eq(index));
  }
  first(): Selection {
    return this.wrap(this.sel.first());
  }
  last(): Selection {
    return this.wrap(this.sel.last());
  }
  contents(): Selection {
    return this.wrap(this.sel.contents());
  }
  children(selector?: string): Selection {
    return this.wrap(this.sel.children(selector));
  }
  text(): string {
    return this.sel.text();
  }
  attr(name: string, fallback?: unknown): unknown {
    const value = this.sel.attr(name);
    return value === undefined ? fallback : value;
  }
  html(): string | undefined {
    return this.sel.length === 0 ? undefined : (this.sel.html() ?? '');
  }
  /** k6's val(): by element kind (input, button, textarea, option, select), as jQuery's. */
  val(): unknown {
    const node = this.sel[0];
    if (!isElement(node)) return undefined;
    const first = this.sel.first();
    switch (node.name) {
      case 'input': {
        const value = first.attr('value');
        if (value !== undefined) return value;
        const type = first.attr('type');
        return type === 'radio' || type === 'checkbox' ? 'on' : '';
      }
      case 'button':
        return first.attr('value') ?? '';
      case 'textarea':
        return first.html() ?? '';
      case 'option':
        return first.attr('value') ?? first.html() ?? '';
      case 'select': {
        const selected = first.find('option[selected]');
        const optionValue = (el: AnyNode) => this.$(el).attr('value') ?? this.$(el).html() ?? '';
        if (first.attr('multiple') !== undefined) return selected.toArray().map(optionValue);
        return selected.length === 0 ? '' : optionValue(selected[0]);
      }
      default:
        return undefined;
    }
  }
  each(fn: unknown): Selection {
    if (typeof fn !== 'function') throw new Error('the argument to each() must be a function');
    this.sel.each((i, el) => {
      (fn as Callback)(i, new Element(this.$, el, this.url));
    });
    return this;
  }
  filter(arg: unknown): Selection {
    if (typeof arg !== 'string' && !(arg instanceof Selection) && typeof arg !== 'function')
      throw new Error('the argument to filter() must be a function, a selector or a selection');
    return this.wrap(this.sel.filter(this.matcher(arg) as string));
  }
  is(arg: unknown): boolean {
    if (typeof arg !== 'string' && !(arg instanceof Selection) && typeof arg !== 'function')
      throw new Error('the argument to is() must be a function, a selector or a selection');
    return this.sel.is(this.matcher(arg) as string);
  }
  /** k6 hands map's callback a Selection of each element (each() gets an Element). */
  map(fn: unknown): unknown[] {
    if (typeof fn !== 'function') throw new Error('the argument to map() must be a function');
    return this.sel.toArray().map((el, i) => (fn as Callback)(i, this.wrap(this.$(el))));
  }
  slice(start: number, end?: number): Selection {
    return this.wrap(this.sel.slice(start, end));
  }
  get(index?: number): unknown {
    if (index === undefined) return this.sel.toArray().map((el) => new Element(this.$, el, this.url));
    const n = this.sel.length;
    if (index >= n || index <= -n) return undefined;
    return new Element(this.$, this.sel.get(index < 0 ? n + index : index) as AnyNode, this.url);
  }
  toArray(): Selection[] {
    return this.sel.toArray().map((el) => this.wrap(this.$(el)));
  }
  index(arg?: unknown): number {
    if (arg === undefined) return this.sel.index();
    if (arg instanceof Selection) return this.sel.index(arg.sel);
    if (arg instanceof Element) return this.sel.toArray().indexOf(arg.node);
    if (typeof arg === 'string') return this.sel.index(arg);
    return -1;
  }
  /** jQuery's data(): data-* attributes of the first element, camel-cased, JSON and numbers converted. */
  data(key?: string): unknown {
    const node = this.sel[0];
    if (!isElement(node) || Object.keys(node.attribs).length === 0) return undefined;
    const convert = (v: string): unknown => {
      if (v === 'true') return true;
      if (v === 'false') return false;
      if (v === 'null') return null;
      if (/^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(v)) return Number(v);
      if (/^[[{]/.test(v)) {
        try {
          return JSON.parse(v);
        } catch {
          return v;
        }
      }
      return v;
    };
    const toAttr = (p: string) => p.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
    const toProp = (a: string) => a.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
    if (key !== undefined) {
      const v = node.attribs[`data-${toAttr(key)}`];
      return v === undefined ? undefined : convert(v);
    }
    const out: Record<string, unknown> = {};
    for (const [name, v] of Object.entries(node.attribs))
      if (name.startsWith('data-') && name.length > 5) out[toProp(name.slice(5))] = convert(v);
    return out;
  }
  /** The form's successful controls as [{name, value}], as jQuery's serializeArray. */
  serializeArray(): Array<{ name: string; value: string }> {
    return this.sel.serializeArray();
  }
  serializeObject(): Record<string, string | string[]> {
    const out: Record<string, string | string[]> = {};
    for (const { name, value } of this.serializeArray()) {
      const had = out[name];
      out[name] = had === undefined ? value : Array.isArray(had) ? [...had, value] : [had, value];
    }
    return out;
  }
  serialize(): string {
    return this.sel.serialize();
  }
}

const NODE_TYPES: Record<string, number> = {
  tag: 1,
  script: 1,
  style: 1,
  text: 3,
  cdata: 4,
  directive: 10,
  comment: 8,
  root: 9,
};

/** One node, with k6's Element members as methods. */
export class Element {
  constructor(
    private readonly $: CheerioAPI,
    readonly node: AnyNode,
    private readonly url: string,
  ) {}

  /** An attribute's URL resolved against the document's URL (res.html()), or as written when there is none. */
  resolveUrl(value: string): string {
    if (!this.url) return value;
    try {
      return new URL(value, this.url).href;
    } catch {
      return value;
    }
  }

  private element(node: AnyNode | null | undefined): Element | undefined {
    return node ? new Element(this.$, node, this.url) : undefined;
  }
  private attribs(): Record<string, string> {
    return isElement(this.node) ? this.node.attribs : {};
  }

  selection(): Selection {
    return new Selection(this.$, this.$(this.node), this.url);
  }
  getAttribute(name: string): string | undefined {
    return this.attribs()[name];
  }
  getAttributeNode(name: string): { name: string; value: string } | undefined {
    const value = this.attribs()[name];
    return value === undefined ? undefined : { name, value };
  }
  hasAttribute(name: string): boolean {
    return name in this.attribs();
  }
  hasAttributes(): boolean {
    return Object.keys(this.attribs()).length > 0;
  }
  attributes(): Record<string, { name: string; value: string }> {
    return Object.fromEntries(Object.entries(this.attribs()).map(([name, value]) => [name, { name, value }]));
  }
  toString(): string {
    if (isElement(this.node))
      return `[object html.HTML${this.node.name.replace(/^./, (c) => c.toUpperCase())}Element]`;
    return this.node.type === 'text' ? '[object #text]' : `[object ${this.nodeName()}]`;
  }
  hasChildNodes(): boolean {
    return 'children' in this.node && this.node.children.length > 0;
  }
  textContent(): string {
    return this.$(this.node).text();
  }
  id(): string {
    return this.attribs().id ?? '';
  }
  isEqualNode(other: unknown): boolean {
    return other instanceof Element && this.$.html(other.node) === this.$.html(this.node);
  }
  isSameNode(other: unknown): boolean {
    return other instanceof Element && other.node === this.node;
  }
  getElementsByClassName(name: string): Element[] {
    return this.$(this.node)
      .find(`.${name}`)
      .toArray()
      .map((el) => new Element(this.$, el, this.url));
  }
  getElementsByTagName(name: string): Element[] {
    return this.querySelectorAll(name);
  }
  querySelector(selector: string): Element | undefined {
    return this.element(this.$(this.node).find(selector).get(0));
  }
  querySelectorAll(selector: string): Element[] {
    return this.$(this.node)
      .find(selector)
      .toArray()
      .map((el) => new Element(this.$, el, this.url));
  }
  nodeName(): string {
    const n = this.node;
    if (isElement(n)) return n.name.toLowerCase();
    if (n.type === 'text') return '#text';
    if (n.type === 'comment') return '#comment';
    if (n.type === 'root') return '#document';
    return n.type;
  }
  nodeType(): number | undefined {
    return NODE_TYPES[this.node.type];
  }
  nodeValue(): string | undefined {
    const n = this.node;
    return n.type === 'text' || n.type === 'comment' ? (n as unknown as { data: string }).data : undefined;
  }
  firstChild(): Element | undefined {
    return this.element('children' in this.node ? this.node.children[0] : undefined);
  }
  lastChild(): Element | undefined {
    return this.element('children' in this.node ? this.node.children.at(-1) : undefined);
  }
  firstElementChild(): Element | undefined {
    return this.children()[0];
  }
  lastElementChild(): Element | undefined {
    return this.children().at(-1);
  }
  previousSibling(): Element | undefined {
    return this.element(this.node.prev);
  }
  nextSibling(): Element | undefined {
    return this.element(this.node.next);
  }
  previousElementSibling(): Element | undefined {
    return this.element(this.$(this.node).prev().get(0));
  }
  nextElementSibling(): Element | undefined {
    return this.element(this.$(this.node).next().get(0));
  }
  parentNode(): Element | undefined {
    return this.element(this.node.parent);
  }
  parentElement(): Element | undefined {
    return isElement(this.node.parent ?? undefined) ? this.element(this.node.parent) : undefined;
  }
  childNodes(): Element[] {
    return ('children' in this.node ? this.node.children : []).map((c) => new Element(this.$, c, this.url));
  }
  children(): Element[] {
    return ('children' in this.node ? this.node.children : [])
      .filter((c) => isElement(c))
      .map((c) => new Element(this.$, c, this.url));
  }
  childElementCount(): number {
    return this.children().length;
  }
  classList(): string[] {
    return (this.attribs().class ?? '').split(/\s+/).filter(Boolean);
  }
  className(): string | undefined {
    return this.attribs().class;
  }
  lang(): string | undefined {
    const own = this.attribs().lang;
    if (own !== undefined) return own;
    return this.$(this.node).closest('[lang]').attr('lang');
  }
  ownerDocument(): Element | undefined {
    let n: AnyNode = this.node;
    while (n.parent) n = n.parent;
    return n.type === 'root' ? this.element(n) : undefined;
  }
  namespaceURI(): string {
    return isElement(this.node) ? (this.node.namespace ?? 'http://www.w3.org/1999/xhtml') : '';
  }
  isDefaultNamespace(): boolean {
    return this.namespaceURI() === 'http://www.w3.org/1999/xhtml';
  }
  innerHTML(): string | undefined {
    return this.$(this.node).html() ?? undefined;
  }
  contains(other: unknown): boolean {
    if (!(other instanceof Element)) return false;
    for (let n: AnyNode | null = other.node; n; n = n.parent) if (n === this.node) return true;
    return false;
  }
  matches(selector: string): boolean {
    return this.$(this.node).is(selector);
  }
}

/** k6's element-specific members (js/modules/k6/html elements): method -> [attribute, kind]. */
const ATTRIBUTE_MEMBERS: Record<string, [string, 'string' | 'url' | 'bool' | 'int']> = {};
for (const name of 'abbr accept alt autocapitalize autocomplete challenge charset content data datetime download encoding enctype headers height kind label max media min name pattern placeholder preload rel scope sizes srclang srcset step target type width wrap value'.split(
  ' ',
))
  ATTRIBUTE_MEMBERS[name] = [name, 'string'];
for (const [method, attr] of Object.entries({
  acceptCharset: 'accept-charset',
  accessKey: 'accesskey',
  crossOrigin: 'crossorigin',
  dirName: 'dirname',
  hrefLang: 'hreflang',
  hreflang: 'hreflang',
  htmlFor: 'for',
  httpEquiv: 'http-equiv',
  keySystem: 'keysystem',
  keytype: 'keytype',
  mediaGroup: 'mediagroup',
  referrerPolicy: 'referrerpolicy',
  useMap: 'usemap',
  defaultValue: 'value',
}))
  ATTRIBUTE_MEMBERS[method] = [attr, 'string'];
for (const name of ['href', 'src', 'action', 'cite', 'currentSrc'])
  ATTRIBUTE_MEMBERS[name] = [name === 'currentSrc' ? 'src' : name, 'url'];
for (const [method, attr] of Object.entries({
  allowfullscreen: 'allowfullscreen',
  async: 'async',
  autofocus: 'autofocus',
  autoplay: 'autoplay',
  checked: 'checked',
  controls: 'controls',
  default: 'default',
  defaultChecked: 'checked',
  defaultMuted: 'muted',
  defaultSelected: 'selected',
  defer: 'defer',
  disabled: 'disabled',
  isMap: 'ismap',
  loop: 'loop',
  multiple: 'multiple',
  muted: 'muted',
  noModule: 'nomodule',
  noValidate: 'novalidate',
  readOnly: 'readonly',
  readonly: 'readonly',
  required: 'required',
  reversed: 'reversed',
  selected: 'selected',
  sortable: 'sortable',
  sorted: 'sorted',
  typeMustMatch: 'typemustmatch',
}))
  ATTRIBUTE_MEMBERS[method] = [attr, 'bool'];
for (const [method, attr] of Object.entries({
  colSpan: 'colspan',
  cols: 'cols',
  high: 'high',
  low: 'low',
  maxLength: 'maxlength',
  optimum: 'optimum',
  rowSpan: 'rowspan',
  rows: 'rows',
  size: 'size',
  start: 'start',
  tabIndex: 'tabindex',
}))
  ATTRIBUTE_MEMBERS[method] = [attr, 'int'];

const DEFAULT_PORTS: Record<string, string> = { 'http:': '80', 'https:': '443', 'ftp:': '21' };

/** The URL parts k6's anchor and area elements expose, from their href resolved against the document's URL. */
const HREF_MEMBERS: Record<string, (u: URL | undefined, el: Element) => unknown> = {
  host: (u) => (!u ? '' : u.port === '' || DEFAULT_PORTS[u.protocol] === u.port ? u.hostname : u.host),
  hostname: (u) => u?.hostname ?? '',
  port: (u) => u?.port ?? '',
  username: (u) => (u ? decodeURIComponent(u.username) : ''),
  password: (u) => (u ? decodeURIComponent(u.password) : ''),
  origin: (u) => (u ? u.origin : ''),
  pathname: (u) => u?.pathname ?? '',
  protocol: (u) => (u ? u.protocol.replace(/:$/, '') : ':'),
  search: (u) => u?.search ?? '',
  hash: (u) => u?.hash ?? '',
  relList: (_u, el) => (el.getAttribute('rel') ?? '').split(/\s+/).filter(Boolean),
  text: (_u, el) => el.textContent(),
};

for (const [method, [attr, kind]] of Object.entries(ATTRIBUTE_MEMBERS)) {
  if (method in Element.prototype) continue;
  Object.defineProperty(Element.prototype, method, {
    value(this: Element): unknown {
      const raw = this.getAttribute(attr);
      if (kind === 'bool') return raw !== undefined;
      if (kind === 'int')
        return raw === undefined || Number.isNaN(Number.parseInt(raw, 10)) ? 0 : Number.parseInt(raw, 10);
      if (kind === 'url') return raw === undefined ? '' : this.resolveUrl(raw);
      return raw ?? '';
    },
  });
}
for (const [method, read] of Object.entries(HREF_MEMBERS)) {
  if (method in Element.prototype) continue;
  Object.defineProperty(Element.prototype, method, {
    value(this: Element): unknown {
      const href = this.getAttribute('href');
      let url: URL | undefined;
      try {
        url = href === undefined ? undefined : new URL(this.resolveUrl(href));
      } catch {
        url = undefined;
      }
      return read(url, this);
    },
  });
}

/** k6's parseHTML(src): the document as a Selection; `url` resolves relative links (res.html()). */
export function parseHTML(src: unknown, url = ''): Selection {
  const $ = loadCheerio().load(String(src ?? ''));
  return new Selection($, $.root(), url);
}

export function createHtmlModule(): Record<string, unknown> {
  const members = { parseHTML: (src: unknown) => parseHTML(src) };
  return { ...members, default: members };
}
