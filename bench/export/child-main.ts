// The entry of bench/export's child process (bundled by index.ts): format, database file, device id, span.
import { runChild } from './child.js';

await runChild(process.argv[2]!, process.argv[3]!, Number(process.argv[4]), Number(process.argv[5]));
