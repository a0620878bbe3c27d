// The slice of the WebAssembly JS API the vector engine uses. Node provides it at run time, but the Node world's
// tsconfig has no DOM lib to declare it (esbuild's typings declare only an empty WebAssembly.Module).
declare namespace WebAssembly {
  interface MemoryDescriptor {
    initial: number;
    maximum?: number;
    shared?: boolean;
  }
  class Memory {
    constructor(descriptor: MemoryDescriptor);
    readonly buffer: SharedArrayBuffer;
  }
  /** Merges with esbuild's empty declaration of the same interface. */
  interface Module {
    readonly [Symbol.toStringTag]: string;
  }
  var Module: { new (bytes: Uint8Array): Module };
  class Instance {
    constructor(module: Module, imports: Record<string, Record<string, unknown>>);
    readonly exports: Record<string, unknown>;
  }
}
