/**
 * A file's bytes as text, and back in the encoding they came in. Apple `.strings` files
 * are often UTF-16 (Xcode wrote them so for years; genstrings still does), and the API
 * takes a JSON string: the CLI decodes a file by its byte-order mark (UTF-16 LE or BE,
 * UTF-8 with a BOM, else UTF-8), sends text, and writes the answer back in the encoding it
 * read, BOM included, so a UTF-16 file stays byte for byte the encoding Xcode expects.
 */

export type FileEncoding = 'utf8' | 'utf8-bom' | 'utf16le' | 'utf16be';

export interface DecodedFile {
  readonly text: string;
  readonly encoding: FileEncoding;
}

export function decodeFile(bytes: Buffer): DecodedFile {
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return { text: bytes.subarray(2).toString('utf16le'), encoding: 'utf16le' };
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) {
    const swapped = Buffer.from(bytes.subarray(2));
    swapped.swap16();
    return { text: swapped.toString('utf16le'), encoding: 'utf16be' };
  }
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return { text: bytes.subarray(3).toString('utf8'), encoding: 'utf8-bom' };
  return { text: bytes.toString('utf8'), encoding: 'utf8' };
}

export function encodeFile(text: string, encoding: FileEncoding): Buffer {
  switch (encoding) {
    case 'utf16le':
      return Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    case 'utf16be': {
      const body = Buffer.from(text, 'utf16le');
      body.swap16();
      return Buffer.concat([Buffer.from([0xfe, 0xff]), body]);
    }
    case 'utf8-bom':
      return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, 'utf8')]);
    default:
      return Buffer.from(text, 'utf8');
  }
}
