import { createSocket } from 'node:dgram';
import { isIPv4 } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * A DNS server on loopback (UDP) for the webhook name checks: it answers A and AAAA questions from `records`
 * (a name's addresses), NXDOMAIN for any other name, or, `silent`, never answers at all.
 */
export async function startDnsServer(records: Record<string, string[]>, silent = false) {
  const socket = createSocket('udp4');
  let questions = 0;
  socket.on('message', (query, peer) => {
    questions += 1;
    if (silent) return;
    // the question: labels up to a zero byte, then its type and class
    let at = 12;
    const labels: string[] = [];
    while (query[at]! > 0) {
      labels.push(query.subarray(at + 1, at + 1 + query[at]!).toString('ascii'));
      at += query[at]! + 1;
    }
    const type = query.readUInt16BE(at + 1);
    const question = query.subarray(12, at + 5);
    const name = labels.join('.').toLowerCase();
    const known = records[name];
    const addresses = (known ?? []).filter((a) => (type === 1 ? isIPv4(a) : type === 28 && !isIPv4(a)));
    const header = Buffer.alloc(12);
    header.writeUInt16BE(query.readUInt16BE(0), 0);
    header.writeUInt16BE(known ? 0x8180 : 0x8183, 2); // a response, recursion available; NXDOMAIN if unknown
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(addresses.length, 6);
    const answers = addresses.map((address) => {
      const data = Buffer.from(ipaddr.parse(address).toByteArray());
      const record = Buffer.alloc(12);
      record.writeUInt16BE(0xc00c, 0); // the name: a pointer to the question's
      record.writeUInt16BE(type, 2);
      record.writeUInt16BE(1, 4);
      record.writeUInt32BE(60, 6);
      record.writeUInt16BE(data.length, 10);
      return Buffer.concat([record, data]);
    });
    socket.send(Buffer.concat([header, question, ...answers]), peer.port, peer.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return {
    server: `127.0.0.1:${socket.address().port}`,
    questions: () => questions,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
