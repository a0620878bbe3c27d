// One thread's handle on a segment: its kernels instance and typed views over the whole shared memory.
import { type Kernels, kernelsFor } from './kernels/kernels';
import type { SegmentLayout } from './layout';

export interface SegmentRuntime {
  readonly layout: SegmentLayout;
  readonly memory: WebAssembly.Memory;
  readonly kernels: Kernels;
  /** f32 view of the whole memory: value at byte address a is f32[a >> 2]. */
  readonly f32: Float32Array;
  /** u32 view of the whole memory. */
  readonly u32: Uint32Array;
  /** int8 and i16 views of the whole memory (codes). */
  readonly i8: Int8Array;
  readonly i16: Int16Array;
}

/** Segments never grow after creation (initial = maximum pages), so these views stay valid for its lifetime. */
export function segmentRuntime(memory: WebAssembly.Memory, layout: SegmentLayout): SegmentRuntime {
  return {
    layout,
    memory,
    kernels: kernelsFor(memory),
    f32: new Float32Array(memory.buffer),
    u32: new Uint32Array(memory.buffer),
    i8: new Int8Array(memory.buffer),
    i16: new Int16Array(memory.buffer),
  };
}

/** One thread's segments by id, as the executor numbered them: where its tasks look a segment up. */
export class SegmentTable {
  private readonly runtimes = new Map<number, SegmentRuntime>();

  add(id: number, memory: WebAssembly.Memory, layout: SegmentLayout): void {
    this.runtimes.set(id, segmentRuntime(memory, layout));
  }

  /** The segment, or undefined when it was dropped already (work that may arrive after the drop). */
  find(id: number): SegmentRuntime | undefined {
    return this.runtimes.get(id);
  }

  /** The segment; a task naming one this thread does not hold is a bug, so this throws. */
  get(id: number): SegmentRuntime {
    const rt = this.runtimes.get(id);
    if (!rt) throw new Error(`vector engine: unknown segment ${id}`);
    return rt;
  }

  drop(id: number): void {
    this.runtimes.delete(id);
  }
}

/** A fresh shared memory sized for the layout; pages are committed lazily by the OS on first write. */
export function allocateSegmentMemory(layout: SegmentLayout): WebAssembly.Memory {
  return new WebAssembly.Memory({ initial: layout.pages, maximum: layout.pages, shared: true });
}
