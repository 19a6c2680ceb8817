import { crc32 } from 'node:zlib';
import sharp from 'sharp';

/** The formats a logo may have, as sharp names them (the served type is `image/<format>`). */
export const IMAGE_FORMATS = ['png', 'jpeg', 'webp', 'gif'] as const;
export type ImageFormat = (typeof IMAGE_FORMATS)[number];

/** A small real image of the given format, drawn by sharp (a colour block, so it decodes to known pixels). */
export function makeImage(format: ImageFormat, width = 16, height = 12): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 90 } } })
    .toFormat(format)
    .toBuffer();
}

/** A square of random pixels (which do not compress) in the given format. */
export function noiseImage(format: ImageFormat, side: number): Promise<Buffer> {
  const pixels = Buffer.alloc(side * side * 3);
  for (let i = 0; i < pixels.length; i++) pixels[i] = (Math.random() * 256) | 0;
  return sharp(pixels, { raw: { width: side, height: side, channels: 3 } }).toFormat(format, { compressionLevel: 1 }).toBuffer();
}

/** One PNG chunk (length, type, data, CRC), for adding text chunks or padding to a PNG. */
function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A PNG with extra chunks placed right after its IHDR chunk (signature 8 bytes + IHDR 25), where header readers see them. */
function withChunks(png: Buffer, chunks: Buffer[]): Buffer {
  return Buffer.concat([png.subarray(0, 33), ...chunks, png.subarray(33)]);
}

/** A `tEXt` chunk: a keyword, NUL, and Latin-1 text. */
const textChunk = (keyword: string, text: string) => pngChunk('tEXt', Buffer.from(`${keyword}\0${text}`, 'latin1'));

/** Marks written into {@link pngWithMetadata}: none may survive into a stored logo. */
export const METADATA_MARKS = { exifCopyright: 'Jane Patient 2026', textComment: 'GPS 48.8584,2.2945 secret comment' };

/** A real PNG carrying EXIF (an eXIf chunk) and a tEXt comment: what a phone or an editor leaves in a file. */
export async function pngWithMetadata(): Promise<Buffer> {
  const png = await sharp({ create: { width: 24, height: 24, channels: 3, background: '#1E90FF' } })
    .withExif({ IFD0: { Copyright: METADATA_MARKS.exifCopyright, ImageDescription: 'clinic logo' } })
    .png()
    .toBuffer();
  return withChunks(png, [textChunk('Comment', METADATA_MARKS.textComment)]);
}

/**
 * A real PNG of exactly `size` bytes: random pixels (which do not compress) padded with a tEXt
 * chunk to the byte, so the size cap can be hit exactly with an image that decodes.
 */
export async function pngOfExactly(size: number): Promise<Buffer> {
  const side = Math.floor(Math.sqrt((size * 0.9) / 3));
  const png = await noiseImage('png', side);
  // A tEXt chunk costs 12 bytes of framing plus "pad\0" before its text.
  const padding = size - png.length - 12 - 4;
  if (padding < 0) throw new Error(`random PNG of ${png.length} bytes is already over ${size}`);
  return withChunks(png, [textChunk('pad', 'x'.repeat(padding))]);
}

/** The finding's hostile upload: a PNG signature followed by zeros, `size` bytes in all. */
export function pngSignatureAndZeros(size = 2 * 1024 * 1024): Buffer {
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(size - 8)]);
}

/** Files that must be refused: SVG (script-capable), a PDF, and plain text named like a PNG. */
export const NOT_IMAGES = {
  svg: Buffer.from('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"><script>alert(1)</script></svg>'),
  pdf: Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n'),
  text: Buffer.from('definitely not a picture'),
};
