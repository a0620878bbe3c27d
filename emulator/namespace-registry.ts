// All namespaces of one emulator: created by their first write, 404 for unknown names, deleted with their log.
// With a data directory each namespace's log lives in <dir>/namespaces/ns-<name>/ and is replayed on startup.
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { badRequest, notFound } from './api-error';
import type { EmulatorConfig } from './config';
import { Indexer } from './indexer';
import { Namespace, type VectorColumnFactory } from './namespace';
import { FileWal } from './wal/file-wal';
import { MemoryWal } from './wal/memory-wal';
import type { WriteAheadLog } from './wal/wal';

const NAME = /^[A-Za-z0-9_.-]{1,128}$/;

export function checkNamespaceName(name: string): void {
  if (!NAME.test(name))
    throw badRequest(
      `namespace name ${JSON.stringify(name)}: use 1 to 128 characters from A-Z, a-z, 0-9, '-', '_' and '.'`,
    );
}

export type Log = (line: string) => void;

export class NamespaceRegistry {
  private readonly namespaces = new Map<string, Namespace>();
  private readonly indexers = new Map<Namespace, Indexer>();
  /** Namespaces being created (their log is opening): later writers wait for the same one. */
  private readonly creating = new Map<string, Promise<Namespace>>();
  /** Namespaces being deleted: a new one of the same name waits until the old log is gone. */
  private readonly deleting = new Map<string, Promise<void>>();

  constructor(
    readonly config: EmulatorConfig,
    private readonly createColumn: VectorColumnFactory,
    private readonly log: Log = () => {},
  ) {}

  private get root(): string | null {
    return this.config.dataDir ? join(this.config.dataDir, 'namespaces') : null;
  }

  private adopt(name: string, wal: WriteAheadLog): Namespace {
    const ns = new Namespace(name, wal, this.createColumn, this.config);
    const indexer = new Indexer(ns, {
      bytesPerSecond: this.config.indexBytesPerSecond,
      onError: (error) =>
        this.log(`indexer of ${name} failed a batch (retrying): ${(error as Error).stack ?? error}`),
    });
    ns.onWrite = () => indexer.kick();
    this.namespaces.set(name, ns);
    this.indexers.set(ns, indexer);
    return ns;
  }

  /** Replays every namespace found in the data directory. */
  async recover(): Promise<void> {
    const root = this.root;
    if (!root) return;
    let entries: string[];
    try {
      entries = await readdir(root);
    } catch {
      return; // a fresh data directory
    }
    for (const entry of entries) {
      if (entry.includes('.deleted-')) {
        await rm(join(root, entry), { recursive: true, force: true });
        continue;
      }
      if (!entry.startsWith('ns-')) continue;
      const name = entry.slice(3);
      const wal = await FileWal.open(join(root, entry));
      const ns = this.adopt(name, wal);
      let records = 0;
      for await (const { seq, record } of wal.replay()) {
        try {
          await ns.replay(seq, record);
        } catch (error) {
          this.log(
            `namespace ${name}: skipped log record ${seq} that no longer applies: ${(error as Error).message}`,
          );
        }
        records++;
      }
      const indexedTo = ns.endPosOfSeq(wal.indexedSeq);
      const indexer = this.indexers.get(ns) as Indexer;
      if (indexedTo !== null) indexer.fastForward(indexedTo);
      indexer.kick();
      if (records === 0) {
        // A namespace whose first write never completed.
        this.namespaces.delete(name);
        this.indexers.delete(ns);
        await ns.close(true);
      } else this.log(`recovered namespace ${name}: ${records} log records, ${ns.liveDocuments} documents`);
    }
  }

  get(name: string): Namespace | undefined {
    return this.namespaces.get(name);
  }

  /** The namespace, or 404. */
  require(name: string): Namespace {
    checkNamespaceName(name);
    const ns = this.namespaces.get(name);
    if (!ns) throw notFound(name);
    return ns;
  }

  /** The namespace, created (with its log) when it does not exist yet. */
  async getOrCreate(name: string): Promise<Namespace> {
    checkNamespaceName(name);
    const existing = this.namespaces.get(name) ?? (await this.creating.get(name));
    if (existing && !existing.deleted) return existing;
    const pending = (async () => {
      await this.deleting.get(name);
      const wal = this.root ? await FileWal.open(join(this.root, `ns-${name}`)) : new MemoryWal();
      return this.adopt(name, wal);
    })();
    this.creating.set(name, pending);
    try {
      return await pending;
    } finally {
      this.creating.delete(name);
    }
  }

  /** Names in order, after `cursor`, starting with `prefix`. */
  list(prefix: string, cursor: string | null, pageSize: number): { names: string[]; more: boolean } {
    const names = [...this.namespaces.keys()]
      .filter((n) => n.startsWith(prefix) && (cursor === null || n > cursor))
      .sort();
    return { names: names.slice(0, pageSize), more: names.length > pageSize };
  }

  async delete(name: string): Promise<void> {
    const ns = this.require(name);
    this.namespaces.delete(name);
    const indexer = this.indexers.get(ns);
    this.indexers.delete(ns);
    const done = (async () => {
      await indexer?.stop();
      await ns.close(true);
    })();
    this.deleting.set(name, done);
    try {
      await done;
    } finally {
      if (this.deleting.get(name) === done) this.deleting.delete(name);
    }
  }

  /** Waits until every namespace's backlog is indexed (tests and benchmarks). */
  async idle(): Promise<void> {
    await Promise.all([...this.indexers.values()].map((i) => i.idle()));
  }

  indexerOf(ns: Namespace): Indexer | undefined {
    return this.indexers.get(ns);
  }

  async close(): Promise<void> {
    await Promise.all([...this.indexers.values()].map((i) => i.stop()));
    await Promise.all([...this.namespaces.values()].map((ns) => ns.close(false)));
    this.namespaces.clear();
    this.indexers.clear();
  }
}
