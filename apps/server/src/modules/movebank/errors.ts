/** A file the import can't read as Movebank data; nothing was stored. The message names the file and the problem. */
export class MovebankFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MovebankFormatError';
  }
}
