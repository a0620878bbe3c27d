// Entry of every JS realm the runner creates (VUs, and the transient realms for init #0, setup, teardown and
// handleSummary): one worker thread = one isolated module instance with its own globals.
import { parentPort, workerData } from 'node:worker_threads';
import './modules/external';
import { SetupInterrupted, TestAbort } from './vu/interruption';
import { createRealm, type Realm } from './vu/realm';
import { post, VuRuntime } from './vu/runtime';
import { scriptStack } from './vu/script-stack';
import { reportUncaught, serveVu } from './vu/serve-vu';
import type { RealmData } from './vu/wire';

process.setSourceMapsEnabled(true);
const data = workerData as RealmData;
const rt = new VuRuntime(data);

reportUncaught(post);

function exportsOf(module: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(Object.keys(module).map((k) => [k, typeof module[k]]));
}

async function callOnce(realm: Realm, name: string, argument: unknown): Promise<unknown> {
  const fn = realm.module[name];
  if (typeof fn !== 'function') return undefined;
  rt.iterationStarted();
  try {
    return await fn(argument);
  } finally {
    rt.iterationEnded();
    const [sent, received] = rt.takeData();
    if (data.mode !== 'summary') {
      const time = performance.timeOrigin + performance.now();
      const tags = rt.tags();
      rt.emit([
        { metric: 'data_sent', time, value: sent, tags },
        { metric: 'data_received', time, value: received, tags },
      ]);
    }
    rt.encoder.flush();
  }
}

async function main(): Promise<void> {
  let realm: Realm;
  try {
    realm = await createRealm(rt);
  } catch (error) {
    rt.encoder.flush();
    post({ type: 'initError', message: scriptStack(error) });
    return;
  }
  if (data.mode === 'init0') {
    rt.encoder.flush();
    post({
      type: 'init0',
      options: JSON.parse(JSON.stringify(realm.module.options ?? {})),
      exports: exportsOf(realm.module),
      metrics: [...realm.modules.declared].map(([name, [type, contains]]) => [name, type, contains]),
      sharedArrays: realm.modules.sharedArraysMade,
    });
    return;
  }
  if (data.mode === 'vu') {
    rt.encoder.flush();
    parentPort?.on(
      'message',
      serveVu(rt, realm, () => process.exit(0)),
    );
    post({ type: 'ready' });
    return;
  }
  // setup, teardown, summary: one call with the argument main passed as JSON.
  const argument = data.argument === undefined ? undefined : JSON.parse(data.argument);
  const name = data.mode === 'summary' ? 'handleSummary' : data.mode;
  try {
    const result = await callOnce(realm, name, argument);
    if (data.mode === 'summary') {
      if (result === undefined || result === null) post({ type: 'result', ok: true, value: undefined });
      else if (typeof result !== 'object' || Array.isArray(result))
        post({ type: 'result', ok: false, message: 'handleSummary() should return a map with string keys' });
      else {
        const outputs: Record<string, string | ArrayBuffer> = {};
        for (const [k, v] of Object.entries(result as Record<string, unknown>))
          outputs[k] = v instanceof ArrayBuffer ? v : typeof v === 'string' ? v : JSON.stringify(v);
        post({ type: 'result', ok: true, value: undefined, outputs });
      }
    } else {
      let json: string | undefined;
      try {
        json = result === undefined ? undefined : JSON.stringify(result);
      } catch (error) {
        post({
          type: 'result',
          ok: false,
          message: `error marshaling ${name}() data to JSON: ${(error as Error).message}`,
        });
        return;
      }
      post({ type: 'result', ok: true, value: json });
    }
  } catch (error) {
    if (error instanceof TestAbort) post({ type: 'abort', message: error.reason });
    // The run already says why it stopped; a stack into the script would only repeat it.
    else if (error instanceof SetupInterrupted) post({ type: 'result', ok: false, message: error.message });
    else post({ type: 'result', ok: false, message: scriptStack(error) });
  }
}

await main();
