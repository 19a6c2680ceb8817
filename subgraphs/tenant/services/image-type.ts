import { fromBuffer } from 'file-type';

/** Image types a logo may have: raster formats every browser and receipt printer pipeline renders safely. */
export const ACCEPTED_IMAGE_TYPES: readonly string[] = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'];

/**
 * The image type judged by the file's magic bytes (the client's content type is never
 * trusted), or null when it is not one of the accepted ones.
 */
export async function sniffImageType(bytes: Buffer): Promise<string | null> {
  const detected = await fromBuffer(bytes);
  return detected && ACCEPTED_IMAGE_TYPES.includes(detected.mime) ? detected.mime : null;
}

/** True when the bytes read as SVG: refused on purpose (it can carry script), and worth saying so. */
export function looksLikeSvg(bytes: Buffer): boolean {
  return /<svg[\s>]/i.test(bytes.subarray(0, 4096).toString('utf8'));
}
