import { promises as fs } from 'node:fs';

/** Bytes sniffed to decide whether a file is binary (the same window git and ripgrep use). */
export const SNIFF_BYTES = 8192;

/** Extensions that are binary whatever their first bytes say (some start with printable headers). */
const BINARY_EXTENSIONS = new Set([
  'png',
  'jpg',
  'jpeg',
  'gif',
  'bmp',
  'ico',
  'webp',
  'tiff',
  'psd',
  'pdf',
  'zip',
  'gz',
  'tgz',
  'bz2',
  'xz',
  '7z',
  'rar',
  'jar',
  'war',
  'class',
  'exe',
  'dll',
  'so',
  'dylib',
  'o',
  'a',
  'lib',
  'bin',
  'wasm',
  'pyc',
  'mp3',
  'mp4',
  'mov',
  'avi',
  'wav',
  'flac',
  'ogg',
  'webm',
  'woff',
  'woff2',
  'ttf',
  'otf',
  'eot',
  'sqlite',
  'db',
  'node',
  'vsix',
]);

/** True when the bytes look binary: a NUL byte in them (UTF-16 files count as binary too). */
export function looksBinary(bytes: Uint8Array): boolean {
  return bytes.includes(0);
}

/** True for a file name whose extension marks it as binary. */
export function hasBinaryExtension(filePath: string): boolean {
  const dot = filePath.lastIndexOf('.');
  return dot >= 0 && BINARY_EXTENSIONS.has(filePath.slice(dot + 1).toLowerCase());
}

/** Reads up to `SNIFF_BYTES` from the start of a file and says whether it is binary. Throws fs errors. */
export async function isBinaryFile(absPath: string): Promise<boolean> {
  if (hasBinaryExtension(absPath)) return true;
  const handle = await fs.open(absPath, 'r');
  try {
    const buf = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await handle.read(buf, 0, SNIFF_BYTES, 0);
    return looksBinary(buf.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}

/** `cat -n` style: the 1-based line number right-aligned in 6 columns, a tab, the line. */
export function numberLine(lineNo: number, text: string): string {
  return `${String(lineNo).padStart(6)}\t${text}`;
}
