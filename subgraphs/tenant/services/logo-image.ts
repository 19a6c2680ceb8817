import type sharp from 'sharp';
import { LOGO_MAX_BYTES } from '../../../schema/upload-limits';
import { LOGO_MAX_PIXELS, LOGO_MAX_SIDE, LOGO_STORED_SIDE } from '../logo-limits';

/** Image formats a logo may have (sharp's names): raster formats every browser and receipt printer pipeline renders safely. */
const ACCEPTED = ['png', 'jpeg', 'webp', 'gif'] as const;
type LogoFormat = (typeof ACCEPTED)[number];

let loaded: typeof sharp | undefined;

/**
 * sharp, loaded with the first logo: libvips costs a process ~10 MiB resident, and logo uploads
 * are rare, so most processes never need it. Its decoder settings are process-wide,
 * set once here. Only the four accepted decoders may run on upload bytes (SVG, TIFF, HEIF... are
 * refused before any of their parsers sees a byte); one libvips thread per image, so the callers' decode slots
 * (TenantDeps.decodes) bound the threads in use; nothing cached, since an upload is seen once.
 */
function sharpLib(): typeof sharp {
  if (loaded) return loaded;
  const lib = require('sharp') as typeof sharp;
  lib.block({ operation: ['VipsForeignLoad'] });
  lib.unblock({ operation: ['VipsForeignLoadPngBuffer', 'VipsForeignLoadJpegBuffer', 'VipsForeignLoadWebpBuffer', 'VipsForeignLoadNsgifBuffer'] });
  lib.concurrency(1);
  lib.cache(false);
  return (loaded = lib);
}

type Encoder = (image: sharp.Sharp) => sharp.Sharp;

/**
 * Re-encodings per format, tried in order until one fits in the bounds' bytes (docs/decisions.md,
 * Logos are bounded). PNG rows get adaptive filters at the strongest compression: libspng picks
 * each row's filter (Up, Paeth...) as the uploader's encoder did, where sharp's default (no
 * filter) stored a 45 KB gradient as 28 MB. PNG's fallback is a palette of 256 colours, at most a
 * byte a pixel; JPEG and WebP step down in quality (high first, to keep a logo's edges); GIF is a
 * palette already.
 */
const ENCODINGS: Record<LogoFormat, readonly Encoder[]> = {
  png: [(image) => image.png({ compressionLevel: 9, adaptiveFiltering: true }), (image) => image.png({ compressionLevel: 9, adaptiveFiltering: true, palette: true })],
  jpeg: [90, 75, 60].map((quality): Encoder => (image) => image.jpeg({ quality })),
  webp: [90, 75, 50].map((quality): Encoder => (image) => image.webp({ quality })),
  gif: [(image) => image.gif()],
};

/** A logo that passed: its type and the bytes to store (re-encoded, without metadata). */
export interface CheckedLogo {
  contentType: string;
  bytes: Buffer;
}

/** How large a stored logo may be: the square it must fit inside, in pixels, and its bytes. */
export interface LogoBounds {
  side: number;
  maxBytes: number;
}

/** The bounds of every stored logo (docs/decisions.md, Logos are bounded); tests may pass tighter ones. */
const STORED: LogoBounds = { side: LOGO_STORED_SIDE, maxBytes: LOGO_MAX_BYTES };

/** Why a file is not a logo, worded for the client. */
export type LogoRefusal = { refused: string };

const NOT_AN_IMAGE = 'file must be a PNG, JPEG, WebP or GIF image (judged by its content, not its name or declared type)';

/** True when the bytes read as SVG: refused on purpose (it can carry script), and worth saying so. */
function looksLikeSvg(bytes: Buffer): boolean {
  return /<svg[\s>]/i.test(bytes.subarray(0, 4096).toString('utf8'));
}

/**
 * Judges an upload by decoding it, never by its signature alone: the header is read first (format
 * and dimensions, cheap), then the first frame is decoded in full under a pixel limit, resized to
 * fit inside the bounds' square (never enlarged) and re-encoded in the same format, no larger than
 * the bounds' bytes (an image that cannot be is refused). Re-encoding drops every piece of metadata
 * (EXIF with GPS, comments, text chunks, ICC profiles; orientation is applied to the pixels first)
 * and keeps only the first frame of an animation. All of it runs on libuv's thread pool, so the event
 * loop stays free; the caller bounds how many run at once (TenantDeps.decodes).
 */
export async function checkLogoImage(bytes: Buffer, bounds: LogoBounds = STORED): Promise<CheckedLogo | LogoRefusal> {
  if (looksLikeSvg(bytes)) return { refused: 'SVG images are not accepted (they can carry scripts); upload a PNG, JPEG, WebP or GIF image' };
  let header: sharp.Metadata;
  try {
    // Header only: the dimensions are judged here, with a clearer answer than the decoder's limit.
    header = await sharpLib()(bytes, { limitInputPixels: false }).metadata();
  } catch {
    return { refused: NOT_AN_IMAGE };
  }
  const format = ACCEPTED.find((accepted) => accepted === header.format);
  if (!format) return { refused: NOT_AN_IMAGE };
  const { width = 0, height = 0 } = header;
  if (width > LOGO_MAX_SIDE || height > LOGO_MAX_SIDE) {
    return { refused: `image must be at most ${LOGO_MAX_SIDE}x${LOGO_MAX_SIDE} pixels (this one is ${width}x${height})` };
  }
  // failOn 'warning' (sharp's default, stated here on purpose): a truncated or damaged image is refused, not half-decoded.
  // Fit inside the stored square, never enlarged: a small file with a big canvas must not become big bytes.
  const pipeline = () =>
    sharpLib()(bytes, { limitInputPixels: LOGO_MAX_PIXELS, failOn: 'warning', pages: 1, autoOrient: true }).resize({
      width: bounds.side,
      height: bounds.side,
      fit: 'inside',
      withoutEnlargement: true,
    });
  try {
    // Each fallback decodes again: rare (noise-like images only), and cheaper than holding raw pixels.
    for (const encode of ENCODINGS[format]) {
      const encoded = await encode(pipeline()).toBuffer();
      if (encoded.length <= bounds.maxBytes) return { contentType: `image/${format}`, bytes: encoded };
    }
  } catch {
    return { refused: 'file could not be decoded as an image (it is corrupt or truncated)' };
  }
  return { refused: `image is too detailed to store in ${bounds.maxBytes} bytes at ${bounds.side}x${bounds.side} pixels; upload a simpler image` };
}
