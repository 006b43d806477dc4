/// <reference types="vite/client" />

/** A part of a language's texts (src/i18n/parts.ts, made by vite.config.ts's wildtrack-i18n-parts plugin). */
declare module 'virtual:wildtrack-i18n/*' {
  const texts: Record<string, unknown>;
  export default texts;
  /** The contract's messages of the part, as `messageResources` writes them (src/i18n/contract-messages.ts). */
  export const contract: Record<string, string>;
}
