import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Code, type FieldPath, parseUploadUrl, UPLOADS_URL } from '@wildtrack/contract';
import sharp from 'sharp';
import type { Caller } from '../../http/caller.js';
import { AppError, FieldRefusal } from '../../http/errors.js';

/** The avatar's thumbnail height (§5 Avatar). */
export const AVATAR_THUMB_HEIGHT = 100;

const TYPES: Record<string, { ext: string; magic: (b: Buffer) => boolean }> = {
  jpg: { ext: 'jpg', magic: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  jpeg: { ext: 'jpg', magic: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  png: { ext: 'png', magic: (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) },
};

const notFound = () => new AppError(Code.NotFound, 'upload.notFound', {}, 404);

/** A name the server could have given a picture; checked before anything else, so other paths learn nothing. */
export function assertImageName(org: string, name: string): void {
  if (!/^\d+$/.test(org) || !/^[0-9a-f]{32}\.(jpg|png)$/.test(name)) throw notFound();
}

/**
 * Uploaded pictures (§7.2 /api/Image/Upload): jpg/jpeg/png kept under $WILDTRACK_DATA/uploads/<organisation>/
 * with unguessable names, served from /prod-api/files/uploads/ to whoever may see them.
 */
export class UploadService {
  private readonly root: string;

  constructor(
    dataDir: string,
    /** Whether the caller may see a device whose animal info shows the picture (DeviceGate). */
    private readonly canSeeImage: (caller: Caller, url: string) => Promise<boolean>,
  ) {
    this.root = path.join(dataDir, 'uploads');
  }

  /** Keeps a picture of the caller's organisation; answers the URL it is served from. */
  saveImage(caller: Caller, fileName: string, bytes: Buffer): { Url: string } {
    const type = TYPES[path.extname(fileName).slice(1).toLowerCase()];
    if (!type || !type.magic(bytes)) throw new AppError(Code.Invalid, 'upload.wrongType');
    const org = String(caller.session.orgId);
    fs.mkdirSync(path.join(this.root, org), { recursive: true });
    const name = `${randomBytes(16).toString('hex')}.${type.ext}`;
    fs.writeFileSync(path.join(this.root, org, name), bytes);
    return { Url: `${UPLOADS_URL}/${org}/${name}` };
  }

  /**
   * The file of a picture uploaded by the caller's organisation, named by its address in the field at
   * `field`: a picture of another organisation, or one that does not exist, is refused naming the field.
   */
  ownPicture(caller: Caller, url: string, field: FieldPath): string {
    const upload = parseUploadUrl(url);
    if (!upload || upload.org !== String(caller.session.orgId)) throw new FieldRefusal(field, 'validation.imageForeign');
    const file = path.join(this.root, upload.org, upload.name);
    if (!fs.existsSync(file)) throw new FieldRefusal(field, 'validation.imageUrl');
    return file;
  }

  /**
   * The avatar made from an uploaded picture of the caller's organisation (§5 Avatar): its thumbnail of
   * height 100 (EXIF-rotated, the picture's own type), kept as another picture of the organisation; answers
   * its address. A file sharp cannot read as a jpg or png is refused naming the field.
   */
  async avatarThumbnail(caller: Caller, url: string, field: FieldPath): Promise<string> {
    const file = this.ownPicture(caller, url, field);
    const org = String(caller.session.orgId);
    const png = file.endsWith('.png');
    const name = `${randomBytes(16).toString('hex')}.${png ? 'png' : 'jpg'}`;
    try {
      const meta = await sharp(file).metadata();
      if (meta.format !== (png ? 'png' : 'jpeg')) throw new Error(`not ${png ? 'png' : 'jpeg'}: ${meta.format}`);
      const resized = sharp(file).rotate().resize({ height: AVATAR_THUMB_HEIGHT });
      await (png ? resized.png() : resized.jpeg({ quality: 85 })).toFile(path.join(this.root, org, name));
    } catch {
      throw new FieldRefusal(field, 'upload.wrongType');
    }
    return `${UPLOADS_URL}/${org}/${name}`;
  }

  /**
   * The file of a picture the caller may see: one of their organisation's, or one shown by a device they
   * can see. Anything else is "not found", like a name that does not exist.
   */
  async imageFile(caller: Caller, org: string, name: string): Promise<{ file: string; type: string }> {
    assertImageName(org, name);
    if (String(caller.session.orgId) !== org && !(await this.canSeeImage(caller, `${UPLOADS_URL}/${org}/${name}`))) throw notFound();
    const file = path.join(this.root, org, name);
    if (!fs.existsSync(file)) throw notFound();
    return { file, type: name.endsWith('.png') ? 'image/png' : 'image/jpeg' };
  }
}
