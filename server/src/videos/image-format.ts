// Recognizes the image formats the renderer reads by their leading bytes, whatever the server's
// Content-Type says.

export const IMAGE_FORMATS = ["png", "jpeg", "gif", "webp", "bmp", "tiff"] as const;
export type ImageFormat = (typeof IMAGE_FORMATS)[number];

function startsWith(bytes: Uint8Array, signature: readonly number[], offset = 0): boolean {
  return bytes.length >= offset + signature.length && signature.every((b, i) => bytes[offset + i] === b);
}

export function sniffImageFormat(bytes: Uint8Array): ImageFormat | undefined {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "png";
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "jpeg";
  if (startsWith(bytes, [0x47, 0x49, 0x46, 0x38])) return "gif";
  if (startsWith(bytes, [0x52, 0x49, 0x46, 0x46]) && startsWith(bytes, [0x57, 0x45, 0x42, 0x50], 8)) return "webp";
  if (startsWith(bytes, [0x42, 0x4d])) return "bmp";
  if (startsWith(bytes, [0x49, 0x49, 0x2a, 0x00]) || startsWith(bytes, [0x4d, 0x4d, 0x00, 0x2a])) return "tiff";
  return undefined;
}

export interface ImageSize {
  width: number;
  height: number;
}

/**
 * Width and height from the image's header, without decoding it (a small file can declare a huge
 * image: a 500 KB PNG of 8000×8000 took ffmpeg to 600 MB). Undefined when the header is unreadable.
 */
export function imageSize(bytes: Buffer, format: ImageFormat): ImageSize | undefined {
  try {
    const size = SIZE_READERS[format](bytes);
    return size && size.width > 0 && size.height > 0 ? size : undefined;
  } catch {
    return undefined; // a header cut short: reads past the end throw RangeError
  }
}

const SIZE_READERS: Record<ImageFormat, (bytes: Buffer) => ImageSize | undefined> = {
  // IHDR is the first chunk: width and height as 32-bit big-endian at 16 and 20.
  png: (b) => (b.toString("latin1", 12, 16) === "IHDR" ? { width: b.readUInt32BE(16), height: b.readUInt32BE(20) } : undefined),
  // The logical screen: 16-bit little-endian at 6 and 8.
  gif: (b) => ({ width: b.readUInt16LE(6), height: b.readUInt16LE(8) }),
  // BITMAPCOREHEADER (12 bytes) has 16-bit sizes; the later headers 32-bit, height negative when top-down.
  bmp: (b) =>
    b.readUInt32LE(14) === 12
      ? { width: b.readUInt16LE(18), height: b.readUInt16LE(20) }
      : { width: b.readInt32LE(18), height: Math.abs(b.readInt32LE(22)) },
  jpeg: jpegSize,
  webp: webpSize,
  tiff: tiffSize,
};

/** The first start-of-frame marker (SOF0–SOF15 but DHT, JPG and DAC) holds height, then width. */
function jpegSize(b: Buffer): ImageSize | undefined {
  let offset = 2;
  while (offset + 9 < b.length) {
    if (b[offset] !== 0xff) return undefined;
    const marker = b[offset + 1]!;
    if (marker === 0xff) {
      offset += 1; // fill byte
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      offset += 2; // markers without a length
      continue;
    }
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: b.readUInt16BE(offset + 5), width: b.readUInt16BE(offset + 7) };
    }
    if (marker === 0xd9 || marker === 0xda) return undefined; // end of image or scan data before any frame header
    offset += 2 + b.readUInt16BE(offset + 2);
  }
  return undefined;
}

/** The first chunk after `RIFF....WEBP`: lossy VP8, lossless VP8L, or the extended VP8X canvas. */
function webpSize(b: Buffer): ImageSize | undefined {
  const chunk = b.toString("latin1", 12, 16);
  if (chunk === "VP8 ") return { width: b.readUInt16LE(26) & 0x3fff, height: b.readUInt16LE(28) & 0x3fff };
  if (chunk === "VP8L") {
    const bits = b.readUInt32LE(21);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === "VP8X") return { width: b.readUIntLE(24, 3) + 1, height: b.readUIntLE(27, 3) + 1 };
  return undefined;
}

/** ImageWidth (256) and ImageLength (257) of the first image file directory. */
function tiffSize(b: Buffer): ImageSize | undefined {
  const little = b[0] === 0x49;
  const u16 = (at: number) => (little ? b.readUInt16LE(at) : b.readUInt16BE(at));
  const u32 = (at: number) => (little ? b.readUInt32LE(at) : b.readUInt32BE(at));
  const directory = u32(4);
  const size: Partial<ImageSize> = {};
  for (let i = 0, count = u16(directory); i < count; i++) {
    const entry = directory + 2 + i * 12;
    const tag = u16(entry);
    if (tag !== 256 && tag !== 257) continue;
    const value = u16(entry + 2) === 3 ? u16(entry + 8) : u32(entry + 8); // SHORT or LONG
    if (tag === 256) size.width = value;
    else size.height = value;
  }
  return size.width !== undefined && size.height !== undefined ? { width: size.width, height: size.height } : undefined;
}
