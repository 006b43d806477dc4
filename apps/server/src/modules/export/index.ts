export { type ExportOptions, type ExportParams, exportFileName, movebankCarries, writeExport } from './export.js';
