/**
 * The header of an XMP packet (XMP Specification Part 1, 7.3.2): the processing instruction
 * `<?xpacket begin="…" id="…"?>` that opens the packet, and the attributes it is written with, in whichever
 * order. Only the first instruction counts: a packet has one header.
 */
export interface PacketHeader {
  /** Each attribute as written, by name (`begin`, `id`, and the deprecated `bytes` and `encoding`). */
  attributes: Record<string, string>;
}

const MAX_HEADER = 1024;

/** The packet's header, or null when its text does not open with a `<?xpacket begin=…?>` instruction. */
export function packetHeader(text: string): PacketHeader | null {
  const at = text.indexOf('<?xpacket');
  if (at < 0) return null;
  const end = text.indexOf('?>', at);
  if (end < 0 || end - at > MAX_HEADER) return null;
  const attributes: Record<string, string> = {};
  for (const match of text.slice(at + '<?xpacket'.length, end).matchAll(/([\w.:-]+)\s*=\s*(["'])(.*?)\2/gs))
    attributes[match[1]!] = match[3]!;
  // the first instruction is the trailer (`end="w"`) only when the packet has no header
  return 'begin' in attributes ? { attributes } : null;
}
