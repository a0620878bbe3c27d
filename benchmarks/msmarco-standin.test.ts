import { describe, expect, it } from 'vitest';
import { MSMARCO_PASSAGE_FILES, msmarcoStandIns, passageFileName, QUERY_FILE_NAME } from './msmarco-standin';

describe('msmarcoStandIns', () => {
  const files = msmarcoStandIns(20, 5);

  it('names every passage file the tool walks through and the query file', () => {
    expect(files.size).toBe(MSMARCO_PASSAGE_FILES + 1);
    expect(files.has('msmarco_v2.1_doc_segmented_00.parquet')).toBe(true);
    expect(files.has(passageFileName(MSMARCO_PASSAGE_FILES - 1))).toBe(true);
    expect(files.has(QUERY_FILE_NAME)).toBe(true);
    // One small file stands in for each of them.
    expect(files.get(passageFileName(7))).toBe(files.get(passageFileName(0)));
  });

  it('is the same for the same seed, different for another', () => {
    const again = msmarcoStandIns(20, 5);
    expect(Buffer.from(again.get(QUERY_FILE_NAME) as Uint8Array)).toEqual(
      Buffer.from(files.get(QUERY_FILE_NAME) as Uint8Array),
    );
    const other = msmarcoStandIns(20, 5, 2);
    expect(Buffer.from(other.get(QUERY_FILE_NAME) as Uint8Array)).not.toEqual(
      Buffer.from(files.get(QUERY_FILE_NAME) as Uint8Array),
    );
  });

  it('holds 1024 floats per embedding: 20 passages take at least 80 KiB', () => {
    expect((files.get(passageFileName(0)) as Uint8Array).length).toBeGreaterThan(20 * 1024 * 4);
  });
});
