// One recall sample: an ANN query and an exact kNN query (strong: every acknowledged row) of the same vector, the
// ANN answer scored against the exact one (lib/recall-at-k.ts). Both requests carry `role: recall` and no cell tags,
// so they never count in a cell's latency. k6 I/O through the client; null when either query failed.
import { recallAtK } from './recall-at-k';
import type { TurbopufferClient } from './turbopuffer-client';
import type { Consistency } from './turbopuffer-wire';

export function sampleRecall(
  client: TurbopufferClient,
  namespace: string,
  vector: number[],
  topK: number,
  consistency: Consistency,
): number | null {
  const tags = { role: 'recall' };
  const ann = client.query(
    namespace,
    { rank_by: ['vector', 'ANN', vector], top_k: topK, consistency: { level: consistency } },
    tags,
  );
  if (ann.status !== 200) return null;
  const exact = client.query(
    namespace,
    { rank_by: ['vector', 'kNN', vector], top_k: topK, consistency: { level: 'strong' } },
    tags,
  );
  if (exact.status !== 200) return null;
  const ids = (res: typeof ann) => (res.body?.rows ?? []).map((row) => row.id);
  return recallAtK(ids(ann), ids(exact));
}
