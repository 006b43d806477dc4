export { importMovebank, importOutcome, type ImportProgress, type MovebankImportOptions, type MovebankImportReport, type MovebankServices } from './import.js';
export { checkMovebankFile } from './reader.js';
export { CHUNK } from './writer.js';
export { MovebankFormatError } from './errors.js';
export { movebankImei } from './values.js';
export { STANDARD_GRAVITY } from './acceleration.js';
export { unpackDelivery } from './delivery.js';
