// A self-signed ECDSA P-256 certificate for the bot's TLS server, made at start-up with
// nothing but node:crypto (protocol section 3). Node can make the key and sign, but not build
// an X.509 certificate, so this file is a minimal DER encoder for exactly one shape of
// certificate: v3, subject = issuer = "O=arena, CN=localhost", SAN DNS:localhost, a CA,
// key usage digitalSignature + keyCertSign, extended key usage server + client auth.

import * as crypto from "node:crypto";

/** A DER TLV with the given tag byte. */
function tlv(tag: number, ...content: Buffer[]): Buffer {
  const body = Buffer.concat(content);
  const n = body.length;
  let len: Buffer;
  if (n < 0x80) {
    len = Buffer.from([n]);
  } else {
    const bytes: number[] = [];
    for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
    len = Buffer.from([0x80 | bytes.length, ...bytes]);
  }
  return Buffer.concat([Buffer.from([tag]), len, body]);
}

const seq = (...c: Buffer[]): Buffer => tlv(0x30, ...c);
const set = (...c: Buffer[]): Buffer => tlv(0x31, ...c);
const octets = (b: Buffer): Buffer => tlv(0x04, b);
const bitString = (b: Buffer, unused = 0): Buffer => tlv(0x03, Buffer.from([unused]), b);
const utf8 = (s: string): Buffer => tlv(0x0c, Buffer.from(s, "utf8"));
const explicit = (n: number, ...c: Buffer[]): Buffer => tlv(0xa0 | n, ...c);
const boolTrue = (): Buffer => tlv(0x01, Buffer.from([0xff]));

/** A DER INTEGER from a small non-negative number. */
function smallInt(v: number): Buffer {
  return tlv(0x02, Buffer.from([v]));
}

/** A DER OBJECT IDENTIFIER from its dotted form. */
function oid(dotted: string): Buffer {
  const arcs = dotted.split(".").map(Number);
  const out: number[] = [40 * arcs[0] + arcs[1]];
  for (const arc of arcs.slice(2)) {
    const chunk: number[] = [arc & 0x7f];
    for (let v = Math.floor(arc / 128); v > 0; v = Math.floor(v / 128)) chunk.unshift(0x80 | (v & 0x7f));
    out.push(...chunk);
  }
  return tlv(0x06, Buffer.from(out));
}

/** UTCTime (years 1950-2049), else GeneralizedTime, as RFC 5280 asks. */
function time(d: Date): Buffer {
  const p = (n: number): string => String(n).padStart(2, "0");
  const rest =
    p(d.getUTCMonth() + 1) + p(d.getUTCDate()) + p(d.getUTCHours()) + p(d.getUTCMinutes()) + p(d.getUTCSeconds()) + "Z";
  const y = d.getUTCFullYear();
  if (y >= 1950 && y < 2050) return tlv(0x17, Buffer.from(p(y % 100) + rest, "ascii"));
  return tlv(0x18, Buffer.from(String(y) + rest, "ascii"));
}

function extension(id: string, critical: boolean, value: Buffer): Buffer {
  return critical ? seq(oid(id), boolTrue(), octets(value)) : seq(oid(id), octets(value));
}

export interface ServerCert {
  /** The certificate, DER. */
  der: Buffer;
  /** The certificate, PEM. */
  certPem: string;
  /** The private key, PKCS#8 PEM. */
  keyPem: string;
}

/** Makes a fresh P-256 key and a self-signed CA certificate for `localhost`, valid for a year. */
export function makeServerCert(now: Date = new Date()): ServerCert {
  const { privateKey, publicKey } = crypto.generateKeyPairSync("ec", { namedCurve: "prime256v1" });
  const spki = publicKey.export({ type: "spki", format: "der" });

  // A positive serial of 16 random bytes, minimally encoded (first byte 0x40..0x7f).
  const serialBytes = crypto.randomBytes(16);
  serialBytes[0] = (serialBytes[0] & 0x3f) | 0x40;
  const serial = tlv(0x02, serialBytes);

  const ecdsaWithSha256 = seq(oid("1.2.840.10045.4.3.2"));
  const name = seq(set(seq(oid("2.5.4.10"), utf8("arena"))), set(seq(oid("2.5.4.3"), utf8("localhost"))));
  const notBefore = new Date(now.getTime() - 60 * 60 * 1000);
  const notAfter = new Date(now.getTime() + 365 * 24 * 60 * 60 * 1000);

  // The subject key identifier: SHA-1 of the public key's bits (RFC 5280 4.2.1.2, method 1);
  // the point is the last 65 bytes of a P-256 SPKI.
  const ski = crypto.createHash("sha1").update(spki.subarray(spki.length - 65)).digest();

  const extensions = explicit(
    3,
    seq(
      extension("2.5.29.15", true, bitString(Buffer.from([0x84]), 2)), // digitalSignature, keyCertSign
      extension("2.5.29.37", false, seq(oid("1.3.6.1.5.5.7.3.1"), oid("1.3.6.1.5.5.7.3.2"))), // server, client auth
      extension("2.5.29.19", true, seq(boolTrue())), // basicConstraints: CA
      extension("2.5.29.14", false, octets(ski)),
      extension("2.5.29.17", false, seq(tlv(0x82, Buffer.from("localhost", "ascii")))), // SAN dNSName
    ),
  );

  const tbs = seq(
    explicit(0, smallInt(2)), // v3
    serial,
    ecdsaWithSha256,
    name,
    seq(time(notBefore), time(notAfter)),
    name,
    spki,
    extensions,
  );
  const signature = crypto.sign("sha256", tbs, privateKey); // DER ECDSA-Sig-Value
  const der = seq(tbs, ecdsaWithSha256, bitString(signature));

  const b64 = der.toString("base64").replace(/(.{64})/g, "$1\n");
  const certPem = `-----BEGIN CERTIFICATE-----\n${b64.replace(/\n$/, "")}\n-----END CERTIFICATE-----\n`;
  const keyPem = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
  return { der, certPem, keyPem };
}
