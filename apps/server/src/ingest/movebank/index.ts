export { checkMovebankFile, importMovebank, CHUNK, type MovebankImportOptions, type MovebankImportReport, type MovebankServices } from './import.js';
export { MovebankFormatError } from './errors.js';
export { movebankImei } from './values.js';
export { movebankServices } from './services.js';
