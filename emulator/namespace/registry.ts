// All namespaces of one emulator: created by their first successful write, 404 for unknown names, deleted with
// their log.
// With a data directory each namespace's log lives in <dir>/namespaces/ns-<name>/ and is replayed on startup; the
// logs are all checked before any is replayed, so damage anywhere refuses to start with one list of what is wrong.
import type { Dirent } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { notFound } from '../api-error';
import type { EmulatorConfig } from '../config';
import { Indexer } from '../index/indexer';
import { DELETED_PREFIX, FileWal, WalCorruptError, WalStorageError } from '../wal/file-wal';
import { MemoryWal } from '../wal/memory-wal';
import type { WriteAheadLog } from '../wal/wal';
import { checkNamespaceName, isNamespaceName } from './name';
import { Namespace, refusedByStorage, type VectorColumnFactory } from './namespace';

const NS_PREFIX = 'ns-';

/** Startup refused: the data directory holds damage that is not a torn tail. The message lists every problem. */
export class DataDirError extends Error {
  override name = 'DataDirError';
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
      burstBytes: this.config.indexBurstBytes,
      onError: (error) =>
        this.log(`indexer of ${name} failed a batch (retrying): ${(error as Error).stack ?? error}`),
    });
    ns.onWrite = () => indexer.kick();
    ns.unpacedTo = () => indexer.unpacedTo;
    this.namespaces.set(name, ns);
    this.indexers.set(ns, indexer);
    return ns;
  }

  /**
   * Replays every namespace found in the data directory. A torn last record is cut and reported; any other damage
   * throws DataDirError before anything is replayed, unless `truncateDamagedLog` asks to cut the logs there.
   */
  async recover(): Promise<void> {
    const root = this.root;
    if (!root) return;
    let entries: Dirent[];
    try {
      entries = await readdir(root, { withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return; // a fresh data directory
      throw error;
    }
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const problems: { text: string; salvageable: boolean }[] = [];
    const opened: { name: string; wal: FileWal }[] = [];
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = join(root, entry.name);
      if (entry.name.startsWith(DELETED_PREFIX)) {
        await rm(path, { recursive: true, force: true }); // a deletion a crash interrupted
        continue;
      }
      const name = entry.name.startsWith(NS_PREFIX) ? entry.name.slice(NS_PREFIX.length) : '';
      if (!entry.isDirectory() || !isNamespaceName(name)) {
        problems.push({
          text: `${path}: not a namespace log (only ns-<name>/ directories belong here); move it out of the data directory`,
          salvageable: false,
        });
        continue;
      }
      try {
        const salvageTo = this.config.truncateDamagedLog
          ? join(this.config.dataDir as string, 'salvaged', `${stamp}-${entry.name}`)
          : undefined;
        opened.push({ name, wal: await FileWal.open(path, { salvageTo }) });
      } catch (error) {
        if (!(error instanceof WalCorruptError)) throw error;
        problems.push({
          text: `namespace ${JSON.stringify(name)}: ${error.message}`,
          salvageable: error.damage.salvageable,
        });
      }
    }
    if (problems.length > 0) {
      await Promise.all(opened.map(({ wal }) => wal.close()));
      throw new DataDirError(refusal(problems, this.config.dataDir as string));
    }
    for (let i = 0; i < opened.length; i++) {
      try {
        await this.replayNamespace(opened[i].name, opened[i].wal);
      } catch (error) {
        // Nothing listens yet: close what was replayed and the logs not reached, then refuse to start.
        await this.close();
        await Promise.all(opened.slice(i + 1).map(({ wal }) => wal.close()));
        throw error;
      }
    }
  }

  private async replayNamespace(name: string, wal: FileWal): Promise<void> {
    const { torn, salvaged, notes } = wal.recovery;
    if (torn)
      this.log(
        `namespace ${name}: cut a torn last record (${torn.bytes} bytes at byte ${torn.offset} of ${torn.file}): ` +
          'an append a crash interrupted, never acknowledged; 1 incomplete record dropped',
      );
    if (salvaged)
      this.log(
        `namespace ${name}: --truncate-damaged-log cut ${salvaged.cutBytes} bytes from ${salvaged.damage.file} on ` +
          `(record ${salvaged.damage.seq} onwards, at least ${salvaged.intactRecordsCut} of them intact; ` +
          `${salvaged.damage.reason}); copies of the files before the cut are in ${salvaged.copiedTo}`,
      );
    for (const note of notes) this.log(`namespace ${name}: ${note}`);
    const ns = this.adopt(name, wal);
    let records = 0;
    for await (const { seq, record, at } of wal.replay()) {
      try {
        await ns.replay(seq, record);
      } catch (error) {
        // An acknowledged write that this emulator no longer accepts: skipping it would lose it quietly. recover()
        // closes this namespace with the others.
        const where = at ? ` (${at.file}, frame at byte ${at.offset})` : '';
        throw new DataDirError(
          `the data directory ${this.config.dataDir} holds an acknowledged write that no longer applies, so ` +
            'starting would lose it. Nothing was changed:\n' +
            `  - namespace ${JSON.stringify(name)}: log record ${seq}${where}: ${(error as Error).message}\n` +
            'The record was accepted when it was written; this emulator refuses it now. Start the emulator version ' +
            `that wrote it, or move ${wal.dir} out of the data directory to start without the namespace.`,
        );
      }
      records++;
    }
    const indexedTo = ns.endPosOfSeq(wal.indexedSeq);
    const indexer = this.indexers.get(ns) as Indexer;
    if (indexedTo !== null) indexer.fastForward(indexedTo);
    indexer.kick();
    // A restarted query node has nothing cached: the first query loads the namespace from object storage.
    ns.cache.purge();
    if (records === 0) {
      // A namespace whose first write never completed.
      this.namespaces.delete(name);
      this.indexers.delete(ns);
      await ns.close(true);
    } else
      this.log(
        `recovered namespace ${name}: ${plural(records, 'log record')}, ${plural(ns.liveDocuments, 'document')}`,
      );
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

  /**
   * Runs a write on the namespace, creating it first when it does not exist. As on the service, only a successful
   * write creates a namespace: one created here is dropped again when no write to it got into its log.
   */
  async writeTo<T>(name: string, work: (ns: Namespace) => Promise<T>): Promise<T> {
    const ns = await this.getOrCreate(name);
    ns.writesInFlight++;
    try {
      return await work(ns);
    } finally {
      ns.writesInFlight--;
      if (ns.writesInFlight === 0 && ns.wal.lastSeq === 0 && this.namespaces.get(name) === ns)
        // Removing the empty log can fail where the write did (a read-only data directory): the write's own
        // answer stands, and the empty directory left behind is a namespace that never existed on restart.
        await this.drop(name, ns).catch((error) =>
          this.log(`could not remove the empty log of namespace ${name}: ${(error as Error).message}`),
        );
    }
  }

  /** The namespace, created (with its log) when it does not exist yet; writes go through writeTo. */
  private async getOrCreate(name: string): Promise<Namespace> {
    checkNamespaceName(name);
    const existing = this.namespaces.get(name) ?? (await this.creating.get(name));
    if (existing && !existing.deleted) return existing;
    const pending = (async () => {
      await this.deleting.get(name);
      const wal = this.root
        ? await FileWal.open(join(this.root, `${NS_PREFIX}${name}`)).catch((error) =>
            refusedByStorage(asStorageError(this.root as string, error)),
          )
        : new MemoryWal();
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
    await this.drop(name, this.require(name));
  }

  /** Removes a namespace and its log; a new one of the same name waits until the old log is gone. */
  private async drop(name: string, ns: Namespace): Promise<void> {
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

/** A file-system error (errno code) opening a new namespace's log: the data directory refused it. */
function asStorageError(dir: string, error: unknown): unknown {
  const e = error as NodeJS.ErrnoException;
  return typeof e?.code === 'string' && !(error instanceof WalCorruptError)
    ? new WalStorageError(dir, e, false)
    : error;
}

function refusal(problems: { text: string; salvageable: boolean }[], dataDir: string): string {
  const lines = [
    `the data directory ${dataDir} holds damage that is not a torn tail from a crash, so acknowledged writes ` +
      'are at stake. Nothing was changed:',
    ...problems.map((p) => `  - ${p.text}`),
  ];
  if (problems.some((p) => p.salvageable))
    lines.push(
      'To salvage a damaged log, restore it from a backup, or start once with --truncate-damaged-log: each damaged ' +
        'log is cut at its first damage, keeping the records before it, after copies of the files it changes are ' +
        `saved under ${join(dataDir, 'salvaged')}/ (the records from the damage on are then gone from the namespace).`,
    );
  return lines.join('\n');
}

/** "1 log record", "2 log records". */
function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
