// Present in every runtime the contract runs in (Node >= 20 and browsers); declared here so the
// contract needs neither the DOM nor the Node type libraries.
declare function btoa(data: string): string;
declare function atob(data: string): string;
declare class TextDecoder {
  constructor(label?: string, options?: { fatal?: boolean });
  decode(input?: Uint8Array): string;
}
declare class TextEncoder {
  encode(input?: string): Uint8Array;
}
/** The Compression Streams API (browsers, also on plain-HTTP pages; Node >= 18), as far as the contract uses it. */
declare class DecompressionStream {
  constructor(format: 'deflate' | 'deflate-raw' | 'gzip');
  readonly writable: { getWriter(): { write(chunk: Uint8Array<ArrayBuffer>): Promise<void>; close(): Promise<void> } };
  readonly readable: { getReader(): { read(): Promise<{ done: boolean; value?: Uint8Array }> } };
}
declare class CompressionStream {
  constructor(format: 'deflate' | 'deflate-raw' | 'gzip');
  readonly writable: { getWriter(): { write(chunk: Uint8Array<ArrayBuffer>): Promise<void>; close(): Promise<void> } };
  readonly readable: { getReader(): { read(): Promise<{ done: boolean; value?: Uint8Array }> } };
}
