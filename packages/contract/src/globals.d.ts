// Present in every runtime the contract runs in (Node >= 20 and browsers); declared here so the
// contract needs neither the DOM nor the Node type libraries.
declare function btoa(data: string): string;
declare function atob(data: string): string;
declare class TextDecoder {
  decode(input?: Uint8Array): string;
}
