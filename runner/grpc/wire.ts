// Messages between a VU's k6/net/grpc clients and its gRPC I/O worker (runner/grpc-io.worker.ts).

/** Where the client's .proto files come from (Client.load). */
export type ProtoSource =
  | { importPaths: string[]; files: string[] }
  /** A serialized FileDescriptorSet (Client.loadProtoset). */
  | { protoset: Uint8Array };

/** VU -> worker. Every command is answered by one GrpcReply with the same id. */
export type GrpcCommand =
  | {
      t: 'connect';
      id: number;
      client: number;
      address: string;
      plaintext: boolean;
      timeoutMs: number;
      insecure: boolean;
      protos: ProtoSource[];
      authority?: string;
      /** Learn the services from the server's reflection service (connect's `reflect: true`). */
      reflect: boolean;
    }
  | {
      t: 'invoke';
      id: number;
      client: number;
      method: string;
      request: unknown;
      metadata: Record<string, string | string[]>;
      timeoutMs: number;
      /** Client.healthCheck(): the worker's own grpc.health.v1.Health/Check, not a loaded method. */
      health?: true;
    }
  | { t: 'close'; id: number; client: number }
  | {
      t: 'stream-open';
      id: number;
      client: number;
      method: string;
      metadata: Record<string, string | string[]>;
      timeoutMs: number;
    }
  | { t: 'stream-write'; id: number; message: unknown }
  | { t: 'stream-end'; id: number };

export type GrpcReply =
  | { t: 'connected'; id: number; error?: string }
  | {
      t: 'response';
      id: number;
      status: number;
      message: unknown;
      headers: Record<string, string[]>;
      trailers: Record<string, string[]>;
      error?: { code: number; message: string; details: unknown[] };
      start: number;
      end: number;
    }
  | { t: 'closed'; id: number }
  /** A stream's event; `id` is the stream's (its stream-open command's id). */
  | { t: 'stream-data'; id: number; message: unknown }
  | { t: 'stream-end'; id: number }
  | { t: 'stream-error'; id: number; code: number; message: string };
